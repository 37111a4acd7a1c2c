import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../../clients/typescript/index';
import { api, outcome } from '../api';
import { bodyOf, draftOfRule, newRule, rowProblems, RulesEditor, type DraftEntry } from '../components/firewall-rules';
import { Alert, described, Field, Table } from '../components/ui';
import type { Problem } from '../lib/problems';

type Group = components['schemas']['FirewallGroup'];
type GroupSummary = components['schemas']['FirewallGroupSummary'];

const APPLICATION_TEXT = { applied: '✓ applied', pending: '… being applied', failed: '✕ failed' } as const;

/** The tenant's firewall groups: named rules that servers list among their own; a change reaches every server that names the group. */
export function FirewallGroupsPage() {
  const [groups, setGroups] = useState<GroupSummary[]>([]);
  const [selected, setSelected] = useState<string>();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<Problem>();
  const load = () => void outcome(api.GET('/v1/firewall-groups', { params: { query: { limit: 200 } } })).then((a) => a.ok && setGroups(a.data));
  useEffect(load, []);

  const create = async (event: Event) => {
    event.preventDefault();
    setProblem(undefined);
    const answer = await outcome(api.POST('/v1/firewall-groups', { body: { name, description: '', rules: [] } }));
    if (!answer.ok) return setProblem(answer.problem);
    setName('');
    setSelected(answer.data.id);
    load();
  };

  return (
    <section>
      <h1>Firewall groups</h1>
      <p class="hint">A group is a set of inbound rules that servers place among their own rules. Changing it applies it again to every server that uses it.</p>
      <form class="inline" onSubmit={create} noValidate>
        <label for="group-name">New group</label>
        <input id="group-name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <button type="submit">Create group</button>
      </form>
      <Alert problem={problem} />
      {groups.length === 0 ? (
        <p class="muted">No groups yet.</p>
      ) : (
        <ul class="hooks">
          {groups.map((g) => (
            <li>
              <div class="hook-row">
                <strong>{g.name}</strong> <span class="muted">{g.rules.length === 1 ? "1 rule" : `${g.rules.length} rules`}</span>
                <button type="button" class="secondary" aria-expanded={selected === g.id} onClick={() => setSelected(selected === g.id ? undefined : g.id)}>
                  Edit
                </button>
              </div>
              {selected === g.id && <GroupEditor id={g.id} onChanged={load} />}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function GroupEditor({ id, onChanged }: { id: string; onChanged(): void }) {
  const [group, setGroup] = useState<Group>();
  const [name, setName] = useState('');
  const [entries, setEntries] = useState<DraftEntry[]>([]);
  const [problem, setProblem] = useState<Problem>();
  const [problems, setProblems] = useState<Record<number, string>>({});
  const path = { params: { path: { id } } };
  const show = (g: Group) => {
    setGroup(g);
    setName(g.name);
    setEntries(g.rules.map(draftOfRule));
  };
  const reload = () => void outcome(api.GET('/v1/firewall-groups/{id}', path)).then((a) => a.ok && show(a.data));
  useEffect(reload, [id]);
  // While servers are being given the change, their state is read again.
  useEffect(() => {
    if (!group?.servers.some((s) => s.application.state === 'pending')) return undefined;
    const timer = setTimeout(() => void outcome(api.GET('/v1/firewall-groups/{id}', path)).then((a) => a.ok && setGroup(a.data)), 1000);
    return () => clearTimeout(timer);
  }, [group]);

  const save = async (event: Event) => {
    event.preventDefault();
    setProblem(undefined);
    setProblems({});
    const rules = entries.map(bodyOf) as components['schemas']['FirewallRule'][];
    const answer = await outcome(api.PATCH('/v1/firewall-groups/{id}', { ...path, body: { name, rules } }));
    if (!answer.ok) {
      setProblems(rowProblems(answer.problem.details));
      return setProblem(answer.problem);
    }
    show(answer.data);
    onChanged();
  };
  const remove = async () => {
    setProblem(undefined);
    const answer = await outcome(api.DELETE('/v1/firewall-groups/{id}', path));
    if (!answer.ok && answer.status !== 204) return setProblem(answer.problem);
    onChanged();
  };

  if (!group) return null;
  return (
    <div class="panel">
      <form onSubmit={save} noValidate>
        <Field id={`group-${id}-name`} label="Name">
          <input {...described(`group-${id}-name`)} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </Field>
        {entries.length === 0 ? <p class="muted">No rules.</p> : <RulesEditor label={`Rules of ${group.name}`} entries={entries} onChange={setEntries} problems={problems} />}
        <div class="actions">
          <button type="button" class="secondary" onClick={() => setEntries([...entries, newRule()])}>
            Add rule
          </button>
          <button type="submit">Save and apply</button>
          <button type="button" class="secondary" onClick={() => void remove()}>
            Delete group
          </button>
        </div>
      </form>
      <Alert problem={problem && Object.keys(problems).length === 0 ? problem : undefined} />
      {group.servers.length === 0 ? (
        <p class="muted">No server uses this group.</p>
      ) : (
        <Table caption="Servers using this group" columns={['Server', 'Firewall']}>
          {group.servers.map((s) => (
            <tr>
              <td data-label="Server">
                <a href={`/servers/${s.id}`}>{s.hostname}</a>
              </td>
              <td data-label="Firewall" data-application={s.application.state}>
                {APPLICATION_TEXT[s.application.state]} {s.application.errorCode && <code>{s.application.errorCode}</code>}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </div>
  );
}
