import { useState } from 'preact/hooks';
import { api, outcome, type SignedIn } from '../api';
import { Alert, described, Field, Notice } from '../components/ui';
import type { Problem } from '../lib/problems';

export function SignInPage({ notice, onSignedIn }: { notice?: string; onSignedIn(session: SignedIn): void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<Problem>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    const answer = await outcome(api.POST('/v1/sessions', { body: { email, password } }));
    setBusy(false);
    if (answer.ok) onSignedIn(answer.data);
    else setProblem(answer.problem);
  };

  return (
    <main id="main" class="narrow">
      <h1>Sign in to pvecp</h1>
      {notice && <Notice>{notice}</Notice>}
      <form onSubmit={submit} noValidate>
        <Field id="email" label="Email">
          <input {...described('email')} type="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </Field>
        <Field id="password" label="Password">
          <input {...described('password')} type="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        </Field>
        <Alert problem={problem} />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
