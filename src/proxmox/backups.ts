/**
 * Backups: vzdump of one guest, the archives on a storage (list, notes and protection, delete),
 * and restore, over the guest or as a new one. Each call that starts a Proxmox task answers its UPID.
 */
import { ProxmoxError } from './errors';
import { upidIn, type CallOptions, type ProxmoxHttp } from './http';
import { assertStorage, guestParams, volumeParams } from './paths';
import { readStorageContent } from './storage';

/** A backup archive as GET /nodes/{node}/storage/{storage}/content?content=backup lists it. */
export interface BackupVolume {
  /** e.g. local:backup/vzdump-qemu-101-2026_12_01-10_00_00.vma.zst */
  volid: string;
  vmid?: number;
  size?: number;
  format?: string;
  ctime?: number;
  notes?: string;
  protected?: number;
  subtype?: string;
}

export interface VzdumpOptions {
  storage: string;
  mode?: 'snapshot' | 'suspend' | 'stop';
  compress?: 'zstd' | 'gzip' | 'lzo';
  notesTemplate?: string;
  protected?: boolean;
  /** Minutes to wait for the node's global backup lock. */
  lockwait?: number;
}

export interface RestoreOptions {
  archive: string;
  /** Over the existing guest at this VMID (it must be stopped); without it the VMID must be free (restore as a new server). */
  force?: boolean;
  storage?: string;
  /** New MAC addresses and SMBIOS ids. */
  unique?: boolean;
  start?: boolean;
}

const VOLUME = '/nodes/{node}/storage/{storage}/content/{volume}';

export class BackupsApi {
  constructor(private readonly http: ProxmoxHttp) {}

  /**
   * POST /nodes/{node}/vzdump for one guest → vzdump UPID. Proxmox answers `OK` (no task) when the
   * guest is not on that node: that is a wrong-node error here, never a success.
   */
  async create(node: string, vmid: number, o: VzdumpOptions, call?: CallOptions): Promise<string> {
    const path = '/nodes/{node}/vzdump';
    const { node: checked } = guestParams(node, vmid);
    assertStorage(o.storage);
    const data = await this.http.request(
      'POST',
      path,
      { node: checked },
      { vmid, storage: o.storage, mode: o.mode, compress: o.compress, 'notes-template': o.notesTemplate, protected: o.protected, lockwait: o.lockwait, remove: false },
      call,
    );
    if (data === 'OK') throw new ProxmoxError({ kind: 'http', status: 500, method: 'POST', path, message: `VM ${vmid} is not on node '${node}': nothing was backed up` });
    return upidIn('POST', path, data);
  }

  /** GET /nodes/{node}/storage/{storage}/content?content=backup[&vmid=N]. */
  async list(node: string, storage: string, vmid?: number, call?: CallOptions): Promise<BackupVolume[]> {
    return readStorageContent<BackupVolume>(this.http, node, storage, { content: 'backup', vmid }, call);
  }

  /** PUT …/content/{volume}: notes and protection of a backup archive (synchronous). */
  async update(node: string, volid: string, o: { notes?: string; protected?: boolean }, call?: CallOptions): Promise<void> {
    await this.http.request('PUT', VOLUME, volumeParams(node, volid), { notes: o.notes, protected: o.protected }, call);
  }

  /** DELETE …/content/{volume} → imgdel UPID; Proxmox refuses a protected archive. */
  async delete(node: string, volid: string, call?: CallOptions): Promise<string> {
    return this.http.task('DELETE', VOLUME, volumeParams(node, volid), {}, call);
  }

  /** POST /nodes/{node}/qemu with `archive` → qmrestore UPID: over the guest at `vmid` (`force`), or as a new guest there. */
  async restore(node: string, vmid: number, o: RestoreOptions, call?: CallOptions): Promise<string> {
    const { node: checked } = guestParams(node, vmid);
    if (o.storage !== undefined) assertStorage(o.storage);
    return this.http.task('POST', '/nodes/{node}/qemu', { node: checked }, { vmid, archive: o.archive, force: o.force, storage: o.storage, unique: o.unique, start: o.start }, call);
  }
}
