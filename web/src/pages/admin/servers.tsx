import { useEffect, useState } from 'preact/hooks';
import type { paths } from '../../../../clients/typescript/index';
import { api, outcome } from '../../api';
import { Alert, Loading, StatusBadge } from '../../components/ui';
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
      <table class="list">
        <caption class="sr-only">Every tenant's servers</caption>
        <thead>
          <tr>
            <th scope="col">Host name</th>
            <th scope="col">Status</th>
            <th scope="col">Tenant</th>
            <th scope="col">Node</th>
            <th scope="col">VMID</th>
          </tr>
        </thead>
        <tbody>
          {servers.map((server) => (
            <tr>
              <td data-label="Host name">
                <a href={`/servers/${server.id}`}>{server.hostname}</a>
              </td>
              <td data-label="Status">
                <StatusBadge status={server.status} />
              </td>
              <td data-label="Tenant">{server.tenantId}</td>
              <td data-label="Node">{server.provider.node ?? '—'}</td>
              <td data-label="VMID">{server.provider.vmid ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
