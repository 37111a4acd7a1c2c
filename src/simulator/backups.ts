/**
 * Backups as vzdump makes them: one vzdump at a time per node (a second waits for the node's
 * global lock up to `lockwait`), the guest locked `backup` while its archive is written, archives
 * listed as storage content, protected archives refusing deletion, and restores (qmrestore) that
 * rebuild a guest from its archive.
 */
import crypto from 'node:crypto';
import { fail, SimHttpError, type CallContext } from './call';
import type { SimBackupVolume, SimCluster, SimGuest } from './cluster';
import { DISK_KEY, bool, diskSize, isCdrom, randomMac, splitProps } from './config-values';
import { guestFirewallFile, restoreGuestFirewall } from './firewall';
import { allocateDisk, contentVolumeId, findArchive } from './storage';
import type { SimTask } from './tasks';

const ARCHIVE_SUFFIX: Record<string, string> = { zstd: '.zst', gzip: '.gz', '1': '.lzo', lzo: '.lzo' };
/** vzdump's default wait for the node's global lock, in minutes. */
const DEFAULT_LOCKWAIT_MINUTES = 180;
const VZDUMP_LOCK_FILE = '/var/run/vzdump.lock';

function takesBackups(cluster: SimCluster, storage: string): boolean {
  return (cluster.storages.get(storage)?.content ?? '').split(',').includes('backup');
}

/** The archive's size: what the disks hold, compressed (a tenth of their size), plus its files. */
function archiveSize(g: SimGuest): number {
  let bytes = 0;
  for (const [k, v] of Object.entries(g.config)) if (DISK_KEY.test(k) && !isCdrom(String(v))) bytes += diskSize(String(v));
  for (const content of Object.values(g.files)) bytes += Buffer.byteLength(content);
  return Math.max(1, Math.round(bytes / 10));
}

const two = (n: number) => String(n).padStart(2, '0');

/** `vzdump-qemu-<vmid>-YYYY_MM_DD-HH_MM_SS`, one second later while that name is taken. */
function archiveName(cluster: SimCluster, storage: string, vmid: number, suffix: string): { volid: string; ctime: number } {
  let ctime = Math.floor(Date.now() / 1000);
  for (;;) {
    const d = new Date(ctime * 1000);
    const stamp = `${d.getUTCFullYear()}_${two(d.getUTCMonth() + 1)}_${two(d.getUTCDate())}-${two(d.getUTCHours())}_${two(d.getUTCMinutes())}_${two(d.getUTCSeconds())}`;
    const volid = `${storage}:backup/vzdump-qemu-${vmid}-${stamp}.vma${suffix}`;
    if (!cluster.backupVolumes.some((b) => b.volid === volid)) return { volid, ctime };
    ctime += 1;
  }
}

function renderNotes(template: string, g: SimGuest, cluster: SimCluster): string {
  return template
    .replaceAll('{{guestname}}', String(g.config.name ?? `VM ${g.vmid}`))
    .replaceAll('{{vmid}}', String(g.vmid))
    .replaceAll('{{node}}', g.node)
    .replaceAll('{{cluster}}', cluster.settings.clusterName)
    .replaceAll('\\n', '\n');
}

type LockQueue = NonNullable<ReturnType<SimCluster['vzdumpLocks']['get']>>;

/** The node's global vzdump lock and the tasks waiting for it, in order. */
function lockQueue(cluster: SimCluster, node: string): LockQueue {
  let queue = cluster.vzdumpLocks.get(node);
  if (!queue) {
    queue = { waiting: [] };
    cluster.vzdumpLocks.set(node, queue);
  }
  return queue;
}

/** Gives the lock to the next waiting task that still runs, as soon as no task holds it. */
function grantNext(cluster: SimCluster, queue: LockQueue): void {
  while (!queue.holder && queue.waiting.length > 0) {
    const next = queue.waiting.shift() as LockQueue['waiting'][number];
    if (cluster.tasks.get(next.upid)?.status !== 'running') continue;
    queue.holder = next.upid;
    next.begin();
  }
}

/**
 * POST /nodes/{node}/vzdump (one guest): a vzdump task. Called on another node than the guest's,
 * Proxmox backs up nothing there and answers `OK` instead of a task id.
 */
