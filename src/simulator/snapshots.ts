/**
 * Snapshots of a guest: a tree per guest, taken, rolled back and deleted by Proxmox tasks
 * (qmsnapshot, qmrollback, qmdelsnapshot) under the locks Proxmox sets, and only where every disk's
 * storage can snapshot.
 */
import { fail, type CallContext } from './call';
import type { SimCluster, SimGuest, SimSnapshot } from './cluster';
import { DISK_KEY, bool, isCdrom, splitProps } from './config-values';
import { digest } from './guest-config';
import { guestTask } from './guest-tasks';

/** Storage types whose volumes snapshot by themselves. */
const SNAPSHOT_STORAGE_TYPES = new Set(['zfspool', 'zfs', 'lvmthin', 'rbd', 'btrfs']);
/** File storages: only qcow2 images carry snapshots. */
const FILE_STORAGE_TYPES = new Set(['dir', 'nfs', 'cifs', 'cephfs', 'glusterfs']);

/** Proxmox's `has_feature('snapshot')`: every disk (CD-ROMs and cloud-init drives aside) can snapshot. */
export function canSnapshot(cluster: SimCluster, g: SimGuest): boolean {
  for (const [key, value] of Object.entries(g.config)) {
    const text = String(value);
    if (!DISK_KEY.test(key) || isCdrom(text)) continue;
    const volume = splitProps(text).first;
    const type = cluster.storages.get(volume.split(':')[0] as string)?.type ?? 'lvmthin';
    if (SNAPSHOT_STORAGE_TYPES.has(type)) continue;
    if (FILE_STORAGE_TYPES.has(type) && volume.endsWith('.qcow2')) continue;
    return false;
  }
  return true;
}

/** The guest as a task finds it when it runs (it may have gone since the call). */
function existingGuest(cluster: SimCluster, node: string, vmid: number): SimGuest {
  const guest = cluster.guests.get(vmid);
  if (!guest) throw new Error(`Configuration file '${cluster.configPath(node, vmid)}' does not exist`);
  return guest;
}

/** The config a snapshot keeps: what the guest has now, without its lock. */
function savedConfig(g: SimGuest): Record<string, string | number> {
  const { lock: _lock, ...config } = g.config;
  return { ...config };
}

function snapshotOf(g: SimGuest, name: string): SimSnapshot {
  const snapshot = g.snapshots.get(name);
  if (!snapshot) throw fail(`snapshot '${name}' does not exist`);
  return snapshot;
}

/** GET /nodes/{node}/qemu/{vmid}/snapshot: every snapshot, then `current` (where the guest is now). */
export function snapshotList(cluster: SimCluster, node: string, vmid: number): object[] {
  const g = cluster.guestOn(node, vmid);
  const entries: object[] = [...g.snapshots.values()].map((s) => ({
    name: s.name,
    snaptime: s.snaptime,
    description: s.description,
    ...(s.vmstate ? { vmstate: 1 } : {}),
    ...(s.parent !== undefined ? { parent: s.parent } : {}),
  }));
  entries.push({
    name: 'current',
    description: 'You are here!',
    running: g.status === 'running' ? 1 : 0,
    digest: digest(g),
    ...(g.snapParent !== undefined ? { parent: g.snapParent } : {}),
  });
  return entries;
}

