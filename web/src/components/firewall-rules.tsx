import type { components } from '../../../clients/typescript/index';
import { Table } from './ui';

type Rule = components['schemas']['FirewallRule'];

/** A row being edited: a rule (its fields as typed) or a group in its place. */
export type DraftEntry =
  | { kind: 'rule'; action: Rule['action']; protocol: Rule['protocol']; port: string; sources: string; comment: string }
  | { kind: 'group'; group: string; name: string };

export const draftOfRule = (rule: { action: Rule['action']; protocol: Rule['protocol']; port?: string; sources?: string[]; comment?: string }): DraftEntry => ({
  kind: 'rule',
  action: rule.action,
  protocol: rule.protocol,
  port: rule.port ?? '',
  sources: (rule.sources ?? []).join(', '),
  comment: rule.comment ?? '',
});

export const newRule = (): DraftEntry => draftOfRule({ action: 'accept', protocol: 'tcp' });

/** A row as the API takes it. */
export function bodyOf(entry: DraftEntry): Rule | { group: string } {
  if (entry.kind === 'group') return { group: entry.group };
  const sources = entry.sources.split(/[\s,]+/).filter(Boolean);
  return { action: entry.action, protocol: entry.protocol, ...(entry.port.trim() ? { port: entry.port.trim() } : {}), sources, comment: entry.comment };
}

/** Problems per row, from `details.fields` (`rules.2.sources.0` belongs to row 3). */
export function rowProblems(details: Record<string, unknown> | undefined): Record<number, string> {
  const rows: Record<number, string> = {};
  for (const [path, message] of Object.entries((details?.fields as Record<string, string> | undefined) ?? {})) {
    const m = /^rules\.(\d+)\.?(.*)$/.exec(path);
    if (!m) continue;
    const text = `${m[2] || 'rule'}: ${message}`;
    rows[Number(m[1])] = rows[Number(m[1])] ? `${rows[Number(m[1])]}; ${text}` : text;
  }
  return rows;
}

/** The ordered rules of a server or group: edit each, move it up or down, remove it. The first rule that matches decides. */
export function RulesEditor({ entries, onChange, problems, label }: { entries: DraftEntry[]; onChange(next: DraftEntry[]): void; problems: Record<number, string>; label: string }) {
  const set = (i: number, change: Partial<DraftEntry>) => onChange(entries.map((e, j) => (j === i ? ({ ...e, ...change } as DraftEntry) : e)));
  const move = (i: number, by: -1 | 1) => {
    const next = [...entries];
    const [moved] = next.splice(i, 1);
    next.splice(i + by, 0, moved as DraftEntry);
    onChange(next);
  };
  return (
    <Table caption={label} hiddenCaption columns={['#', 'Action', 'Protocol', 'Port', 'From', 'Comment', '']}>
      {entries.map((entry, i) => (
        <tr class={problems[i] ? 'row-problem' : undefined}>
          <td data-label="#">{i + 1}</td>
          {entry.kind === 'group' ? (
            <td data-label="Group" colSpan={5}>
              Group <strong>{entry.name || entry.group}</strong>
              {problems[i] && <p class="field-error" role="alert">{problems[i]}</p>}
            </td>
          ) : (
            <>
              <td data-label="Action">
                <select aria-label={`Rule ${i + 1} action`} value={entry.action} onChange={(e) => set(i, { action: e.currentTarget.value as Rule['action'] })}>
                  <option value="accept">accept</option>
                  <option value="drop">drop</option>
                </select>
              </td>
              <td data-label="Protocol">
                <select aria-label={`Rule ${i + 1} protocol`} value={entry.protocol} onChange={(e) => set(i, { protocol: e.currentTarget.value as Rule['protocol'] })}>
                  {(['tcp', 'udp', 'icmp', 'any'] as const).map((p) => (
                    <option value={p}>{p}</option>
                  ))}
                </select>
              </td>
              <td data-label="Port">
                <input aria-label={`Rule ${i + 1} port`} size={9} placeholder="any" value={entry.port} disabled={entry.protocol !== 'tcp' && entry.protocol !== 'udp'} onInput={(e) => set(i, { port: e.currentTarget.value })} />
              </td>
              <td data-label="From">
                <input aria-label={`Rule ${i + 1} sources`} placeholder="anywhere" value={entry.sources} onInput={(e) => set(i, { sources: e.currentTarget.value })} />
                {problems[i] && <p class="field-error" role="alert">{problems[i]}</p>}
              </td>
              <td data-label="Comment">
                <input aria-label={`Rule ${i + 1} comment`} value={entry.comment} onInput={(e) => set(i, { comment: e.currentTarget.value })} />
              </td>
            </>
          )}
          <td data-label="">
            <div class="actions" role="group" aria-label={`Rule ${i + 1}`}>
              <button type="button" class="secondary" aria-label={`Move rule ${i + 1} up`} disabled={i === 0} onClick={() => move(i, -1)}>
                ↑
              </button>
              <button type="button" class="secondary" aria-label={`Move rule ${i + 1} down`} disabled={i === entries.length - 1} onClick={() => move(i, 1)}>
                ↓
              </button>
              <button type="button" class="secondary" aria-label={`Remove rule ${i + 1}`} onClick={() => onChange(entries.filter((_, j) => j !== i))}>
                Remove
              </button>
            </div>
          </td>
        </tr>
      ))}
    </Table>
  );
}