export function vzdump(cluster: SimCluster, ctx: CallContext, node: string, p: Record<string, string>): string {
  cluster.checkNode(node);
  if (p.vmid === undefined || p.vmid.includes(',')) throw new SimHttpError(400, 'Parameter verification failed.', { vmid: 'the simulator backs up one guest per call' });
  const vmid = Number(p.vmid);
  const g = cluster.guests.get(vmid);
  if (!g) throw fail(`Unable to find VMID '${vmid}'`);
  if (g.node !== node) return 'OK';
  const storage = p.storage ?? 'local';
  if (!cluster.storages.has(storage)) throw fail(`storage '${storage}' does not exist`);
  if (!takesBackups(cluster, storage)) throw fail(`storage '${storage}' does not support backups`);
  const mode = p.mode ?? 'snapshot';
  const suffix = ARCHIVE_SUFFIX[p.compress ?? '0'] ?? '';
  const queue = lockQueue(cluster, node);
  const fault = ctx.fault;
  ctx.faultHandled = true;
  let upid = '';
  let wasRunning = false;
  const task = cluster.tasks.create({
    node,
    type: 'vzdump',
    id: String(vmid),
    user: ctx.user,
    held: true,
    hang: fault?.mode === 'hang',
    failWith: fault?.mode === 'task_fail' ? (fault.message ?? 'job errors') : undefined,
    warnings: fault?.mode === 'task_warnings' ? (fault.warnings ?? 1) : undefined,
    run: () => {
      const guest = cluster.guests.get(vmid);
      if (!guest) throw new Error('job errors');
      const { volid, ctime } = archiveName(cluster, storage, vmid, suffix);
      const { lock: _lock, ...config } = guest.config;
      const volume: SimBackupVolume = {
        node,
        storage,
        volid,
        vmid,
        format: `vma${suffix}`,
        size: archiveSize(guest),
        ctime,
        notes: p['notes-template'] !== undefined ? renderNotes(p['notes-template'], guest, cluster) : '',
        protected: bool(p.protected),
        config: { ...config },
        files: { ...guest.files },
        firewall: guestFirewallFile(cluster, vmid),
      };
      cluster.backupVolumes.push(volume);
      cluster.taskLog(upid).push(`INFO: creating vzdump archive '/var/lib/vz/dump/${volid.slice(volid.indexOf('/') + 1)}'`, `INFO: Finished Backup of VM ${vmid}`);
    },
    after: (t: SimTask) => {
      const guest = cluster.guests.get(vmid);
      if (guest?.config.lock === 'backup') delete guest.config.lock;
      // stop mode starts the guest again: a new QEMU process
      if (guest && mode === 'stop' && wasRunning) cluster.startQemu(guest);
      if (queue.holder === t.upid) queue.holder = undefined;
      else queue.waiting = queue.waiting.filter((w) => w.upid !== t.upid);
      if (fault?.mode === 'lock' && guest) guest.config.lock = fault.message ?? 'backup';
      grantNext(cluster, queue);
    },
  });
  upid = task.upid;
  cluster.taskLog(upid).push(`INFO: starting new backup job: vzdump ${vmid} --storage ${storage} --mode ${mode}`);
  const begin = (): void => {
    const guest = cluster.guests.get(vmid);
    if (!guest || guest.config.lock !== undefined) {
      cluster.taskLog(upid).push(`ERROR: Backup of VM ${vmid} failed - ${guest ? `VM is locked (${guest.config.lock})` : 'VM does not exist'}`);
      cluster.tasks.finish(upid, 'job errors');
      return;
    }
    guest.config.lock = 'backup';
    wasRunning = guest.status === 'running';
    if (mode === 'stop' && wasRunning) cluster.stopQemu(guest);
    cluster.tasks.startClock(upid);
  };
  queue.waiting.push({ upid, begin });
  if (queue.holder) {
    cluster.taskLog(upid).push('INFO: trying to get global lock - waiting...');
    const minutes = p.lockwait !== undefined ? Number(p.lockwait) : DEFAULT_LOCKWAIT_MINUTES;
    cluster.tasks.failAfter(upid, minutes * 60_000, `can't acquire lock '${VZDUMP_LOCK_FILE}' - got timeout`);
  }
  grantNext(cluster, queue);
  return upid;
}

/** GET /nodes/{node}/storage/{storage}/content/{volume}. */
export function backupVolumeInfo(cluster: SimCluster, node: string, storage: string, volume: string): object {
  cluster.checkNode(node);
  const b = findArchive(cluster, node, contentVolumeId(storage, volume));
  if (!b) throw fail(`volume '${volume}' does not exist`);
  return { format: b.format, path: `/var/lib/vz/dump/${b.volid.slice(b.volid.indexOf('/') + 1)}`, size: b.size, used: b.size, ...(b.notes ? { notes: b.notes } : {}), protected: b.protected ? 1 : 0 };
}

