import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../../clients/typescript/index';
import { api, outcome, type User } from '../api';
import { Alert, described, Field, ShownOnce, Table } from '../components/ui';
import { when } from '../lib/format';
import { placeProblem, type PlacedProblem, type Problem } from '../lib/problems';
import { useSession } from '../session';

type Invitation = components['schemas']['Invitation'];
type Role = NonNullable<User['tenantRole']>;

const ROLE_TEXT: Record<Role, string> = {
  owner: 'Owner: users, webhooks, usage and every server',
  member: 'Member: creates servers, acts on their own and on those shared with them',
  viewer: 'Viewer: reads only',
};
const STATUS_TEXT = { pending: '… pending', accepted: '✓ accepted', expired: 'expired', revoked: '✕ revoked' } as const;

/** The tenant's people: its users with their roles and, for its owners, the invitations that bring new ones in. */
export function TeamPage() {
  const session = useSession();
  const isOwner = session.signedIn.user.tenantRole === 'owner';
  const [users, setUsers] = useState<User[]>([]);
  const [problem, setProblem] = useState<Problem>();
  const loadUsers = () =>
    void outcome(api.GET('/v1/users', { params: { query: { limit: 200 } } })).then((a) => (a.ok ? setUsers(a.data) : setProblem(a.problem)));
  useEffect(loadUsers, []);
  const me = session.signedIn.user.id;
  const change = async (user: User, body: { role?: Role; disabled?: boolean }) => {
    setProblem(undefined);
    const answer = await outcome(api.PATCH('/v1/users/{id}', { params: { path: { id: user.id } }, body }));
    if (!answer.ok) setProblem(answer.problem);
    loadUsers();
  };

  return (
    <section>
      <h1>Team</h1>
      <p class="hint">
        Everyone in your tenant and what their role lets them do. {isOwner ? 'As an owner you change the others’ roles and disable or enable them; a disabled user’s sessions end and tokens stop.' : 'A tenant owner changes roles.'}
      </p>
      <Alert problem={problem} />
      <Table caption="Users" columns={['Email', 'Role', 'Since', 'Status', ...(isOwner ? [''] : [])]}>
        {users.map((u) => (
          <tr>
            <td data-label="Email">{u.email}</td>
            <td data-label="Role">
              {isOwner && u.id !== me && u.tenantRole ? (
                <select aria-label={`Role of ${u.email}`} value={u.tenantRole} onChange={(e) => void change(u, { role: e.currentTarget.value as Role })}>
                  {(Object.keys(ROLE_TEXT) as Role[]).map((r) => (
                    <option value={r} title={ROLE_TEXT[r]}>
                      {r}
                    </option>
                  ))}
                </select>
              ) : u.tenantRole ? (
                ROLE_TEXT[u.tenantRole]
              ) : (
                '—'
              )}
            </td>
            <td data-label="Since" class="nowrap">
              {when(u.createdAt)}
            </td>
            <td data-label="Status">{u.disabledAt ? 'disabled' : 'active'}</td>
            {isOwner && (
              <td>
                {u.id === me ? (
                  <span class="muted">you</span>
                ) : (
                  <button type="button" class="secondary" onClick={() => void change(u, { disabled: !u.disabledAt })}>
                    {u.disabledAt ? 'Enable' : 'Disable'}
                  </button>
                )}
              </td>
            )}
          </tr>
        ))}
      </Table>
      {isOwner ? <Invitations onAccepted={loadUsers} /> : <p class="muted">Only a tenant owner invites people into the tenant.</p>}
    </section>
  );
}

/** Invite by email with a role: the link is shown once, to pass on (a `user.invited` webhook can mail it); pending ones can be revoked. */
function Invitations({ onAccepted }: { onAccepted(): void }) {
  const [invitations, setInvitations] = useState<Invitation[]>([]);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [hours, setHours] = useState('72');
  const [link, setLink] = useState<{ email: string; url: string }>();
  const [placed, setPlaced] = useState<PlacedProblem>({ fields: {} });
  const [problem, setProblem] = useState<Problem>();
  const load = () => void outcome(api.GET('/v1/invitations', { params: { query: { limit: 50 } } })).then((a) => (a.ok ? setInvitations(a.data) : setProblem(a.problem)));
  useEffect(load, []);

  const invite = async (event: Event) => {
    event.preventDefault();
    const answer = await outcome(api.POST('/v1/invitations', { body: { email, role, expiresInHours: Number(hours) } }));
    if (!answer.ok) return setPlaced(placeProblem(answer.problem, ['email', 'role', 'expiresInHours']));
    setPlaced({ fields: {} });
    setLink({ email: answer.data.email, url: answer.data.url });
    setEmail('');
    load();
  };
  const revoke = async (id: string) => {
    setProblem(undefined);
    const answer = await outcome(api.DELETE('/v1/invitations/{id}', { params: { path: { id } } }));
    if (!answer.ok) setProblem(answer.problem);
    load();
    onAccepted();
  };

  return (
    <div class="panel">
      <h2>Invitations</h2>
      <form onSubmit={invite} noValidate class="narrow">
        <Field id="invite-email" label="Email" error={placed.fields.email}>
          <input {...described('invite-email', placed.fields.email)} type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </Field>
        <Field id="invite-role" label="Role" error={placed.fields.role}>
          <select {...described('invite-role', placed.fields.role)} value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
            {(Object.keys(ROLE_TEXT) as Role[]).map((r) => (
              <option value={r}>{ROLE_TEXT[r]}</option>
            ))}
          </select>
        </Field>
        <Field id="invite-hours" label="Link works for (hours)" error={placed.fields.expiresInHours} hint="1 to 720 hours (30 days).">
          <input {...described('invite-hours', placed.fields.expiresInHours, 'hint')} type="number" min={1} max={720} value={hours} onInput={(e) => setHours(e.currentTarget.value)} />
        </Field>
        <Alert problem={placed.form} />
        <button type="submit">Invite</button>
      </form>
      {link && (
        <>
          <p>Send this link to {link.email}: it sets their password once.</p>
          <ShownOnce label="Invitation link" value={link.url} />
        </>
      )}
      <Alert problem={problem} />
      {invitations.length === 0 ? (
        <p class="muted">No invitations yet.</p>
      ) : (
        <Table caption="Invitations" columns={['Email', 'Role', 'Status', 'Expires', '']}>
          {invitations.map((i) => (
            <tr>
              <td data-label="Email">{i.email}</td>
              <td data-label="Role">{i.role ?? '—'}</td>
              <td data-label="Status" data-status={i.status}>
                {STATUS_TEXT[i.status]}
              </td>
              <td data-label="Expires">{when(i.expiresAt)}</td>
              <td>
                {i.status === 'pending' && (
                  <button type="button" class="secondary" onClick={() => void revoke(i.id)} aria-label={`Revoke the invitation of ${i.email}`}>
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </div>
  );
}
