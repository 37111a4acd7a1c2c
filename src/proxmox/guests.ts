/**
 * Guests (QEMU VMs): the cluster's list of them, create, clone, conversion to a template, status and usage, power, migrate, delete,
 * the guest agent's ping. Each call that starts a Proxmox task answers its UPID.
 */
import type { CallOptions, Params, ProxmoxHttp } from './http';
import { assertNode, assertVmid, guestParams } from './paths';

/** The largest cluster whose guests one /cluster/resources?type=vm read must take in. */
export const MAX_LISTED_GUESTS = 50_000;

/**
 * The cap of a /cluster/resources?type=vm answer. One guest's entry measures about 315 bytes in
 * the simulator (a 32-character name, the counters of a guest up for weeks) and up to about 420
 * with a 63-character name, tags and a pool; 1 KiB per guest leaves room for longer tags and
 * fields a real cluster adds (HA state, locks): about 49 MiB for MAX_LISTED_GUESTS.
 */
export const CLUSTER_RESOURCES_MAX_BYTES = MAX_LISTED_GUESTS * 1024;

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
  /** Bytes the guest received and sent since its QEMU process started (running guests). */
  netin?: number;
  netout?: number;
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

export interface CloneVmOptions {
  newid: number;
  name: string;
  full?: boolean;
  target?: string;
  storage?: string;
  description?: string;
  pool?: string;
}

export interface ShutdownOptions {
  timeoutSeconds?: number;
  forceStop?: boolean;
}

export interface MigrateOptions {
  target: string;
  online?: boolean;
  withLocalDisks?: boolean;
}

export class GuestsApi {
  constructor(private readonly http: ProxmoxHttp) {}

  /** GET /cluster/resources?type=vm: every guest of the cluster, up to MAX_LISTED_GUESTS of them (CLUSTER_RESOURCES_MAX_BYTES). */
  async list(call?: CallOptions): Promise<ClusterVmResource[]> {
    const options = call instanceof AbortSignal ? { signal: call } : call;
    const data = await this.http.request<ClusterVmResource[]>('GET', '/cluster/resources', {}, { type: 'vm' }, { maxResponseBytes: CLUSTER_RESOURCES_MAX_BYTES, ...options });
    return Array.isArray(data) ? data : [];
  }

  /** POST /nodes/{node}/qemu/{vmid}/clone → UPID (type qmclone, id = template VMID). */
  async clone(node: string, templateVmid: number, o: CloneVmOptions, call?: CallOptions): Promise<string> {
    const template = guestParams(node, templateVmid);
    assertVmid(o.newid);
    return this.http.task(
      'POST',
      '/nodes/{node}/qemu/{vmid}/clone',
      template,
      { newid: o.newid, name: o.name, full: o.full, target: o.target, storage: o.storage, description: o.description, pool: o.pool },
      call,
    );
  }

  /** POST /nodes/{node}/qemu → qmcreate UPID (id = VMID): a new guest with the config values given (`scsi0=<storage>:0,import-from=…` imports a disk). */
  async create(node: string, vmid: number, config: Params, call?: CallOptions): Promise<string> {
    const guest = guestParams(node, vmid);
    return this.http.task('POST', '/nodes/{node}/qemu', { node: guest.node }, { ...config, vmid }, call);
  }

  /** POST …/template → qmtemplate UPID: the stopped guest becomes a template. */
  async convertToTemplate(node: string, vmid: number, call?: CallOptions): Promise<string> {
    return this.http.task('POST', '/nodes/{node}/qemu/{vmid}/template', guestParams(node, vmid), {}, call);
  }

  async status(node: string, vmid: number, call?: CallOptions): Promise<VmStatus> {
    return this.http.request<VmStatus>('GET', '/nodes/{node}/qemu/{vmid}/status/current', guestParams(node, vmid), {}, call);
  }

  /** The guest's usage over `timeframe`, oldest point first, averaged (`AVERAGE`) or peaks (`MAX`) per point. */
  async usage(node: string, vmid: number, timeframe: RrdTimeframe, cf: 'AVERAGE' | 'MAX' = 'AVERAGE', call?: CallOptions): Promise<VmRrdPoint[]> {
    return this.http.request<VmRrdPoint[]>('GET', '/nodes/{node}/qemu/{vmid}/rrddata', guestParams(node, vmid), { timeframe, cf }, call);
  }

  async start(node: string, vmid: number, call?: CallOptions): Promise<string> {
    return this.http.task('POST', '/nodes/{node}/qemu/{vmid}/status/start', guestParams(node, vmid), {}, call);
  }

  async stop(node: string, vmid: number, call?: CallOptions): Promise<string> {
    return this.http.task('POST', '/nodes/{node}/qemu/{vmid}/status/stop', guestParams(node, vmid), {}, call);
  }

  async shutdown(node: string, vmid: number, o: ShutdownOptions = {}, call?: CallOptions): Promise<string> {
    return this.http.task('POST', '/nodes/{node}/qemu/{vmid}/status/shutdown', guestParams(node, vmid), { timeout: o.timeoutSeconds, forceStop: o.forceStop }, call);
  }

  async reboot(node: string, vmid: number, call?: CallOptions): Promise<string> {
    return this.http.task('POST', '/nodes/{node}/qemu/{vmid}/status/reboot', guestParams(node, vmid), {}, call);
  }

  async migrate(node: string, vmid: number, o: MigrateOptions, call?: CallOptions): Promise<string> {
    const guest = guestParams(node, vmid);
    assertNode(o.target);
    return this.http.task('POST', '/nodes/{node}/qemu/{vmid}/migrate', guest, { target: o.target, online: o.online, 'with-local-disks': o.withLocalDisks }, call);
  }

  /** DELETE /nodes/{node}/qemu/{vmid}?purge=1&destroy-unreferenced-disks=1 → qmdestroy UPID. */
  async delete(node: string, vmid: number, call?: CallOptions): Promise<string> {
    return this.http.task('DELETE', '/nodes/{node}/qemu/{vmid}', guestParams(node, vmid), { purge: 1, 'destroy-unreferenced-disks': 1 }, call);
  }

  /** POST .../agent/ping; throws when the guest agent does not answer. */
  async pingAgent(node: string, vmid: number, call?: CallOptions): Promise<void> {
    await this.http.request('POST', '/nodes/{node}/qemu/{vmid}/agent/ping', guestParams(node, vmid), {}, call);
  }
}
