import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../../../clients/typescript/index';
import { api, outcome } from '../../api';
import { Alert, Loading, Table } from '../../components/ui';
import { gib } from '../../lib/format';
import type { Problem } from '../../lib/problems';
import { ImagesFromUrl } from './catalog-images';

type Connection = components['schemas']['AdminConnection'];
type Plan = components['schemas']['AdminPlan'];
type Image = components['schemas']['AdminImage'];
type Location = components['schemas']['AdminLocation'];
type Pool = components['schemas']['AdminIpPool'];

const archived = (row: { archivedAt: string | null }) => (row.archivedAt ? ' (archived)' : '');

/** The catalog as customers choose from it, and the clusters behind it with each node's capacity and drain switch. */
export function CatalogPage() {
  const [catalog, setCatalog] = useState<{ plans: Plan[]; images: Image[]; locations: Location[]; pools: Pool[]; connections: Connection[] }>();
  const [problem, setProblem] = useState<Problem>();
  const load = async () => {
    const query = { params: { query: { limit: 200 } } };
    const [plans, images, locations, pools, connections] = await Promise.all([
      outcome(api.GET('/v1/admin/plans', query)),
      outcome(api.GET('/v1/admin/images', query)),
      outcome(api.GET('/v1/admin/locations', query)),
      outcome(api.GET('/v1/admin/ip-pools', query)),
      outcome(api.GET('/v1/admin/connections', query)),
    ]);
    if (!plans.ok) return setProblem(plans.problem);
    if (!images.ok) return setProblem(images.problem);
    if (!locations.ok) return setProblem(locations.problem);
    if (!pools.ok) return setProblem(pools.problem);
    if (!connections.ok) return setProblem(connections.problem);
    setCatalog({ plans: plans.data, images: images.data, locations: locations.data, pools: pools.data, connections: connections.data });
  };
  useEffect(() => void load(), []);

  const setDraining = async (connectionId: string, node: string, draining: boolean) => {
    const answer = await outcome(api.PATCH('/v1/admin/connections/{id}/nodes/{node}', { params: { path: { id: connectionId, node } }, body: { draining } }));
    if (!answer.ok) return setProblem(answer.problem);
    void load();
  };

  if (!catalog) return problem ? <Alert problem={problem} /> : <Loading what="the catalog" />;
  return (
    <>
      <h1>Catalog</h1>
      <Alert problem={problem} />
      <div class="panel">
        <h2>Clusters and nodes</h2>
        {catalog.connections.map((connection) => (
          <Table
            caption={`${connection.name}${archived(connection)} · ${connection.url} · VMIDs ${connection.vmidRange.start}–${connection.vmidRange.end}`}
            columns={['Node', 'Capacity', 'State', '']}
          >
              {connection.nodes.map((node) => (
                <tr data-node={node.name}>
                  <td data-label="Node">{node.name}</td>
                  <td data-label="Capacity">
                    {node.vcpus} vCPUs, {gib(node.memoryMiB)}, {node.diskGiB} GiB disk
                  </td>
                  <td data-label="State">{!node.enabled ? '○ disabled' : node.draining ? '◐ draining' : '● taking servers'}</td>
                  <td>
                    <button type="button" class="secondary" onClick={() => setDraining(connection.id, node.name, !node.draining)}>
                      {node.draining ? `Stop draining ${node.name}` : `Drain ${node.name}`}
                    </button>
                  </td>
                </tr>
              ))}
          </Table>
        ))}
      </div>
      <div class="panel">
        <h2>Plans</h2>
        <ul class="events">
          {catalog.plans.map((plan) => (
            <li>
              <strong>{plan.name}</strong>
              {archived(plan)}: {plan.vcpus} vCPU, {gib(plan.memoryMiB)}, {plan.diskGiB} GiB
            </li>
          ))}
        </ul>
      </div>
      <div class="panel">
        <h2>Images</h2>
        <ul class="events">
          {catalog.images.map((image) => (
            <li>
              <strong>{image.name}</strong>
              {archived(image)}: {image.os} {image.version}, login {image.loginMethods.join(' or ') || 'none'}
            </li>
          ))}
        </ul>
      </div>
      <ImagesFromUrl images={catalog.images} reload={load} />
      <div class="panel">
        <h2>Locations and address pools</h2>
        <ul class="events">
          {catalog.locations.map((location) => (
            <li>
              <strong>{location.name}</strong>
              {archived(location)}:{' '}
              {catalog.pools
                .filter((pool) => pool.locationId === location.id)
                .map((pool) => `${pool.cidr}${archived(pool)}`)
                .join(', ') || 'no pools'}
            </li>
          ))}
        </ul>
      </div>
    </>
  );
}
