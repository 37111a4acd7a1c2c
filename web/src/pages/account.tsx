import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../../clients/typescript/index';
import { api, done, outcome } from '../api';
import { Alert, Field, Notice, ShownOnce, Table, described } from '../components/ui';
import { browserName, when } from '../lib/format';
import { placeProblem, type PlacedProblem, type Problem } from '../lib/problems';
import { isAdmin, useSession } from '../session';
import { SshKeys } from './ssh-keys';
import { Webhooks } from './webhooks';

type ApiToken = components['schemas']['ApiToken'];
type Session = components['schemas']['Session'];

export function AccountPage() {
  const session = useSession();
  return (
    <section>
      <h1>Account</h1>
      <p>
        Signed in as <strong>{session.signedIn.user.email}</strong> ({session.signedIn.user.role}).
      </p>
      <SshKeys />
      <Tokens />
      <Sessions />
      {!isAdmin(session) && <Webhooks />}
      <ChangePassword />
    </section>
  );
}

function Tokens() {
  const [tokens, setTokens] = useState<ApiToken[]>([]);
  const [name, setName] = useState('');
  const [issued, setIssued] = useState<string>();
  const [problem, setProblem] = useState<Problem>();
  const load = () => void outcome(api.GET('/v1/account/tokens')).then((a) => (a.ok ? setTokens(a.data) : setProblem(a.problem)));
  useEffect(load, []);

  const create = async (event: Event) => {
    event.preventDefault();
    const answer = await outcome(api.POST('/v1/account/tokens', { body: name.trim() ? { name: name.trim() } : {} }));
    if (!answer.ok) return setProblem(answer.problem);
    setIssued(answer.data.token);
    setName('');
    load();
  };
  const revoke = async (id: string) => {
    const answer = await outcome(api.POST('/v1/account/tokens/{id}/revoke', { params: { path: { id } } }));
    if (!answer.ok) setProblem(answer.problem);
    load();
  };

  return (
    <div class="panel">
      <h2>API tokens</h2>
      <p class="muted">For scripts and panels: send one as <code>Authorization: Bearer …</code>.</p>
      <form class="inline" onSubmit={create}>
        <label for="token-name">Name</label>
        <input id="token-name" value={name} onInput={(e) => setName(e.currentTarget.value)} placeholder="What it is for" />
        <button type="submit">Create token</button>
      </form>
      {issued && <ShownOnce label="New API token" value={issued} />}
      <Alert problem={problem} />
      <Table caption="Your API tokens" hiddenCaption columns={['Name', 'State', 'Created', 'Last used', '']}>
          {tokens.map((token) => (
            <tr data-token={token.name ?? token.id}>
              <td data-label="Name">{token.name ?? <span class="muted">unnamed</span>}</td>
              <td data-label="State">{token.active ? 'Active' : token.revokedAt ? 'Revoked' : 'Inactive'}</td>
              <td data-label="Created">{when(token.createdAt)}</td>
              <td data-label="Last used">{when(token.lastUsedAt)}</td>
              <td>
                {token.active && (
                  <button type="button" class="secondary" onClick={() => revoke(token.id)} aria-label={`Revoke token ${token.name ?? token.id}`}>
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
      </Table>
    </div>
  );
}

function Sessions() {
  const session = useSession();
  const [sessions, setSessions] = useState<Session[]>([]);
  const [problem, setProblem] = useState<Problem>();
  const load = () => void outcome(api.GET('/v1/sessions')).then((a) => (a.ok ? setSessions(a.data.filter((s) => s.active)) : setProblem(a.problem)));
  useEffect(load, []);
  const revoke = async (target: Session) => {
    const answer = await outcome(api.DELETE('/v1/sessions/{id}', { params: { path: { id: target.id } } }));
    if (!answer.ok) return setProblem(answer.problem);
    if (target.current) session.forget('You are signed out.');
    else load();
  };
  return (
    <div class="panel">
      <h2>Sessions</h2>
      <Alert problem={problem} />
      <ul class="sessions">
        {sessions.map((s) => (
          <li data-session={s.id}>
            <span title={s.userAgent ?? undefined}>
              {s.current && <strong>This browser · </strong>}
              {browserName(s.userAgent)} from {s.address ?? 'an unknown address'}, signed in {when(s.createdAt)}, last seen {when(s.lastSeenAt)}
            </span>
            <button type="button" class="secondary" onClick={() => revoke(s)}>
              {s.current ? 'Sign out' : 'End session'}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

function ChangePassword() {
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [placed, setPlaced] = useState<PlacedProblem>({ fields: {} });
  const [changed, setChanged] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setChanged(false);
    const answer = await done(api.POST('/v1/account/password', { body: { currentPassword, newPassword } }));
    if (!answer.ok) return setPlaced(placeProblem(answer.problem, ['currentPassword', 'newPassword']));
    setPlaced({ fields: {} });
    setCurrent('');
    setNew('');
    setChanged(true);
  };
  return (
    <div class="panel">
      <h2>Password</h2>
      <form onSubmit={submit} noValidate class="narrow">
        <Field id="currentPassword" label="Current password" error={placed.fields.currentPassword}>
          <input {...described('currentPassword', placed.fields.currentPassword)} type="password" autocomplete="current-password" value={currentPassword} onInput={(e) => setCurrent(e.currentTarget.value)} />
        </Field>
        <Field id="newPassword" label="New password (at least 12 characters)" error={placed.fields.newPassword}>
          <input {...described('newPassword', placed.fields.newPassword)} type="password" autocomplete="new-password" value={newPassword} onInput={(e) => setNew(e.currentTarget.value)} />
        </Field>
        <Alert problem={placed.form} />
        {changed && <Notice>Password changed. Your other sessions have ended.</Notice>}
        <button type="submit">Change password</button>
      </form>
    </div>
  );
}
