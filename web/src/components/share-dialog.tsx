import { useEffect, useRef, useState } from 'preact/hooks';
import type { components } from '../../../clients/typescript/index';
import { api, done, outcome, type User } from '../api';
import { Alert, Table } from './ui';
import type { Problem } from '../lib/problems';

type Grant = components['schemas']['Grant'];
type Permission = Grant['permissions'][number];

/** What each permission lets the user do, in the order the API lists them (`read` is always given). */
const PERMISSION_TEXT: Record<Exclude<Permission, 'read'>, string> = {
  power: 'Start, stop and reboot',
  console: 'Open its console',
  credentials: 'Reveal its login',
  snapshots: 'Snapshots',
  backups: 'Backups',
  rebuild: 'Rebuild',
  resize: 'Resize',
  firewall: 'Firewall',
  rescue: 'Rescue and ISO',
  delete: 'Delete',
};

/** A refusal with the fields it names spelled out: the API says which field and why (`userId: the server’s creator holds every permission already`). */
function withFields(problem: Problem): Problem {
  const fields = problem.details?.fields as Record<string, string> | undefined;
  return fields ? { ...problem, message: `${problem.message} ${Object.values(fields).join('; ')}.` } : problem;
}

/**
 * The server's sharing: who may do what to it, a grant given or revoked. Only its creator and the
 * tenant's owners share a server: anyone else is told so by the API's answer and sees no form.
 */
export function ShareDialog({ instanceId, hostname }: { instanceId: string; hostname: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const [grants, setGrants] = useState<Grant[]>();
  const [users, setUsers] = useState<User[]>([]);
  const [userId, setUserId] = useState('');
  const [permissions, setPermissions] = useState<Permission[]>(['power']);
  const [refused, setRefused] = useState<Problem>();
  const [problem, setProblem] = useState<Problem>();
  const path = { params: { path: { id: instanceId } } };
  const load = () =>
    void outcome(api.GET('/v1/instances/{id}/grants', path)).then((a) => {
      if (a.ok) setGrants(a.data);
      else setRefused(a.problem);
    });

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
    if (!open) return;
    load();
    void outcome(api.GET('/v1/users', { params: { query: { limit: 200 } } })).then((a) => a.ok && setUsers(a.data));
  }, [open]);

  const share = async (event: Event) => {
    event.preventDefault();
    setProblem(undefined);
    const answer = await outcome(api.POST('/v1/instances/{id}/grants', { ...path, body: { userId, permissions } }));
    if (!answer.ok) return setProblem(withFields(answer.problem));
    load();
  };
  const revoke = async (grantee: string) => {
    setProblem(undefined);
    const answer = await done(api.DELETE('/v1/instances/{id}/grants/{userId}', { params: { path: { id: instanceId, userId: grantee } } }));
    if (!answer.ok) setProblem(answer.problem);
    load();
  };
  const toggle = (permission: Permission) => setPermissions(permissions.includes(permission) ? permissions.filter((p) => p !== permission) : [...permissions, permission]);
  // Owners hold every permission on every server of the tenant already.
  const candidates = users.filter((u) => u.tenantRole !== 'owner');
  const chosen = users.find((u) => u.id === userId);

  return (
    <>
      <button type="button" class="secondary" onClick={() => setOpen(true)}>
        Share…
      </button>
      <dialog ref={dialog} aria-labelledby="share-title" onClose={() => setOpen(false)} class="share">
        <h2 id="share-title">Share {hostname}</h2>
        {refused ? (
          <Alert problem={refused} />
        ) : (
          <>
            <form onSubmit={share} noValidate>
              <label for="share-user">User</label>
              <select id="share-user" value={userId} onChange={(e) => setUserId(e.currentTarget.value)}>
                <option value="">Choose a user…</option>
                {candidates.map((u) => (
                  <option value={u.id}>
                    {u.email} ({u.tenantRole})
                  </option>
                ))}
              </select>
              <fieldset disabled={chosen?.tenantRole === 'viewer'}>
                <legend>{chosen?.tenantRole === 'viewer' ? 'A viewer can be given read only' : 'They may, besides reading it'}</legend>
                {(Object.keys(PERMISSION_TEXT) as (keyof typeof PERMISSION_TEXT)[]).map((p) => (
                  <label class="check">
                    <input type="checkbox" checked={chosen?.tenantRole !== 'viewer' && permissions.includes(p)} onChange={() => toggle(p)} /> {PERMISSION_TEXT[p]}
                  </label>
                ))}
              </fieldset>
              <Alert problem={problem} />
              <button type="submit" disabled={!userId}>
                Share
              </button>
            </form>
            {grants && grants.length === 0 && <p class="muted">Not shared with anyone.</p>}
            {grants && grants.length > 0 && (
              <Table caption="Shared with" columns={['User', 'May', '']}>
                {grants.map((g) => (
                  <tr>
                    <td data-label="User">{g.email}</td>
                    <td data-label="May">{g.permissions.join(', ')}</td>
                    <td>
                      <button type="button" class="secondary" aria-label={`Stop sharing with ${g.email}`} onClick={() => void revoke(g.userId)}>
                        Revoke
                      </button>
                    </td>
                  </tr>
                ))}
              </Table>
            )}
          </>
        )}
        <div class="actions">
          <button type="button" class="secondary" onClick={() => setOpen(false)}>
            Close
          </button>
        </div>
      </dialog>
    </>
  );
}
