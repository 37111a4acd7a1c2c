import { useState } from 'preact/hooks';
import { api, outcome } from '../api';
import { Alert, described, Field, Notice } from '../components/ui';
import { placeProblem, type PlacedProblem } from '../lib/problems';

/** The invite link's page: `/invite#<token>` (the token stays in the fragment, never sent in a request line). */
export function InvitePage() {
  const token = window.location.hash.slice(1);
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [placed, setPlaced] = useState<PlacedProblem>({ fields: {} });
  const [accepted, setAccepted] = useState<string>();

  const submit = async (event: Event) => {
    event.preventDefault();
    if (password !== repeat) return setPlaced({ fields: { repeat: 'the two passwords differ' } });
    const answer = await outcome(api.POST('/v1/invitations/accept', { body: { token, password } }));
    if (!answer.ok) return setPlaced(placeProblem(answer.problem, ['password']));
    history.replaceState(null, '', '/invite');
    // Signed in straight away with the new password; should that fail, the page says where to sign in.
    const session = await outcome(api.POST('/v1/sessions', { body: { email: answer.data.email, password } }));
    if (session.ok) window.location.assign('/');
    else setAccepted(answer.data.email);
  };

  if (accepted) {
    return (
      <main id="main" class="narrow">
        <h1>Password set</h1>
        <Notice>
          Your account is ready. <a href="/">Sign in as {accepted}</a>
        </Notice>
      </main>
    );
  }
  return (
    <main id="main" class="narrow">
      <h1>Choose your password</h1>
      <p>You were invited to the pvecp console. Choose the password you will sign in with: at least 12 characters.</p>
      <form onSubmit={submit} noValidate>
        <Field id="password" label="New password" error={placed.fields.password}>
          <input {...described('password', placed.fields.password)} type="password" autocomplete="new-password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        </Field>
        <Field id="repeat" label="The same password again" error={placed.fields.repeat}>
          <input {...described('repeat', placed.fields.repeat)} type="password" autocomplete="new-password" value={repeat} onInput={(e) => setRepeat(e.currentTarget.value)} />
        </Field>
        <Alert problem={placed.form} />
        <button type="submit">Set password</button>
      </form>
    </main>
  );
}
