/**
 * Snapshots of a guest: a tree per guest, taken, rolled back and deleted by Proxmox tasks
 * (qmsnapshot, qmrollback, qmdelsnapshot) under the locks Proxmox sets, and only where every disk's
 * storage can snapshot.
 */
import { fail, type CallContext } from './call';
import type { SimCluster, SimGuest, SimSnapshot, SimVmState } from './cluster';
import { DISK_KEY, MiB, bool, isCdrom, memoryMiB, splitProps } from './config-values';
import { digest } from './guest-config';
import { RUNNING_MACHINE } from './guest-reads';
import { guestTask } from './guest-tasks';

/** Storage types whose volumes snapshot by themselves. */
const SNAPSHOT_STORAGE_TYPES = new Set(['zfspool', 'zfs', 'lvmthin', 'rbd', 'btrfs']);
/** File storages: only qcow2 images carry snapshots. */
const FILE_STORAGE_TYPES = new Set(['dir', 'nfs', 'cifs', 'cephfs', 'glusterfs']);
/** Storages with a `path`: their volumes are files, `<vmid>/<name>.raw`. */
const PATH_STORAGE_TYPES = new Set([...FILE_STORAGE_TYPES, 'btrfs']);
/** The x86-64 CPU models qemu-server builds on `qemu64`, with their flags (PVE/QemuServer/CPUConfig.pm). */
const QEMU64_MODELS: Record<string, string[]> = {
  'x86-64-v2': ['popcnt', 'pni', 'sse4.1', 'sse4.2', 'ssse3'],
  'x86-64-v2-AES': ['aes', 'popcnt', 'pni', 'sse4.1', 'sse4.2', 'ssse3'],
  'x86-64-v3': ['aes', 'popcnt', 'pni', 'sse4.1', 'sse4.2', 'ssse3', 'avx', 'avx2', 'bmi1', 'bmi2', 'f16c', 'fma', 'abm', 'movbe', 'xsave'],
  'x86-64-v4': ['aes', 'popcnt', 'pni', 'sse4.1', 'sse4.2', 'ssse3', 'avx', 'avx2', 'bmi1', 'bmi2', 'f16c', 'fma', 'abm', 'movbe', 'xsave', 'avx512f', 'avx512bw', 'avx512cd', 'avx512dq', 'avx512vl'],
};

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

/** The storages of the guest's disks (CD-ROMs and cloud-init drives aside), sorted. */
function diskStorages(g: SimGuest): string[] {
  const storages = new Set<string>();
  for (const [key, value] of Object.entries(g.config)) {
    const text = String(value);
    if (DISK_KEY.test(key) && !isCdrom(text) && splitProps(text).first.includes(':')) storages.add(splitProps(text).first.split(':')[0] as string);
  }
  return [...storages].sort();
}

/**
 * Where a snapshot's RAM goes (qemu-server, PVE/QemuConfig.pm `find_vmstate_storage`):
 * `vmstatestorage`, else a shared storage of its disks, else a local one (a file storage
 * preferred in each), else `local`.
 */
function vmstateStorage(cluster: SimCluster, g: SimGuest): string {
  if (g.config.vmstatestorage !== undefined) return String(g.config.vmstatestorage);
  let shared: string | undefined;
  let local: string | undefined;
  for (const storage of diskStorages(g)) {
    const spec = cluster.storages.get(storage);
    const isPath = PATH_STORAGE_TYPES.has(spec?.type ?? 'lvmthin');
    if (spec?.shared) shared = shared === undefined || isPath ? storage : shared;
    else local = local === undefined || isPath ? storage : local;
  }
  return shared ?? local ?? 'local';
}

/** The `-cpu` argument qemu-server starts the guest with: the model, then its flags sorted by name. */
function runningCpu(config: SimGuest['config']): string {
  const model = String(config.cpu ?? 'kvm64').split(',')[0] as string;
  if (model === 'host') return 'host,+kvm_pv_eoi,+kvm_pv_unhalt';
  const flags = [...(QEMU64_MODELS[model] ?? []), 'kvm_pv_eoi', 'kvm_pv_unhalt'].map((flag) => `+${flag}`);
  const sorted = [...flags, 'enforce'].sort((a, b) => a.replace(/^\+/, '').localeCompare(b.replace(/^\+/, '')));
  return [QEMU64_MODELS[model] ? 'qemu64' : model, ...sorted].join(',');
}

/** `net0=1500,…`: the host MTU of each virtio NIC (0 unless its `mtu` is set; `mtu=1` takes the bridge's 1500). */
function netsHostMtu(config: SimGuest['config']): string {
  return Object.keys(config)
    .filter((key) => /^net\d+$/.test(key) && String(config[key]).startsWith('virtio='))
    .sort()
    .map((key) => {
      const mtu = Number(splitProps(String(config[key])).props.get('mtu') ?? 0);
      return `${key}=${mtu === 1 ? 1500 : mtu}`;
    })
    .join(',');
}

/** The RAM of a running guest saved for snapshot `name`: a state volume on its vmstate storage. */
function saveVmState(cluster: SimCluster, g: SimGuest, name: string): SimVmState {
  const storage = vmstateStorage(cluster, g);
  const volume = `vm-${g.vmid}-state-${name}`;
  const isPath = PATH_STORAGE_TYPES.has(cluster.storages.get(storage)?.type ?? 'lvmthin');
  return {
    volid: isPath ? `${storage}:${g.vmid}/${volume}.raw` : `${storage}:${volume}`,
    size: (memoryMiB(g.config) * 2 + 500) * MiB,
    runningmachine: RUNNING_MACHINE,
    runningcpu: runningCpu(g.config),
    ...(cluster.majorRelease >= 9 ? { runningNetsHostMtu: netsHostMtu(g.config) } : {}),
  };
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
    vmstate: s.vmstate ? 1 : 0,
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
  // qemu-server, PVE/API2/Qemu.pm `snapshot`: `current` as written, `pending` in any case
  if (name === 'current') throw fail("unable to use snapshot name 'current' (reserved name)");
  if (name.toLowerCase() === 'pending') throw fail("unable to use snapshot name 'pending' (reserved name)");
  if (g.snapshots.has(name)) throw fail(`snapshot name '${name}' already used`);
  cluster.checkMutable(g);
  if (!canSnapshot(cluster, g)) throw fail('snapshot feature is not available');
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
        ...(bool(p.vmstate) && guest.status === 'running' ? { vmstate: saveVmState(cluster, guest, name) } : {}),
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
      // the guest stops first; it runs again, under a new QEMU process, from the saved RAM or when asked
      if (guest.status === 'running') cluster.stopQemu(guest);
      if (snapshot.vmstate !== undefined || bool(p.start)) cluster.startQemu(guest);
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
  const state = snapshot.vmstate;
  return {
    ...snapshot.config,
    snaptime: snapshot.snaptime,
    ...(state
      ? {
          vmstate: state.volid,
          runningmachine: state.runningmachine,
          runningcpu: state.runningcpu,
          ...(state.runningNetsHostMtu !== undefined ? { 'running-nets-host-mtu': state.runningNetsHostMtu } : {}),
        }
      : {}),
    ...(snapshot.parent ? { parent: snapshot.parent } : {}),
  };
}

/** PUT …/snapshot/{snapname}/config: the description, at once. */
export function setSnapshotDescription(cluster: SimCluster, node: string, vmid: number, name: string, p: Record<string, string>): null {
  const g = cluster.guestOn(node, vmid);
  const snapshot = snapshotOf(g, name);
  cluster.checkMutable(g);
  if (p.description !== undefined) snapshot.description = p.description;
  return null;
}