/** POST /nodes/{node}/qemu/{vmid}/snapshot: a qmsnapshot task, the guest locked `snapshot`. */
export function takeSnapshot(cluster: SimCluster, ctx: CallContext, node: string, vmid: number, p: Record<string, string>): string {
  const g = cluster.guestOn(node, vmid);
  const name = p.snapname as string;
  if (name === 'current' || name === 'pending') throw fail(`invalid snapshot name '${name}' (reserved name)`);
  if (g.snapshots.has(name)) throw fail(`snapshot name '${name}' already used`);
  cluster.checkMutable(g);
  if (!canSnapshot(cluster, g)) throw fail('snapshot feature is not available');
  const withRam = bool(p.vmstate) && g.status === 'running';
  return guestTask(cluster, ctx, {
    node,
    type: 'qmsnapshot',
    id: String(vmid),
    vmid,
    configLock: 'snapshot',
    run: () => {
      const guest = existingGuest(cluster, node, vmid);
      guest.snapshots.set(name, {
        name,
        snaptime: Math.floor(Date.now() / 1000),
        description: p.description ?? '',
        vmstate: withRam,
        ...(guest.snapParent !== undefined ? { parent: guest.snapParent } : {}),
        config: savedConfig(guest),
        files: { ...guest.files },
      });
      guest.snapParent = name;
    },
  });
}

/**
 * POST …/snapshot/{snapname}/rollback: a qmrollback task, the guest locked `rollback`. The guest
 * is stopped, its config and disks go back to the snapshot; it runs afterwards when the snapshot
 * holds RAM, or when `start` asks for it.
 */
export function rollbackSnapshot(cluster: SimCluster, ctx: CallContext, node: string, vmid: number, name: string, p: Record<string, string>): string {
  const g = cluster.guestOn(node, vmid);
  snapshotOf(g, name);
  cluster.checkMutable(g);
  return guestTask(cluster, ctx, {
    node,
    type: 'qmrollback',
    id: String(vmid),
    vmid,
    configLock: 'rollback',
    run: () => {
      const guest = existingGuest(cluster, node, vmid);
      const snapshot = snapshotOf(guest, name);
      // the lock the task holds stays until it ends
      guest.config = { ...snapshot.config, lock: 'rollback' };
      guest.files = { ...snapshot.files };
      guest.snapParent = name;
      const running = snapshot.vmstate || bool(p.start);
      guest.status = running ? 'running' : 'stopped';
      if (running) {
        guest.startedAt = Date.now();
        guest.pid = cluster.nextGuestPid();
      } else {
        delete guest.startedAt;
        delete guest.pid;
      }
    },
  });
}

/** DELETE …/snapshot/{snapname}: a qmdelsnapshot task, the guest locked `snapshot-delete`; children move up to its parent. */
export function deleteSnapshot(cluster: SimCluster, ctx: CallContext, node: string, vmid: number, name: string): string {
  const g = cluster.guestOn(node, vmid);
  snapshotOf(g, name);
  cluster.checkMutable(g);
  return guestTask(cluster, ctx, {
    node,
    type: 'qmdelsnapshot',
    id: String(vmid),
    vmid,
    configLock: 'snapshot-delete',
    run: () => {
      const guest = existingGuest(cluster, node, vmid);
      const snapshot = snapshotOf(guest, name);
      for (const other of guest.snapshots.values()) {
        if (other.parent !== name) continue;
        if (snapshot.parent !== undefined) other.parent = snapshot.parent;
        else delete other.parent;
      }
      if (guest.snapParent === name) guest.snapParent = snapshot.parent;
      guest.snapshots.delete(name);
    },
  });
}

/** GET …/snapshot/{snapname}/config: the configuration the snapshot keeps. */
export function snapshotConfig(cluster: SimCluster, node: string, vmid: number, name: string): object {
  const snapshot = snapshotOf(cluster.guestOn(node, vmid), name);
  return { ...snapshot.config, snaptime: snapshot.snaptime, ...(snapshot.vmstate ? { vmstate: 1 } : {}), ...(snapshot.parent ? { parent: snapshot.parent } : {}) };
}

/** PUT …/snapshot/{snapname}/config: the description, at once. */
export function setSnapshotDescription(cluster: SimCluster, node: string, vmid: number, name: string, p: Record<string, string>): null {
  const g = cluster.guestOn(node, vmid);
  const snapshot = snapshotOf(g, name);
  cluster.checkMutable(g);
  if (p.description !== undefined) snapshot.description = p.description;
  return null;
}
