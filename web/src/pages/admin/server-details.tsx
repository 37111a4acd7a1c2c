import { useEffect, useState } from 'preact/hooks';
import type { AdminInstance } from '../../../../clients/typescript/index';
import { api, outcome } from '../../api';
import { Alert, Table } from '../../components/ui';
import type { Problem } from '../../lib/problems';
import { useSession } from '../../session';

/** What only operators see of a server: where it runs, its Proxmox tasks, its workflow in the Temporal Web UI. */
export function AdminServerDetails({ id }: { id: string }) {
  const session = useSession();
  const [server, setServer] = useState<AdminInstance>();
  const [problem, setProblem] = useState<Problem>();
  useEffect(() => void outcome(api.GET('/v1/admin/instances/{id}', { params: { path: { id } } })).then((a) => (a.ok ? setServer(a.data) : setProblem(a.problem))), [id]);
  if (!server) return <Alert problem={problem} />;
  const { provider } = server;
  const workflows = session.signedIn.temporalWorkflowsUrl;
  return (
    <div class="panel">
      <h2>Provider</h2>
      <dl class="facts">
        <dt>Tenant</dt>
        <dd>{server.tenantId}</dd>
        <dt>Node</dt>
        <dd>{provider.node ?? '—'}</dd>
        <dt>VMID</dt>
        <dd>{provider.vmid ?? '—'}</dd>
        <dt>Storage</dt>
        <dd>{provider.storage}</dd>
        <dt>Workflow</dt>
        <dd>
          {workflows ? (
            <a href={`${workflows}/${encodeURIComponent(provider.workflowId)}`} target="_blank" rel="noreferrer">
              {provider.workflowId} (Temporal Web UI)
            </a>
          ) : (
            provider.workflowId
          )}
        </dd>
      </dl>
      {provider.operations.length > 0 && (
        <Table caption="Proxmox tasks" columns={['Stage', 'Kind', 'Status', 'UPID']}>
            {provider.operations.map((op) => (
              <tr>
                <td data-label="Stage">{op.stage}</td>
                <td data-label="Kind">{op.kind}</td>
                <td data-label="Status">{op.exitStatus ?? op.status}</td>
                <td data-label="UPID">
                  <code class="wrap">{op.upid ?? '—'}</code>
                </td>
              </tr>
            ))}
        </Table>
      )}
      {server.failureCause != null && (
        <details>
          <summary>Failure cause (provider's words)</summary>
          <pre>{JSON.stringify(server.failureCause, null, 2)}</pre>
        </details>
      )}
    </div>
  );
}
