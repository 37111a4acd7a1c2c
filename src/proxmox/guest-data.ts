/**
 * Calls about a guest's data: snapshots, vzdump backups and their archives, restores. Each one
 * that starts a Proxmox task answers its UPID, as the client's other task calls do.
 */
import { assertNode, guestParams, type CallOptions, type ProxmoxClient } from './client';
import { ProxmoxError } from './errors';
import { isUpid } from './upid';

/** An entry of GET /nodes/{node}/qemu/{vmid}/snapshot (`current` left out). */
export interface SnapshotEntry {
  name: string;
  snaptime?: number;
  description?: string;
  /** 1 when the snapshot holds the guest's RAM. */
  vmstate?: number;
  parent?: string;
}

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
  /** Over the existing guest at this VMID (it must be stopped). */
  force?: boolean;
  storage?: string;
  /** New MAC addresses and SMBIOS ids. */
  unique?: boolean;
  start?: boolean;
}

const STORAGE_ID = /^[a-z][a-z0-9\-_.]*[a-z0-9]$/i;

function assertStorage(storage: string): void {
  if (!STORAGE_ID.test(storage)) throw new TypeError('invalid storage id');
}

function upidOf(method: string, path: string, data: unknown): string {
  if (!isUpid(data)) throw new ProxmoxError({ kind: 'protocol', method, path, message: 'expected a task id (UPID) in the answer' });
  return data;
}

const SNAPSHOT = '/nodes/{node}/qemu/{vmid}/snapshot';

/** GET …/snapshot: the guest's snapshots, without the `current` entry. */
export async function listSnapshots(client: ProxmoxClient, node: string, vmid: number, call?: CallOptions): Promise<SnapshotEntry[]> {
  const data = await client.request<SnapshotEntry[]>('GET', SNAPSHOT, guestParams(node, vmid), {}, call);
  return (Array.isArray(data) ? data : []).filter((s) => s.name !== 'current');
}

/** POST …/snapshot → qmsnapshot UPID. */
export async function createSnapshot(client: ProxmoxClient, node: string, vmid: number, o: { name: string; description?: string; vmstate?: boolean }, call?: CallOptions): Promise<string> {
  const data = await client.request('POST', SNAPSHOT, guestParams(node, vmid), { snapname: o.name, description: o.description, vmstate: o.vmstate }, call);
  return upidOf('POST', SNAPSHOT, data);
}

/** POST …/snapshot/{snapname}/rollback → qmrollback UPID; the guest is left stopped unless the snapshot holds RAM. */
export async function rollbackSnapshot(client: ProxmoxClient, node: string, vmid: number, name: string, call?: CallOptions): Promise<string> {
  const path = `${SNAPSHOT}/{snapname}/rollback`;
  return upidOf('POST', path, await client.request('POST', path, { ...guestParams(node, vmid), snapname: name }, {}, call));
}

/** DELETE …/snapshot/{snapname} → qmdelsnapshot UPID. */
export async function deleteSnapshot(client: ProxmoxClient, node: string, vmid: number, name: string, call?: CallOptions): Promise<string> {
  const path = `${SNAPSHOT}/{snapname}`;
  return upidOf('DELETE', path, await client.request('DELETE', path, { ...guestParams(node, vmid), snapname: name }, {}, call));
}

/**
 * POST /nodes/{node}/vzdump for one guest → vzdump UPID. Proxmox answers `OK` (no task) when the
 * guest is not on that node: that is a wrong-node error here, never a success.
 */
export async function vzdump(client: ProxmoxClient, node: string, vmid: number, o: VzdumpOptions, call?: CallOptions): Promise<string> {
  const path = '/nodes/{node}/vzdump';
  const { node: checked } = guestParams(node, vmid);
  assertStorage(o.storage);
  const data = await client.request(
    'POST',
    path,
    { node: checked },
    { vmid, storage: o.storage, mode: o.mode, compress: o.compress, 'notes-template': o.notesTemplate, protected: o.protected, lockwait: o.lockwait, remove: false },
    call,
  );
  if (data === 'OK') throw new ProxmoxError({ kind: 'http', status: 500, method: 'POST', path, message: `VM ${vmid} is not on node '${node}': nothing was backed up` });
  return upidOf('POST', path, data);
}

/** GET /nodes/{node}/storage/{storage}/content?content=backup[&vmid=N]. */
export async function listBackups(client: ProxmoxClient, node: string, storage: string, vmid?: number, call?: CallOptions): Promise<BackupVolume[]> {
  assertNode(node);
  assertStorage(storage);
  const data = await client.request<BackupVolume[]>('GET', '/nodes/{node}/storage/{storage}/content', { node, storage }, { content: 'backup', vmid }, call);
  return Array.isArray(data) ? data : [];
}

const VOLUME = '/nodes/{node}/storage/{storage}/content/{volume}';

/** PUT …/content/{volume}: notes and protection of a backup archive (synchronous). */
export async function updateBackupVolume(client: ProxmoxClient, node: string, volid: string, o: { notes?: string; protected?: boolean }, call?: CallOptions): Promise<void> {
  assertNode(node);
  const storage = volid.slice(0, volid.indexOf(':'));
  assertStorage(storage);
  await client.request('PUT', VOLUME, { node, storage, volume: volid }, { notes: o.notes, protected: o.protected }, call);
}

/** DELETE …/content/{volume} → imgdel UPID; Proxmox refuses a protected archive. */
export async function deleteBackupVolume(client: ProxmoxClient, node: string, volid: string, call?: CallOptions): Promise<string> {
  assertNode(node);
  const storage = volid.slice(0, volid.indexOf(':'));
  assertStorage(storage);
  return upidOf('DELETE', VOLUME, await client.request('DELETE', VOLUME, { node, storage, volume: volid }, {}, call));
}

/** POST /nodes/{node}/qemu with `archive` → qmrestore UPID. */
export async function restoreVm(client: ProxmoxClient, node: string, vmid: number, o: RestoreOptions, call?: CallOptions): Promise<string> {
  const path = '/nodes/{node}/qemu';
  const { node: checked } = guestParams(node, vmid);
  if (o.storage !== undefined) assertStorage(o.storage);
  const data = await client.request('POST', path, { node: checked }, { vmid, archive: o.archive, force: o.force, storage: o.storage, unique: o.unique, start: o.start }, call);
  return upidOf('POST', path, data);
}

/** GET /nodes/{node}/tasks/{upid}/log: the task's lines, in order. */
export async function taskLog(client: ProxmoxClient, upid: string, call?: CallOptions): Promise<string[]> {
  if (!isUpid(upid)) throw new TypeError('not a Proxmox task id');
  const node = upid.split(':')[1] as string;
  const data = await client.request<{ n: number; t: string }[]>('GET', '/nodes/{node}/tasks/{upid}/log', { node, upid }, { limit: 1000 }, call);
  return (Array.isArray(data) ? data : []).sort((a, b) => a.n - b.n).map((l) => l.t);
}
