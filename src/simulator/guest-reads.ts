/**
 * Reads of guests: resource entries, the node's guest list, status, config and the guest agent.
 */
import { fail } from './call';
import type { SimCluster, SimGuest } from './cluster';
import { DISK_KEY, MiB, bool, diskSize, isCdrom, memoryMiB, vcpus } from './config-values';
import { configView, pendingView } from './guest-config';

/** The machine type a running guest's QEMU reports. */
export const RUNNING_MACHINE = 'pc-i440fx-9.2+pve1';

/** A running guest's disk counters since it started (bytes, growing with its uptime); zero while it is stopped. */
function diskCounters(uptimeSeconds: number): { diskread: number; diskwrite: number } {
  if (uptimeSeconds === 0) return { diskread: 0, diskwrite: 0 };
  return { diskread: 187_695_104 + uptimeSeconds * 40_960, diskwrite: uptimeSeconds * 20_480 };
}

/** The guest's size as pvestatd reports it: vCPUs, memory and disk bytes. */
export function guestSize(g: SimGuest): { maxcpu: number; maxmem: number; maxdisk: number } {
  let maxdisk = 0;
  for (const [k, v] of Object.entries(g.config)) if (DISK_KEY.test(k) && !isCdrom(String(v))) maxdisk += diskSize(String(v));
  return { maxcpu: vcpus(g.config), maxmem: memoryMiB(g.config) * MiB, maxdisk };
}

/** A guest as GET /cluster/resources lists it. */
export function guestResource(cluster: SimCluster, g: SimGuest): Record<string, unknown> {
  const running = g.status === 'running';
  const uptime = running && g.startedAt ? Math.floor((Date.now() - g.startedAt) / 1000) : 0;
  const { maxcpu, maxmem, maxdisk } = guestSize(g);
  return {
    id: `qemu/${g.vmid}`,
    type: 'qemu',
    vmid: g.vmid,
    node: g.node,
    status: g.status,
    name: String(g.config.name ?? `VM ${g.vmid}`),
    ...(g.config.tags !== undefined ? { tags: String(g.config.tags) } : {}),
    ...(g.config.lock !== undefined ? { lock: String(g.config.lock) } : {}),
    ...(g.config.template === 1 ? { template: 1 } : {}),
    ...(g.pool !== undefined ? { pool: g.pool } : {}),
    maxcpu,
    maxmem,
    mem: running ? Math.floor(maxmem * 0.4) : 0,
    cpu: running ? 0.01 : 0,
    maxdisk,
    disk: 0,
    uptime,
    ...cluster.usage.counters(g),
    ...diskCounters(uptime),
  };
}

/** GET /nodes/{node}/qemu. */
export function qemuList(cluster: SimCluster, node: string): object[] {
  cluster.checkNode(node);
  return [...cluster.guests.values()]
    .filter((g) => g.node === node)
    .map((g) => {
      const { id: _id, type: _type, node: _node, pool: _pool, maxcpu, disk: _disk, ...entry } = guestResource(cluster, g);
      return { ...entry, cpus: maxcpu };
    });
}

/** GET /nodes/{node}/qemu/{vmid}/status/current. */
export function vmStatus(cluster: SimCluster, node: string, vmid: number): object {
  const g = cluster.guestOn(node, vmid);
  const running = g.status === 'running';
  const r = guestResource(cluster, g);
  return {
    vmid: g.vmid,
    name: r.name,
    status: g.status,
    qmpstatus: g.status,
    cpus: vcpus(g.config),
    maxmem: r.maxmem,
    mem: r.mem,
    maxdisk: r.maxdisk,
    cpu: r.cpu,
    uptime: r.uptime,
    netin: r.netin,
    netout: r.netout,
    diskread: r.diskread,
    diskwrite: r.diskwrite,
    ha: { managed: 0 },
    ...(running ? { pid: g.pid, 'running-machine': RUNNING_MACHINE, 'running-qemu': '9.2.0' } : {}),
    ...(bool(String(g.config.agent ?? '0').split(',')[0]?.replace('enabled=', '')) ? { agent: 1 } : {}),
    ...(g.config.lock !== undefined ? { lock: String(g.config.lock) } : {}),
    ...(g.config.template === 1 ? { template: 1 } : {}),
    ...(g.config.tags !== undefined ? { tags: String(g.config.tags) } : {}),
  };
}

/** GET /nodes/{node}/qemu/{vmid}/config: pending changes taken in, unless `current`. */
export function getConfig(cluster: SimCluster, node: string, vmid: number, params: Record<string, string>): object {
  return configView(cluster, cluster.guestOn(node, vmid), bool(params.current));
}

/** GET /nodes/{node}/qemu/{vmid}/pending. */
export function getPending(cluster: SimCluster, node: string, vmid: number): object[] {
  return pendingView(cluster.guestOn(node, vmid));
}

/** POST /nodes/{node}/qemu/{vmid}/agent/ping: answers once the guest ran `agentReadyMs`. */
export function agentPing(cluster: SimCluster, node: string, vmid: number): object {
  const g = cluster.guestOn(node, vmid);
  if (g.status !== 'running') throw fail(`VM ${vmid} is not running`);
  const agent = String(g.config.agent ?? '0');
  const enabled = bool(/(?:^|,)(?:enabled=)?([^,=]+)(?:,|$)/.exec(agent)?.[1]);
  if (!enabled) throw fail('No QEMU guest agent configured');
  if (!g.startedAt || Date.now() - g.startedAt < cluster.settings.agentReadyMs) throw fail('QEMU guest agent is not running');
  return { result: {} };
}
