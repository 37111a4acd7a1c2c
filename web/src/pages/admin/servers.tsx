import { useEffect, useState } from 'preact/hooks';
import type { paths } from '../../../../clients/typescript/index';
import { api, outcome } from '../../api';
import { Alert, Loading, ServerNameAndStatusCells, Table } from '../../components/ui';
import type { Problem } from '../../lib/problems';

type ListedServer = paths['/v1/admin/instances']['get']['responses'][200]['content']['application/json']['data'][number];

/** Every tenant's servers with where they run. */
export function ServersAdminPage() {
  const [servers, setServers] = useState<ListedServer[]>();
  const [problem, setProblem] = useState<Problem>();
  useEffect(() => void outcome(api.GET('/v1/admin/instances', { params: { query: { limit: 200 } } })).then((a) => (a.ok ? setServers(a.data) : setProblem(a.problem))), []);
  if (!servers) return problem ? <Alert problem={problem} /> : <Loading what="servers" />;
  return (
    <>
      <h1>All servers</h1>
      <Table caption="Every tenant's servers" hiddenCaption columns={['Host name', 'Status', 'Tenant', 'Node', 'VMID']}>
          {servers.map((server) => (
            <tr>
              <ServerNameAndStatusCells server={server} />
              <td data-label="Tenant">{server.tenantId}</td>
              <td data-label="Node">{server.provider.node ?? '—'}</td>
              <td data-label="VMID">{server.provider.vmid ?? '—'}</td>
            </tr>
          ))}
      </Table>
    </>
  );
}
