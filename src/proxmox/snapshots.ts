/**
 * A guest's snapshots: list, create, roll back to, delete. Each call that starts a Proxmox task
 * answers its UPID.
 */
import type { CallOptions, ProxmoxHttp } from './http';
import { guestParams } from './paths';

/** An entry of GET /nodes/{node}/qemu/{vmid}/snapshot (`current` left out). */
export interface SnapshotEntry {
  name: string;
  snaptime?: number;
  description?: string;
  /** 1 when the snapshot holds the guest's RAM. */
  vmstate?: number;
  parent?: string;
}

export interface CreateSnapshotOptions {
  name: string;
  description?: string;
  /** Include the guest's RAM. */
  vmstate?: boolean;
}

const SNAPSHOT = '/nodes/{node}/qemu/{vmid}/snapshot';

export class SnapshotsApi {
  constructor(private readonly http: ProxmoxHttp) {}

  /** GET …/snapshot: the guest's snapshots, without the `current` entry. */
  async list(node: string, vmid: number, call?: CallOptions): Promise<SnapshotEntry[]> {
    const data = await this.http.request<SnapshotEntry[]>('GET', SNAPSHOT, guestParams(node, vmid), {}, call);
    return (Array.isArray(data) ? data : []).filter((s) => s.name !== 'current');
  }

  /** POST …/snapshot → qmsnapshot UPID. */
  async create(node: string, vmid: number, o: CreateSnapshotOptions, call?: CallOptions): Promise<string> {
    return this.http.task('POST', SNAPSHOT, guestParams(node, vmid), { snapname: o.name, description: o.description, vmstate: o.vmstate }, call);
  }

  /** POST …/snapshot/{snapname}/rollback → qmrollback UPID; the guest is left stopped unless the snapshot holds RAM. */
  async rollback(node: string, vmid: number, name: string, call?: CallOptions): Promise<string> {
    return this.http.task('POST', `${SNAPSHOT}/{snapname}/rollback`, { ...guestParams(node, vmid), snapname: name }, {}, call);
  }

  /** DELETE …/snapshot/{snapname} → qmdelsnapshot UPID. */
  async delete(node: string, vmid: number, name: string, call?: CallOptions): Promise<string> {
    return this.http.task('DELETE', `${SNAPSHOT}/{snapname}`, { ...guestParams(node, vmid), snapname: name }, {}, call);
  }
}
