/**
 * The nodes: what they report about themselves (status, usage by running guests, network) and
 * how /cluster/resources and /nodes list them.
 */
import crypto from 'node:crypto';
import type { SimCluster, SimNode } from './cluster';
import { GiB, MiB, memoryMiB, vcpus } from './config-values';

const KERNEL = { sysname: 'Linux', release: '6.8.12-4-pve', version: '#1 SMP PREEMPT_DYNAMIC PMX 6.8.12-4', machine: 'x86_64' };
/** Memory a node uses with no guest running. */
const HOST_MEM_BASE = 2 * GiB;

/** A node as GET /cluster/resources lists it. */
export function nodeResource(cluster: SimCluster, n: SimNode): Record<string, unknown> {
  const u = nodeUsage(cluster, n.name);
  return {
    id: `node/${n.name}`,
    type: 'node',
    node: n.name,
    status: n.status,
    level: '',
    ...(n.status === 'online'
      ? {
          maxcpu: n.cpus,
          maxmem: n.memoryGiB * GiB,
          mem: u.mem,
          cpu: u.cpu,
          uptime: Math.floor(Date.now() / 1000) - cluster.bootTime,
          maxdisk: 100 * GiB,
          disk: 8 * GiB,
        }
      : {}),
  };
}

/** GET /nodes: the node entries of /cluster/resources, with the certificate fingerprint of those online. */
export function nodeList(cluster: SimCluster): object[] {
  return [...cluster.nodes.values()].map((n) => {
    const { id: _id, type: _type, maxdisk: _maxdisk, disk: _disk, ...entry } = nodeResource(cluster, n);
    return n.status === 'online' ? { ...entry, ssl_fingerprint: fingerprint(n.name) } : entry;
  });
}

function nodeUsage(cluster: SimCluster, node: string): { mem: number; cpu: number; running: number } {
  let mem = HOST_MEM_BASE;
  let cpuCount = 0;
  let running = 0;
  for (const g of cluster.guests.values()) {
    if (g.node !== node || g.status !== 'running') continue;
    mem += memoryMiB(g.config) * MiB;
    cpuCount += vcpus(g.config);
    running++;
  }
  const n = cluster.nodes.get(node);
  const cpu = n ? Math.min(1, 0.01 + (cpuCount * 0.02) / n.cpus) : 0;
  return { mem, cpu: Math.round(cpu * 10_000) / 10_000, running };
}

/** GET /nodes/{node}/status. */
export function nodeStatus(cluster: SimCluster, node: string): object {
  const n = cluster.checkNode(node);
  const u = nodeUsage(cluster, node);
  const total = n.memoryGiB * GiB;
  return {
    cpu: u.cpu,
    wait: 0,
    idle: 0,
    uptime: Math.floor(Date.now() / 1000) - cluster.bootTime,
    loadavg: [(u.cpu * n.cpus).toFixed(2), '0.40', '0.35'],
    pveversion: `pve-manager/${cluster.settings.pveVersion}/0000000000000000`,
    kversion: `Linux ${KERNEL.release} ${KERNEL.version}`,
    'current-kernel': KERNEL,
    cpuinfo: {
      model: n.cpuModel ?? 'QEMU Virtual CPU',
      cpus: n.cpus,
      cores: Math.max(1, n.cpus / 2),
      sockets: 1,
      flags: n.cpuFlags.join(' '),
    },
    memory: { total, used: u.mem, free: total - u.mem, ...(cluster.majorRelease >= 9 ? { available: total - u.mem } : {}) },
    swap: { total: 8 * GiB, used: 0, free: 8 * GiB },
    rootfs: { total: 100 * GiB, used: 8 * GiB, free: 92 * GiB, avail: 92 * GiB },
    ksm: { shared: 0 },
    'boot-info': { mode: 'efi', secureboot: 0 },
  };
}

/** GET /nodes/{node}/network: the bridges, the same on every node. */
export function networkList(cluster: SimCluster, node: string): object[] {
  cluster.checkNode(node);
  return [...cluster.bridges.values()].map((b) => ({
    iface: b.iface,
    type: 'bridge',
    active: 1,
    autostart: 1,
    bridge_ports: 'eno1',
    ...(b.vlanAware ? { 'bridge_vlan_aware': 1 } : {}),
    method: 'manual',
    families: ['inet'],
  }));
}

function fingerprint(node: string): string {
  const h = crypto.createHash('sha256').update(`sim:${node}`).digest('hex').toUpperCase();
  return (h.match(/../g) ?? []).join(':');
}
