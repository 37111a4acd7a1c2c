import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import type { components } from '../../../clients/typescript/index';
import { api, done, outcome, type User } from '../api';
import { Alert, described, Field, Table } from '../components/ui';
import { gib } from '../lib/format';
import type { Problem } from '../lib/problems';
import { useProjects, type Project } from '../project-choice';
import { useSession } from '../session';

type Quota = components['schemas']['Project']['usage'];
type Named = { id: string; name: string };
type Role = components['schemas']['ProjectMember']['role'];

const ROLES: Role[] = ['owner', 'member', 'viewer'];
const QUOTA_FIELDS = [
  ['instances', 'Servers'],
  ['vcpus', 'vCPUs'],
  ['memoryMiB', 'Memory (MiB)'],
  ['diskGiB', 'Disk (GiB)'],
] as const;

const quotaText = (quota: Quota | null, usage: Quota) =>
  quota ? `${usage.instances} of ${quota.instances} servers, ${usage.vcpus} of ${quota.vcpus} vCPUs, ${gib(usage.memoryMiB)} of ${gib(quota.memoryMiB)}, ${usage.diskGiB} of ${quota.diskGiB} GiB` : `${usage.instances} servers, within the tenant's quota`;

/** The tenant's projects: their servers' restrictions, their own quota and who has which role in them. Tenant owners change them; everyone else reads. */
export function ProjectsPage() {
  const session = useSession();
  const choice = useProjects();
  const owner = session.signedIn.user.tenantRole === 'owner';
  // A server's page links here with `?project=<id>`: that project is shown open.
  const { query } = useLocation();
  const [open, setOpen] = useState<string | undefined>(query.project);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<Problem>();

  const create = async (event: Event) => {
    event.preventDefault();
    setProblem(undefined);
    const answer = await outcome(api.POST('/v1/projects', { body: { name } }));
    if (!answer.ok) return setProblem(answer.problem);
    setName('');
    setOpen(answer.data.id);
    choice.reload();
  };

  return (
    <section>
      <h1>Projects</h1>
      <p class="hint">Every server belongs to one project. A project may keep its servers to some plans, images and locations, and have its own quota inside the tenant's. Everyone in the tenant may create servers in the default project; other projects are for the members a tenant owner gives a role.</p>
      {owner && (
        <form class="inline" onSubmit={create} noValidate>
          <label for="project-name">New project</label>
          <input id="project-name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
          <button type="submit">Create project</button>
        </form>
      )}
      <Alert problem={problem} />
      <ul class="hooks">
        {choice.projects.map((p) => (
          <li data-project={p.name}>
            <div class="hook-row">
              <span>
                <strong>{p.name}</strong> {p.isDefault && <span class="badge badge-idle">default</span>} <span class="muted">{quotaText(p.quota, p.usage)}</span>
              </span>
              <button type="button" class="secondary" aria-expanded={open === p.id} onClick={() => setOpen(open === p.id ? undefined : p.id)}>
                {owner ? `Edit ${p.name}` : `Show ${p.name}`}
              </button>
            </div>
            {open === p.id && <ProjectEditor project={p} owner={owner} onChanged={choice.reload} />}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Choices({ legend, options, chosen, onChange, disabled }: { legend: string; options: Named[]; chosen: string[]; onChange(ids: string[]): void; disabled: boolean }) {
  return (
    <fieldset class="choices">
      <legend>{legend}</legend>
      {options.map((o) => (
        <label>
          <input type="checkbox" disabled={disabled} checked={chosen.includes(o.id)} onChange={(e) => onChange(e.currentTarget.checked ? [...chosen, o.id] : chosen.filter((id) => id !== o.id))} /> {o.name}
        </label>
      ))}
    </fieldset>
  );
}

function ProjectEditor({ project, owner, onChanged }: { project: Project; owner: boolean; onChanged(): void }) {
  const [catalog, setCatalog] = useState<{ plans: Named[]; images: Named[]; locations: Named[] }>({ plans: [], images: [], locations: [] });
  const [users, setUsers] = useState<User[]>([]);
  const [name, setName] = useState(project.name);
  const [plans, setPlans] = useState(project.allowedPlanIds ?? []);
  const [images, setImages] = useState(project.allowedImageIds ?? []);
  const [locations, setLocations] = useState(project.allowedLocationIds ?? []);
  const [quota, setQuota] = useState<Quota | null>(project.quota);
  const [adding, setAdding] = useState({ userId: '', role: 'member' as Role });
  const [problem, setProblem] = useState<Problem>();
  const path = { params: { path: { id: project.id } } };

  useEffect(() => {
    void Promise.all([outcome(api.GET('/v1/plans')), outcome(api.GET('/v1/images')), outcome(api.GET('/v1/locations'))]).then(([p, i, l]) =>
      setCatalog({ plans: p.ok ? p.data : [], images: i.ok ? i.data : [], locations: l.ok ? l.data : [] }),
    );
    if (owner) void outcome(api.GET('/v1/users', { params: { query: { limit: 200 } } })).then((a) => a.ok && setUsers(a.data.filter((u) => u.tenantRole !== 'owner')));
  }, []);

  const answered = (answer: { ok: boolean; problem?: Problem }) => {
    setProblem(answer.ok ? undefined : answer.problem);
    if (answer.ok) onChanged();
  };
  const save = async (event: Event) => {
    event.preventDefault();
    const orNull = (ids: string[]) => (ids.length > 0 ? ids : null);
    answered(await outcome(api.PATCH('/v1/projects/{id}', { ...path, body: { name, allowedPlanIds: orNull(plans), allowedImageIds: orNull(images), allowedLocationIds: orNull(locations), quota } })));
  };
  const setRole = async (userId: string, role: Role) => answered(await outcome(api.PUT('/v1/projects/{id}/members/{userId}', { params: { path: { id: project.id, userId } }, body: { role } })));
  const removeMember = async (userId: string) => answered(await done(api.DELETE('/v1/projects/{id}/members/{userId}', { params: { path: { id: project.id, userId } } })));
  const remove = async () => answered(await done(api.DELETE('/v1/projects/{id}', path)));
  const id = (field: string) => `project-${project.id}-${field}`;

  return (
    <div class="panel">
      <form onSubmit={save} noValidate>
        <Field id={id('name')} label="Name">
          <input {...described(id('name'))} disabled={!owner} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </Field>
        <p class="hint">Nothing ticked: any.</p>
        <div class="choice-groups">
          <Choices legend="Plans" options={catalog.plans} chosen={plans} onChange={setPlans} disabled={!owner} />
          <Choices legend="Images" options={catalog.images} chosen={images} onChange={setImages} disabled={!owner} />
          <Choices legend="Locations" options={catalog.locations} chosen={locations} onChange={setLocations} disabled={!owner} />
        </div>
        <label class="check">
          <input type="checkbox" disabled={!owner} checked={quota !== null} onChange={(e) => setQuota(e.currentTarget.checked ? { instances: 10, vcpus: 20, memoryMiB: 32_768, diskGiB: 500 } : null)} /> Own quota (inside the tenant's)
        </label>
        {quota && (
          <div class="filters">
            {QUOTA_FIELDS.map(([field, label]) => (
              <Field id={id(field)} label={label}>
                <input {...described(id(field))} type="number" min={0} disabled={!owner} value={quota[field]} onInput={(e) => setQuota({ ...quota, [field]: Number(e.currentTarget.value) })} />
              </Field>
            ))}
          </div>
        )}
        {owner && (
          <div class="actions">
            <button type="submit">Save project</button>
            {!project.isDefault && (
              <button type="button" class="secondary" onClick={() => void remove()}>
                Delete project
              </button>
            )}
          </div>
        )}
      </form>
      <Alert problem={problem} />
      {project.members.length === 0 ? (
        <p class="muted">{project.isDefault ? 'No one has a role here: everyone in the tenant may create servers in it and sees their own.' : 'No members yet.'}</p>
      ) : (
        <Table caption={`Members of ${project.name}`} columns={['User', 'Role', '']}>
          {project.members.map((m) => (
            <tr data-member={m.email}>
              <td data-label="User">{m.email}</td>
              <td data-label="Role">
                {owner ? (
                  <select aria-label={`Role of ${m.email}`} value={m.role} onChange={(e) => void setRole(m.userId, e.currentTarget.value as Role)}>
                    {ROLES.map((r) => (
                      <option value={r}>{r}</option>
                    ))}
                  </select>
                ) : (
                  m.role
                )}
              </td>
              <td>
                {owner && (
                  <button type="button" class="secondary" aria-label={`Remove ${m.email}`} onClick={() => void removeMember(m.userId)}>
                    Remove
                  </button>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
      {owner && (
        <form
          class="inline"
          onSubmit={(e) => {
            e.preventDefault();
            if (adding.userId) void setRole(adding.userId, adding.role);
          }}
          noValidate
        >
          <label for={id('member')}>Add member</label>
          <select id={id('member')} value={adding.userId} onChange={(e) => setAdding({ ...adding, userId: e.currentTarget.value })}>
            <option value="">Choose a user</option>
            {users.map((u) => (
              <option value={u.id}>{u.email}</option>
            ))}
          </select>
          <select aria-label="Role of the new member" value={adding.role} onChange={(e) => setAdding({ ...adding, role: e.currentTarget.value as Role })}>
            {ROLES.map((r) => (
              <option value={r}>{r}</option>
            ))}
          </select>
          <button type="submit">Add member</button>
        </form>
      )}
    </div>
  );
}