/** PUT /nodes/{node}/storage/{storage}/content/{volume}: notes and protection, at once. */
export function updateBackupVolume(cluster: SimCluster, node: string, storage: string, volume: string, p: Record<string, string>): null {
  cluster.checkNode(node);
  const b = findArchive(cluster, node, contentVolumeId(storage, volume));
  if (!b) throw fail(`volume '${volume}' does not exist`);
  if (p.notes !== undefined) b.notes = p.notes;
  if (p.protected !== undefined) b.protected = bool(p.protected);
  return null;
}

/**
 * Rebuilds the guest's config from the archive, disk by disk into `config` (so each new volume
 * sees the ones before it): disks on `storage` (or where they were), MACs and ids new when `unique`.
 */
function rebuildConfig(cluster: SimCluster, config: Record<string, string | number>, archive: SimBackupVolume, vmid: number, storage: string | undefined, unique: boolean): void {
  for (const [k, v] of Object.entries(archive.config)) {
    const text = String(v);
    if (DISK_KEY.test(k) && isCdrom(text)) {
      config[k] = text.replace(/vm-\d+-cloudinit/, `vm-${vmid}-cloudinit`);
    } else if (DISK_KEY.test(k)) {
      const { first, props } = splitProps(text);
      config[k] = allocateDisk(cluster, vmid, storage ?? (first.split(':')[0] as string), diskSize(text), props);
    } else if (unique && /^net\d+$/.test(k)) {
      config[k] = text.replace(/^([a-z0-9_-]+)=[0-9A-Fa-f:]{17}/, `$1=${randomMac()}`);
    } else {
      config[k] = v;
    }
  }
  if (unique) {
    config.smbios1 = `uuid=${crypto.randomUUID()}`;
    config.vmgenid = crypto.randomUUID();
  }
}

/**
 * POST /nodes/{node}/qemu with `archive`: a qmrestore task, the guest locked `create` meanwhile.
 * Over an existing guest only with `force`, and only while it is stopped; its snapshots go with it.
 */
export function restore(cluster: SimCluster, ctx: CallContext, node: string, p: Record<string, string>): string {
  cluster.checkNode(node);
  const vmid = Number(p.vmid);
  const archiveId = p.archive as string;
  const archive = archiveId.includes(':') ? findArchive(cluster, node, archiveId) : undefined;
  if (!archive) throw fail(`volume '${archiveId}' does not exist`);
  if (p.storage !== undefined && !cluster.storages.has(p.storage)) throw fail(`storage '${p.storage}' does not exist`);
  const existing = cluster.guests.get(vmid);
  if (existing) {
    if (!bool(p.force)) throw fail(`unable to restore VM ${vmid} - VM ${vmid} already exists on node '${existing.node}'`);
    if (existing.node !== node) throw fail(`unable to restore VM ${vmid} - VM ${vmid} already exists on node '${existing.node}'`);
    cluster.checkMutable(existing);
    if (existing.status === 'running') throw fail(`unable to restore VM ${vmid} - VM is running`);
  }
  const guest: SimGuest = existing ?? { vmid, node, status: 'stopped', config: {}, files: {}, snapshots: new Map() };
  guest.config = { ...guest.config, lock: 'create' };
  if (!existing) cluster.addGuest(guest);
  const fault = ctx.fault;
  ctx.faultHandled = true;
  return cluster.tasks.create({
    node,
    type: 'qmrestore',
    id: String(vmid),
    user: ctx.user,
    hang: fault?.mode === 'hang',
    failWith: fault?.mode === 'task_fail' ? (fault.message ?? 'simulated task failure') : undefined,
    warnings: fault?.mode === 'task_warnings' ? (fault.warnings ?? 1) : undefined,
    run: () => {
      // the old disks go first, as qmrestore destroys them before writing the new ones
      guest.config = { lock: 'create' };
      rebuildConfig(cluster, guest.config, archive, vmid, p.storage, bool(p.unique));
      guest.files = { ...archive.files };
      restoreGuestFirewall(cluster, vmid, archive.firewall);
      guest.snapshots = new Map();
      delete guest.snapParent;
      if (bool(p.start)) cluster.startQemu(guest);
    },
    after: (t: SimTask) => {
      const ok = t.exitstatus === 'OK' || /^WARNINGS/.test(t.exitstatus ?? '');
      if (fault?.mode === 'lose_guest' || (!ok && !existing && fault?.mode !== 'lock')) {
        cluster.removeGuest(vmid);
        return;
      }
      if (fault?.mode === 'lock') guest.config.lock = fault.message ?? 'create';
      else delete guest.config.lock;
    },
  }).upid;
}
