import { useEffect, useRef, useState } from 'preact/hooks';
import type { components, Instance } from '../../../clients/typescript/index';
import { api, outcome } from '../api';
import { bodyOf, draftOfRule, newRule, rowProblems, RulesEditor, type DraftEntry } from '../components/firewall-rules';
import { Alert } from '../components/ui';
import type { Problem } from '../lib/problems';
import type { Accept } from './server-protection';

type Firewall = components['schemas']['Firewall'];
type Group = components['schemas']['FirewallGroupSummary'];

const draftOf = (firewall: Firewall): DraftEntry[] => firewall.rules.map((entry) => ('group' in entry ? { kind: 'group', group: entry.group, name: entry.name } : draftOfRule(entry)));

const APPLICATION_TEXT = { applied: 'Applied: the server holds these rules.', pending: 'Being applied…', failed: 'The last apply failed.' } as const;

/**
 * A server's inbound firewall: the policy for what no rule matches, the rules in order (edited,
 * moved, groups placed among them), applied as an operation whose steps show above. Saving sends
 * the revision it was read at: a change made meanwhile elsewhere is refused, not overwritten.
 */
export function ServerFirewall({ server, revision, accept }: { server: Instance; revision: number; accept: Accept }) {
  const [firewall, setFirewall] = useState<Firewall>();
  const [policy, setPolicy] = useState<Firewall['inboundPolicy']>('accept');
  const [entries, setEntries] = useState<DraftEntry[]>([]);
  const [groups, setGroups] = useState<Group[]>([]);
  const [groupToAdd, setGroupToAdd] = useState('');
  const [problem, setProblem] = useState<Problem>();
  const [problems, setProblems] = useState<Record<number, string>>({});
  /** A draft being edited is not replaced when the page reads the server again. */
  const editing = useRef(false);
  const path = { params: { path: { id: server.id } } };

  const reload = () =>
    void outcome(api.GET('/v1/instances/{id}/firewall', path)).then((answer) => {
      if (!answer.ok) return;
      setFirewall(answer.data);
      if (editing.current) return;
      setPolicy(answer.data.inboundPolicy);
      setEntries(draftOf(answer.data));
    });
  useEffect(reload, [server.id, revision]);
  useEffect(() => void outcome(api.GET('/v1/firewall-groups', { params: { query: { limit: 200 } } })).then((a) => a.ok && setGroups(a.data)), []);

  const apply = async (event: Event) => {
    event.preventDefault();
    setProblem(undefined);
    setProblems({});
    const body = { inboundPolicy: policy, rules: entries.map(bodyOf) };
    const header = firewall ? { 'If-Match': `"${firewall.revision}"` } : {};
    const refused = await accept(() => outcome(api.PUT('/v1/instances/{id}/firewall', { params: { path: { id: server.id }, header }, body })));
    if (refused) {
      setProblems(rowProblems(refused.details));
      setProblem(refused);
    } else editing.current = false;
  };
  const edit = (next: DraftEntry[]) => {
    editing.current = true;
    setEntries(next);
  };
  const addGroup = () => {
    const group = groups.find((g) => g.id === groupToAdd);
    if (group) edit([...entries, { kind: 'group', group: group.id, name: group.name }]);
  };

  return (
    <div class="panel" id="firewall">
      <h2>Firewall</h2>
      <p class="hint">Inbound connections meet these rules in order; the first that matches decides. Outbound traffic is always allowed.</p>
      {firewall && (
        <p class={firewall.application.state === 'failed' ? 'field-error' : 'muted'} data-application={firewall.application.state}>
          {APPLICATION_TEXT[firewall.application.state]} {firewall.application.errorCode && <code>{firewall.application.errorCode}</code>}
        </p>
      )}
      <form onSubmit={apply} noValidate>
        <div class="inline">
          <label for="firewall-policy">Everything else inbound</label>
          <select id="firewall-policy" value={policy} onChange={(e) => ((editing.current = true), setPolicy(e.currentTarget.value as Firewall['inboundPolicy']))}>
            <option value="accept">accept</option>
            <option value="drop">drop</option>
          </select>
        </div>
        {entries.length === 0 ? <p class="muted">No rules.</p> : <RulesEditor label="Firewall rules" entries={entries} onChange={edit} problems={problems} />}
        <div class="actions">
          <button type="button" class="secondary" onClick={() => edit([...entries, newRule()])}>
            Add rule
          </button>
          {groups.length > 0 && (
            <>
              <select aria-label="Group to add" value={groupToAdd} onChange={(e) => setGroupToAdd(e.currentTarget.value)}>
                <option value="">Choose a group…</option>
                {groups.map((g) => (
                  <option value={g.id}>{g.name}</option>
                ))}
              </select>
              <button type="button" class="secondary" disabled={!groupToAdd} onClick={addGroup}>
                Add group
              </button>
            </>
          )}
          <button type="submit">Apply firewall</button>
        </div>
      </form>
      <Alert problem={problem && Object.keys(problems).length === 0 ? problem : undefined} />
    </div>
  );
}
