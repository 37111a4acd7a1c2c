import { useEffect, useState } from 'preact/hooks';
import type { AdminInstance } from '../../../../clients/typescript/index';
import { api, outcome } from '../../api';
import { Alert, Loading, Notice } from '../../components/ui';
import type { Problem } from '../../lib/problems';

/** Servers whose rollback could not prove the guest gone: parked until an operator retries or resolves it. */
export function ParkedPage() {
  const [parked, setParked] = useState<AdminInstance[]>();
  const [problem, setProblem] = useState<Problem>();
  const [notice, setNotice] = useState<string>();
  const [notes, setNotes] = useState<Record<string, string>>({});
  /** The list, then each one in full: the cause is only in a server's own answer. */
  const load = async () => {
    const list = await outcome(api.GET('/v1/admin/instances', { params: { query: { status: 'rollback_failed', limit: 200 } } }));
    if (!list.ok) return setProblem(list.problem);
    const full = await Promise.all(list.data.map((server) => outcome(api.GET('/v1/admin/instances/{id}', { params: { path: { id: server.id } } }))));
    setParked(full.flatMap((answer) => (answer.ok ? [answer.data] : [])));
  };
  useEffect(() => void load(), []);

  const retry = async (server: AdminInstance) => {
    const answer = await outcome(api.POST('/v1/admin/instances/{id}/rollback/retry', { params: { path: { id: server.id } } }));
    if (!answer.ok) return setProblem(answer.problem);
    setNotice(`Retrying the rollback of ${server.hostname}.`);
    void load();
  };
  const resolve = async (server: AdminInstance) => {
    const note = notes[server.id]?.trim() ?? '';
    const answer = await outcome(api.POST('/v1/admin/instances/{id}/rollback/resolve', { params: { path: { id: server.id } }, body: { note } }));
    if (!answer.ok) return setProblem(answer.problem);
    setNotice(`Resolved ${server.hostname}: its reservations are released.`);
    void load();
  };

  return (
    <>
      <h1>Parked rollbacks</h1>
      {notice && <Notice>{notice}</Notice>}
      <Alert problem={problem} />
      {!parked ? (
        <Loading what="parked rollbacks" />
      ) : parked.length === 0 ? (
        <p class="muted">Nothing is parked.</p>
      ) : (
        <ul class="cards">
          {parked.map((server) => (
            <li class="card" data-parked={server.hostname}>
              <h2>
                <a href={`/servers/${server.id}`}>{server.hostname}</a>
              </h2>
              <p>
                {server.failure?.code}: {server.failure?.message}
              </p>
              <p class="muted">
                {server.provider.node ?? 'no node'} · VMID {server.provider.vmid ?? '—'}
              </p>
              <details>
                <summary>Cause</summary>
                <pre>{JSON.stringify(server.failureCause, null, 2)}</pre>
              </details>
              <div class="actions">
                <button type="button" onClick={() => retry(server)}>
                  Retry rollback
                </button>
              </div>
              <form class="inline" onSubmit={(e) => (e.preventDefault(), void resolve(server))}>
                <label for={`note-${server.id}`}>Resolution note</label>
                <input id={`note-${server.id}`} value={notes[server.id] ?? ''} onInput={(e) => setNotes({ ...notes, [server.id]: e.currentTarget.value })} placeholder="The guest was removed by hand" />
                <button type="submit" class="secondary">
                  Mark resolved
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
