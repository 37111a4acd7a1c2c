import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../../../clients/typescript/index';
import { api, outcome } from '../../api';
import { Alert, Loading, ShownOnce } from '../../components/ui';
import { gib } from '../../lib/format';
import type { Problem } from '../../lib/problems';

type TenantDetail = components['schemas']['TenantDetail'];
type User = components['schemas']['User'];

/** Tenants with their quota and usage, and their users: invite, disable, enable. */
export function TenantsPage() {
  const [tenants, setTenants] = useState<TenantDetail[]>();
  const [users, setUsers] = useState<User[]>([]);
  const [problem, setProblem] = useState<Problem>();
  const [invite, setInvite] = useState<{ email: string; url: string }>();
  const load = async () => {
    const [list, people] = await Promise.all([outcome(api.GET('/v1/admin/tenants', { params: { query: { limit: 200 } } })), outcome(api.GET('/v1/admin/users', { params: { query: { limit: 200 } } }))]);
    if (!list.ok) return setProblem(list.problem);
    if (people.ok) setUsers(people.data);
    // The usage is only in each tenant's own answer.
    const details = await Promise.all(list.data.map((tenant) => outcome(api.GET('/v1/admin/tenants/{id}', { params: { path: { id: tenant.id } } }))));
    setTenants(details.flatMap((answer) => (answer.ok ? [answer.data] : [])));
  };
  useEffect(() => void load(), []);

  const act = async (user: User, action: 'invite' | 'disable' | 'enable') => {
    setProblem(undefined);
    const path = { params: { path: { id: user.id } } };
    if (action === 'invite') {
      const answer = await outcome(api.POST('/v1/admin/users/{id}/invites', path));
      return answer.ok ? setInvite({ email: user.email, url: answer.data.url }) : setProblem(answer.problem);
    }
    const answer = await outcome(action === 'disable' ? api.POST('/v1/admin/users/{id}/disable', path) : api.POST('/v1/admin/users/{id}/enable', path));
    if (!answer.ok) setProblem(answer.problem);
    void load();
  };

  const userRows = (tenantId: string | null) =>
    users
      .filter((user) => user.tenantId === tenantId)
      .map((user) => (
        <li data-user={user.email}>
          <span>
            {user.email} · {user.role}
            {user.disabledAt ? ' · ○ disabled' : ''}
          </span>
          <span class="actions">
            <button type="button" class="secondary" onClick={() => act(user, 'invite')}>
              Invite {user.email}
            </button>
            <button type="button" class="secondary" onClick={() => act(user, user.disabledAt ? 'enable' : 'disable')}>
              {user.disabledAt ? 'Enable' : 'Disable'} {user.email}
            </button>
          </span>
        </li>
      ));

  if (!tenants) return problem ? <Alert problem={problem} /> : <Loading what="tenants" />;
  return (
    <>
      <h1>Tenants and users</h1>
      <Alert problem={problem} />
      {invite && (
        <>
          <p>Invite link for {invite.email} (send it to them; it works once):</p>
          <ShownOnce label="Invite link" value={invite.url} />
        </>
      )}
      {tenants.map((tenant) => (
        <div class="panel" data-tenant={tenant.name}>
          <h2>{tenant.name}</h2>
          <p>
            Holds {tenant.usage.instances} of {tenant.quota.instances} servers, {tenant.usage.vcpus} of {tenant.quota.vcpus} vCPUs, {gib(tenant.usage.memoryMiB)} of {gib(tenant.quota.memoryMiB)},{' '}
            {tenant.usage.diskGiB} of {tenant.quota.diskGiB} GiB disk.
          </p>
          <ul class="sessions">{userRows(tenant.id)}</ul>
        </div>
      ))}
      <div class="panel">
        <h2>Administrators</h2>
        <ul class="sessions">{userRows(null)}</ul>
      </div>
    </>
  );
}
