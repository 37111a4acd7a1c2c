/**
 * Shapes of the Proxmox VE API answers the client reads, and of the task list query: what
 * crosses the wire, apart from the client that sends it.
 */
import type { ProxmoxTaskState } from './upid';

/** An entry of GET /cluster/resources?type=vm. */
export interface ClusterVmResource {
  /** e.g. "qemu/100" */
  id: string;
  vmid: number;
  node: string;
  status: string;
  type?: string;
  name?: string;
  /** Semicolon-separated tags. */
  tags?: string;
  lock?: string;
  template?: 0 | 1;
  maxmem?: number;
  maxcpu?: number;
  mem?: number;
  cpu?: number;
  maxdisk?: number;
  uptime?: number;
}

/** GET /nodes/{node}/qemu/{vmid}/status/current. */
export interface VmStatus {
  status: 'running' | 'stopped';
  vmid?: number;
  qmpstatus?: string;
  lock?: string;
  agent?: number;
  template?: number;
  name?: string;
  tags?: string;
  uptime?: number;
  cpus?: number;
  maxmem?: number;
  mem?: number;
  [key: string]: unknown;
}

/** The time frames GET /nodes/{node}/qemu/{vmid}/rrddata consolidates over. */
export type RrdTimeframe = 'hour' | 'day' | 'week' | 'month' | 'year';

/**
 * One consolidated point of GET /nodes/{node}/qemu/{vmid}/rrddata: `time` in Unix seconds; the
 * values are absent where Proxmox knows none (the guest was not running). `cpu` is the share of
 * `maxcpu` used (0..1), `mem` bytes, the others bytes per second.
 */
export interface VmRrdPoint {
  time: number;
  cpu?: number;
  maxcpu?: number;
  mem?: number;
  maxmem?: number;
  disk?: number;
  maxdisk?: number;
  netin?: number;
  netout?: number;
  diskread?: number;
  diskwrite?: number;
}

/** GET /nodes/{node}/qemu/{vmid}/config. */
export type VmConfig = Record<string, string | number>;

/** GET /nodes/{node}/tasks/{upid}/status. */
export interface ProxmoxTaskStatus extends ProxmoxTaskState {
  tokenid?: string;
  [key: string]: unknown;
}

/** An entry of GET /nodes/{node}/tasks. */
export interface ProxmoxTaskListEntry {
  upid: string;
  node: string;
  type: string;
  id: string;
  user: string;
  starttime: number;
  endtime?: number;
  /** Exit status for finished tasks. */
  status?: string;
  [key: string]: unknown;
}

/** An entry of GET /nodes. */
export interface NodeListEntry {
  node: string;
  status: 'online' | 'offline' | 'unknown';
  maxcpu?: number;
  maxmem?: number;
  mem?: number;
  cpu?: number;
  [key: string]: unknown;
}

/** GET /nodes/{node}/status. */
export interface NodeStatus {
  cpuinfo: { flags?: string; model?: string; cpus?: number; cores?: number; sockets?: number; [key: string]: unknown };
  memory: { total: number; used: number; free: number; [key: string]: unknown };
  loadavg?: string[];
  uptime?: number;
  cpu?: number;
  pveversion?: string;
  [key: string]: unknown;
}

/** An entry of GET /nodes/{node}/storage. */
export interface NodeStorage {
  storage: string;
  /** Content types, comma separated: `images,rootdir`, `snippets,iso`, … */
  content?: string;
  type?: string;
  /** 1 for a storage every node reaches alike (NFS, CephFS, …, or a directory marked shared). */
  shared?: number;
  /** 0 where storage.cfg does not configure the storage for this node (or disables it). */
  enabled?: number;
  /** 0 while the node cannot reach it (e.g. an NFS server away). */
  active?: number;
  [key: string]: unknown;
}

/** An entry of GET /nodes/{node}/storage/{storage}/content. */
export interface StorageVolume {
  /** e.g. local-lvm:vm-101-disk-0 */
  volid: string;
  vmid?: number;
  size?: number;
  format?: string;
  content?: string;
  ctime?: number;
  [key: string]: unknown;
}

/** Query of GET /nodes/{node}/tasks. */
export interface ListProxmoxTasksOptions {
  typefilter?: string;
  vmid?: number;
  source?: 'active' | 'archive' | 'all';
  limit?: number;
  /** Only tasks started at or after this time (epoch seconds, the node's clock). */
  since?: number;
}
