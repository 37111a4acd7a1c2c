import { useEffect, useState } from 'preact/hooks';
import type { components, paths } from '../../../../clients/typescript/index';
import { api, outcome } from '../../api';
import { Alert, Loading, Notice } from '../../components/ui';
import { when } from '../../lib/format';
import type { Problem } from '../../lib/problems';

type Orphan = paths['/v1/admin/orphans']['get']['responses'][200]['content']['application/json']['data'][number];
type Quarantined = components['schemas']['QuarantinedVmid'];

/** Guests with our marker and no live server, and VMIDs held by guests we did not make. */
export function CleanupPage() {
  const [orphans, setOrphans] = useState<Orphan[]>();
  const [quarantined, setQuarantined] = useState<Quarantined[]>([]);
  const [problem, setProblem] = useState<Problem>();
  const [notice, setNotice] = useState<string>();
  const load = async () => {
    const [o, q] = await Promise.all([outcome(api.GET('/v1/admin/orphans', { params: { query: { status: 'open', limit: 200 } } })), outcome(api.GET('/v1/admin/quarantined-vmids', { params: { query: { limit: 200 } } }))]);
    if (!o.ok) return setProblem(o.problem);
    setOrphans(o.data);
    if (q.ok) setQuarantined(q.data);
  };
  useEffect(() => void load(), []);

  const run = async (call: Promise<{ ok: boolean; problem?: Problem }>, done: string) => {
    const answer = await call;
    if (!answer.ok) setProblem(answer.problem);
    else setNotice(done);
    void load();
  };

  if (!orphans) return problem ? <Alert problem={problem} /> : <Loading what="orphans" />;
  return (
    <>
      <h1>Orphans and quarantined VMIDs</h1>
      {notice && <Notice>{notice}</Notice>}
      <Alert problem={problem} />
      <div class="panel">
        <h2>Orphan guests</h2>
        {orphans.length === 0 ? (
          <p class="muted">No open orphans.</p>
        ) : (
          <ul class="sessions">
            {orphans.map((orphan) => (
              <li>
                <span>
                  {orphan.name ?? 'unnamed'} · {orphan.node} VMID {orphan.vmid} · {orphan.reason.replace(/_/g, ' ')} · seen {when(orphan.lastSeenAt)}
                </span>
                <span class="actions">
                  <button type="button" class="danger" onClick={() => run(outcome(api.POST('/v1/admin/orphans/{id}/destroy', { params: { path: { id: orphan.id } } })), `Destroying VMID ${orphan.vmid}.`)}>
                    Destroy VMID {orphan.vmid}
                  </button>
                  <button type="button" class="secondary" onClick={() => run(outcome(api.POST('/v1/admin/orphans/{id}/forget', { params: { path: { id: orphan.id } } })), `Forgot VMID ${orphan.vmid}.`)}>
                    Forget
                  </button>
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div class="panel">
        <h2>Quarantined VMIDs</h2>
        {quarantined.length === 0 ? (
          <p class="muted">No VMID is quarantined.</p>
        ) : (
          <ul class="sessions">
            {quarantined.map((vmid) => (
              <li>
                <span>
                  VMID {vmid.vmid} · {vmid.strangerName ?? 'unnamed'} on {vmid.strangerNode ?? 'unknown'} · since {when(vmid.quarantinedAt)}
                </span>
                <button type="button" class="secondary" onClick={() => run(outcome(api.POST('/v1/admin/quarantined-vmids/{id}/release', { params: { path: { id: vmid.id } } })), `Released VMID ${vmid.vmid}.`)}>
                  Release VMID {vmid.vmid}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </>
  );
}
