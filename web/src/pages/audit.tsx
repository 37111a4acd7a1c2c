import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../../clients/typescript/index';
import { api, outcome, type User } from '../api';
import { Alert, Table } from '../components/ui';
import { when } from '../lib/format';
import type { Problem } from '../lib/problems';

type Entry = components['schemas']['AuditEntry'];

interface Filters {
  userId: string;
  instanceId: string;
  action: string;
  from: string;
  to: string;
}

const NO_FILTERS: Filters = { userId: '', instanceId: '', action: '', from: '', to: '' };

/** A `datetime-local` value (the browser's time zone) as the API's ISO time, or nothing. */
const isoOf = (local: string) => (local ? new Date(local).toISOString() : undefined);

/** How the actor signed what they did: a named API token, a console session, or neither. */
function signedWith(actor: NonNullable<Entry['actor']>): string {
  if (actor.via === 'token') return `token ${actor.token?.name ?? actor.token?.id ?? ''}`.trim();
  if (actor.via === 'session') return 'console session';
  return '';
}

/** An entry's details in one line, a user named by their email when they are one of the tenant's. */
function detailsText(details: Entry['details'], emails: Map<string, string>): string {
  return Object.entries(details)
    .filter(([, value]) => value !== null && !(Array.isArray(value) && value.length === 0))
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : key === 'userId' ? (emails.get(String(value)) ?? String(value)) : String(value)}`)
    .join('; ');
}

/** The tenant's audit trail (its owners'), newest first: who did what, how and from where; filtered, a page at a time. */
export function AuditPage() {
  const [users, setUsers] = useState<User[]>([]);
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  /** The cursors of the pages before this one: the first page has none. */
  const [cursors, setCursors] = useState<string[]>([]);
  const [entries, setEntries] = useState<Entry[]>([]);
  const [next, setNext] = useState<string>();
  const [problem, setProblem] = useState<Problem>();

  useEffect(() => void outcome(api.GET('/v1/users', { params: { query: { limit: 200 } } })).then((a) => a.ok && setUsers(a.data)), []);
  useEffect(() => {
    const cursor = cursors[cursors.length - 1];
    const query = {
      limit: 25,
      ...(cursor ? { cursor } : {}),
      ...(filters.userId ? { userId: filters.userId } : {}),
      ...(filters.instanceId ? { instanceId: filters.instanceId.trim() } : {}),
      ...(filters.action ? { action: filters.action.trim() } : {}),
      ...(filters.from ? { from: isoOf(filters.from) } : {}),
      ...(filters.to ? { to: isoOf(filters.to) } : {}),
    };
    void api.GET('/v1/audit', { params: { query } }).then(async (answer) => {
      const result = await outcome(Promise.resolve(answer));
      if (!result.ok) return setProblem(result.problem);
      setProblem(undefined);
      setEntries(result.data);
      setNext(answer.data?.meta.nextCursor);
    });
  }, [filters, cursors]);

  const emails = new Map(users.map((u) => [u.id, u.email]));
  const set = (key: keyof Filters) => (e: { currentTarget: HTMLInputElement | HTMLSelectElement }) => setDraft({ ...draft, [key]: e.currentTarget.value });
  const apply = (event: Event) => {
    event.preventDefault();
    setCursors([]);
    setFilters(draft);
  };

  return (
    <section>
      <h1>Audit log</h1>
      <p class="hint">Who did what in your tenant, with the API token or console session and the address it came from. Nothing secret is kept here.</p>
      <form class="filters" onSubmit={apply} noValidate aria-label="Filters">
        <label>
          User
          <select value={draft.userId} onChange={set('userId')}>
            <option value="">Anyone</option>
            {users.map((u) => (
              <option value={u.id}>{u.email}</option>
            ))}
          </select>
        </label>
        <label>
          Server id
          <input value={draft.instanceId} onInput={set('instanceId')} placeholder="inst_…" />
        </label>
        <label>
          Action
          <input value={draft.action} onInput={set('action')} placeholder="instance.reboot" />
        </label>
        <label>
          From
          <input type="datetime-local" value={draft.from} onInput={set('from')} />
        </label>
        <label>
          Until
          <input type="datetime-local" value={draft.to} onInput={set('to')} />
        </label>
        <button type="submit">Show</button>
      </form>
      <Alert problem={problem} />
      {entries.length === 0 ? (
        <p class="muted">No entries.</p>
      ) : (
        <Table caption="Audit entries, newest first" hiddenCaption columns={['When', 'Who', 'Address', 'What', 'Server']}>
          {entries.map((e) => (
            <tr>
              <td data-label="When" class="nowrap">
                {when(e.at)}
              </td>
              <td data-label="Who">
                {e.actor ? (e.actor.email ?? e.actor.userId) : 'the system'}
                {e.actor && <div class="muted small">{signedWith(e.actor)}</div>}
              </td>
              <td data-label="Address">{e.address ?? '—'}</td>
              <td data-label="What">
                <code>{e.action}</code>
                <div class="muted small">{detailsText(e.details, emails)}</div>
              </td>
              <td data-label="Server">{e.instanceId ? <a href={`/servers/${e.instanceId}`}>{e.instanceId}</a> : '—'}</td>
            </tr>
          ))}
        </Table>
      )}
      <div class="actions">
        <button type="button" class="secondary" disabled={cursors.length === 0} onClick={() => setCursors([])}>
          Newest
        </button>
        <button type="button" class="secondary" disabled={!next} onClick={() => next && setCursors([...cursors, next])}>
          Older
        </button>
      </div>
    </section>
  );
}
