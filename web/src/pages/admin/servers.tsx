import { useEffect, useState } from 'preact/hooks';
import type { paths } from '../../../../clients/typescript/index';
import { api, outcome } from '../../api';
import { Alert, Loading, ServerNameAndStatusCells, Table } from '../../components/ui';
import type { Problem } from '../../lib/problems';

type ListedServer = paths['/v1/admin/instances']['get']['responses'][200]['content']['application/json']['data'][number];

/** The calendar month before this one, `YYYY-MM` (UTC). */
function lastMonth(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
}

/** Every tenant's usage records of a month (UTC) as CSV, for a billing system. */
function UsageDownload() {
  const [month, setMonth] = useState(lastMonth());
  const [year, number] = month.split('-').map(Number) as [number, number];
  const from = new Date(Date.UTC(year, number - 1, 1)).toISOString();
  const to = new Date(Date.UTC(year, number, 1)).toISOString();
  return (
    <div class="panel" id="usage-export">
      <h2>Usage records</h2>
      <label>
        Month (UTC)
        <input type="month" value={month} required onInput={(event) => setMonth((event.target as HTMLInputElement).value || lastMonth())} />
      </label>
      <p>
        <a class="button" href={`/v1/admin/usage?${new URLSearchParams({ from, to, format: 'csv' }).toString()}`} download={`usage-${month}.csv`}>
          Download usage CSV
        </a>
      </p>
      <p class="hint">One record per server per hour: plan, seconds, state, addresses, traffic, backups and snapshots (see the API documentation for the columns).</p>
    </div>
  );
}

/** Every tenant's servers with where they run. */
export function ServersAdminPage() {
  const [servers, setServers] = useState<ListedServer[]>();
  const [problem, setProblem] = useState<Problem>();
  useEffect(() => void outcome(api.GET('/v1/admin/instances', { params: { query: { limit: 200 } } })).then((a) => (a.ok ? setServers(a.data) : setProblem(a.problem))), []);
  if (!servers) return problem ? <Alert problem={problem} /> : <Loading what="servers" />;
  return (
    <>
      <h1>All servers</h1>
      <UsageDownload />
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
