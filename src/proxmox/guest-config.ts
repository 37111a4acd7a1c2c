/**
 * A guest's configuration: reads, writes (asynchronous POST, synchronous PUT), disk resize, and
 * the cloud-init keys' encoding Proxmox expects.
 */
import type { CallOptions, Params, ProxmoxHttp } from './http';
import { guestParams } from './paths';

/** GET /nodes/{node}/qemu/{vmid}/config. */
export type VmConfig = Record<string, string | number>;

/** Encodes sshkeys the way Proxmox expects ("urlencoded" format: %20 for spaces, %0A between keys). */
export function encodeSshKeys(keys: string | string[]): string {
  const text = Array.isArray(keys) ? keys.join('\n') : keys;
  return encodeURIComponent(text);
}

function withEncodedSshKeys(params: Params): Params {
  const keys = params.sshkeys;
  return typeof keys === 'string' ? { ...params, sshkeys: encodeSshKeys(keys) } : params;
}

const CONFIG = '/nodes/{node}/qemu/{vmid}/config';

export class GuestConfigApi {
  constructor(private readonly http: ProxmoxHttp) {}

  /** GET .../config (current values, including `digest`). */
  async get(node: string, vmid: number, call?: CallOptions): Promise<VmConfig> {
    return this.http.request<VmConfig>('GET', CONFIG, guestParams(node, vmid), {}, call);
  }

  /**
   * POST .../config (asynchronous). Returns the qmconfig UPID, or null when Proxmox finished
   * inside `background_delay`. `sshkeys` is given in plain text; the client encodes it.
   */
  async set(node: string, vmid: number, params: Params, call?: CallOptions): Promise<string | null> {
    return this.http.taskOrNone('POST', CONFIG, guestParams(node, vmid), withEncodedSshKeys(params), call);
  }

  /** PUT .../config (synchronous). `sshkeys` is given in plain text; the client encodes it. */
  async setSync(node: string, vmid: number, params: Params, call?: CallOptions): Promise<void> {
    await this.http.request('PUT', CONFIG, guestParams(node, vmid), withEncodedSshKeys(params), call);
  }

  /** PUT .../resize with an absolute size in GiB (idempotent). UPID since PVE 8.0, null before. */
  async resizeDisk(node: string, vmid: number, disk: string, sizeGiB: number, call?: CallOptions): Promise<string | null> {
    const guest = guestParams(node, vmid);
    if (!Number.isInteger(sizeGiB) || sizeGiB <= 0) throw new TypeError('sizeGiB must be a positive integer');
    return this.http.taskOrNone('PUT', '/nodes/{node}/qemu/{vmid}/resize', guest, { disk, size: `${sizeGiB}G` }, call);
  }
}
