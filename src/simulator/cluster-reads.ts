/**
 * Cluster-wide reads: /cluster/status, /cluster/resources and /pools.
 */
import { fail } from './call';
import type { SimCluster } from './cluster';
import { guestResource } from './guest-reads';
import { nodeResource } from './nodes';
import type { SimPoolSpec } from './spec';
import { storageResources } from './storage';

/** GET /cluster/status: the cluster entry, then one entry per node; the first online node is the one answering. */
export function clusterStatus(cluster: SimCluster): object[] {
  const nodes = [...cluster.nodes.values()];
  const online = nodes.filter((n) => n.status === 'online');
  const local = online[0]?.name;
  return [
    {
      type: 'cluster',
      id: 'cluster',
      name: cluster.settings.clusterName,
      nodes: nodes.length,
      quorate: online.length * 2 > nodes.length ? 1 : 0,
      version: nodes.length,
    },
    ...nodes.map((n, i) => ({
      type: 'node',
      id: `node/${n.name}`,
      name: n.name,
      nodeid: i + 1,
      ip: n.ip ?? `192.0.2.${11 + i}`,
      online: n.status === 'online' ? 1 : 0,
      local: n.name === local ? 1 : 0,
      level: '',
    })),
  ];
}

/** GET /cluster/resources, all of it or one `type` (vm, node, storage). */
export function resources(cluster: SimCluster, type?: string): object[] {
  const out: object[] = [];
  if (!type || type === 'vm') {
    for (const g of [...cluster.guests.values()].sort((a, b) => a.vmid - b.vmid)) out.push(guestResource(cluster, g));
  }
  if (!type || type === 'node') for (const n of cluster.nodes.values()) out.push(nodeResource(cluster, n));
  if (!type || type === 'storage') out.push(...storageResources(cluster));
  return out;
}

/** GET /pools: pools with their comment; with `poolid`, that pool alone with its members (guests only). */
export function poolList(cluster: SimCluster, p: Record<string, string>): object[] {
  const summary = (pool: SimPoolSpec) => ({ poolid: pool.poolid, ...(pool.comment !== undefined ? { comment: pool.comment } : {}) });
  if (p.poolid === undefined) return [...cluster.pools.values()].map(summary);
  const pool = cluster.pools.get(p.poolid);
  if (!pool) throw fail(`pool '${p.poolid}' does not exist`);
  const members =
    p.type === undefined || p.type === 'qemu'
      ? [...cluster.guests.values()].filter((g) => g.pool === pool.poolid).sort((a, b) => a.vmid - b.vmid).map((g) => guestResource(cluster, g))
      : [];
  return [{ ...summary(pool), members }];
}
