import { appendBackupEvent } from '../db/guest-data';
import { archiveWrittenSince, backupIdInNotes } from '../domain/snapshots';
import type { Backup } from '../generated/prisma/client';
import type { BackupVolume, ProxmoxClient } from '../proxmox';
import { newId } from '../security/ids';
import type { ActivityDeps } from './deps';
import type { ReconcileInput } from './reconcile';

export interface BackupsResult {
  /** Archives of ours no longer on their storage: their backups are `lost` now. */
  lost: number;
  /** Lost backups whose archives are listed again: `available` once more. */
  found: number;
  /** Archives made outside the service for one of our servers, now listed as `external` backups. */
  external: number;
  /** Archives at one of our servers' VMIDs not proven the server's (written before it held the VMID, or with no time): for operators only (logged). */
  unattributed: number;
  /** Archives of our backups written after the backup was given up on (failed, or forgotten): the backup has its archive now. */
  adopted: number;
  /** Storages that could not be listed this time (their backups were left as they were). */
  unreadStorages: number;
  /** Hosts given back by failed backups whose vzdump Proxmox now shows ended. */
  hostsReleased: number;
}

/**
 * The backup storages of a connection against our backup records: an archive of ours that is no
 * longer listed makes its backup `lost` (event `backup.lost`), and a lost one listed again makes
 * it `available` again (event `backup.found`); an archive of one of our live
 * servers, written while the server held its VMID (proven by its creation time), that we did not
 * make is recorded as an `external` backup (restorable like ours); one not proven so is only
 * logged for operators. An archive of one of our backups that was given up on is adopted by it. Only storages that answered are compared: a failed listing
 * changes nothing. First, failed backups whose vzdump outlived them give their host back once
 * Proxmox shows the task ended.
 * Converges on retry: a backup is marked lost only while `available` and found only while `lost`, an archive recorded once (by its volid).
 */
export function createReconcileBackupsActivity(deps: ActivityDeps) {
  return async function reconcileBackups({ connectionId, instanceId }: ReconcileInput): Promise<BackupsResult> {
    const result: BackupsResult = { lost: 0, found: 0, external: 0, unattributed: 0, adopted: 0, unreadStorages: 0, hostsReleased: 0 };
    const connection = await deps.db.proxmoxConnection.findUniqueOrThrow({ where: { id: connectionId }, include: { locations: true, nodes: { where: { enabled: true } } } });
    const client = deps.proxmox(connection);
    result.hostsReleased = await releaseHostsOfEndedBackups(deps, client, connectionId, instanceId);
    const instances = await deps.db.instance.findMany({
      where: { connectionId, status: { notIn: ['deleted', 'pending', 'scheduling', 'provisioning'] }, vmid: { not: null }, ...(instanceId ? { id: instanceId } : {}) },
      select: { id: true, tenantId: true, vmid: true, createdAt: true, vmidSince: true },
    });
    const ours = new Map(instances.map((i) => [i.vmid as number, i]));
    const storages = new Set(connection.locations.flatMap((l) => (l.backupStorage ? [l.backupStorage] : [])));
    for (const storage of storages) {
      for (const node of connection.nodes) {
        let listed: BackupVolume[];
        try {
          listed = await client.backups.list(node.name, storage);
        } catch (error) {
          deps.logger.warn({ err: error, node: node.name, storage }, 'could not list backups this time');
          result.unreadStorages++;
          continue;
        }
        const recorded = await deps.db.backup.findMany({ where: { connectionId, node: node.name, storage, ...(instanceId ? { instanceId } : {}), status: { notIn: ['deleted'] } } });
        const byVolid = new Map(recorded.filter((b) => b.volid).map((b) => [b.volid as string, b]));
        const listedVolids = new Set(listed.map((v) => v.volid));
        for (const backup of recorded) {
          if (!backup.volid) continue;
          if (backup.status === 'available' && !listedVolids.has(backup.volid)) result.lost += await markLost(deps, backup);
          // A listing can miss an archive (a storage briefly unmounted): one listed again is back.
          if (backup.status === 'lost' && listedVolids.has(backup.volid)) result.found += await markFound(deps, backup);
        }
        for (const volume of listed) {
          // A pass about one server looks at that server's archives only.
          if (byVolid.has(volume.volid) || (instanceId && (volume.vmid === undefined || !ours.has(volume.vmid)))) continue;
          const markedFor = backupIdInNotes(volume.notes);
          if (markedFor) {
            // Being written by one of our backups (its volid is recorded when vzdump ends), or written after its backup was given up on.
            result.adopted += await adoptLateArchive(deps, markedFor, { node: node.name, storage, volume });
            continue;
          }
          const instance = volume.vmid !== undefined ? ours.get(volume.vmid) : undefined;
          if (!instance) continue;
          // Only an archive written while the server held this VMID is proven its; any other (a former guest's, or one without a time) is left to operators.
          if (!archiveWrittenSince(volume.ctime, instance.vmidSince ?? instance.createdAt)) {
            deps.logger.warn({ volid: volume.volid, node: node.name, vmid: volume.vmid, ctime: volume.ctime ?? null }, "an archive at one of our servers' VMIDs is not proven the server's; not attributed");
            result.unattributed++;
            continue;
          }
          result.external += await recordExternal(deps, { connectionId, node: node.name, storage, instance, volume });
        }
      }
    }
    return result;
  };
}

/**
 * Failed backups that still hold their host: their vzdump outlived the backup's budget. The host
 * is given back only once Proxmox shows that task stopped (or no task was ever recorded); until
 * then the node's next backup waits in the control plane, not on Proxmox's lock.
 */
async function releaseHostsOfEndedBackups(deps: ActivityDeps, client: ProxmoxClient, connectionId: string, instanceId?: string): Promise<number> {
  const holding = await deps.db.backup.findMany({ where: { connectionId, status: 'failed', runningOnNode: { not: null }, ...(instanceId ? { instanceId } : {}) } });
  let released = 0;
  for (const backup of holding) {
    const call = backup.taskId ? await deps.db.providerCall.findUnique({ where: { taskId_kind: { taskId: backup.taskId, kind: 'vzdump' } } }) : null;
    if (call?.upid) {
      try {
        if ((await client.tasks.status(call.upid)).status !== 'stopped') continue;
      } catch (error) {
        deps.logger.warn({ err: error, backupId: backup.id }, "could not read a stuck backup's task this time");
        continue;
      }
    }
    const changed = await deps.db.backup.updateMany({ where: { id: backup.id, status: 'failed', runningOnNode: backup.runningOnNode }, data: { runningOnNode: null } });
    if (changed.count > 0) deps.logger.info({ backupId: backup.id, host: backup.runningOnNode }, "a stuck backup's task ended; its host is free again");
    released += changed.count;
  }
  return released;
}

async function markLost(deps: ActivityDeps, backup: Backup): Promise<number> {
  return deps.db.$transaction(async (tx) => {
    const changed = await tx.backup.updateMany({
      where: { id: backup.id, status: 'available' },
      data: { status: 'lost', failureCode: 'BACKUP_LOST', failureMessage: 'The backup archive is no longer on its storage.' },
    });
    if (changed.count === 0) return 0;
    await appendBackupEvent(tx, backup.instanceId, 'backup.lost', backup.id, 'BACKUP_LOST');
    return 1;
  });
}

async function markFound(deps: ActivityDeps, backup: Backup): Promise<number> {
  return deps.db.$transaction(async (tx) => {
    const changed = await tx.backup.updateMany({ where: { id: backup.id, status: 'lost' }, data: { status: 'available', failureCode: null, failureMessage: null } });
    if (changed.count === 0) return 0;
    await appendBackupEvent(tx, backup.instanceId, 'backup.found', backup.id);
    return 1;
  });
}

/**
 * An archive carrying a backup's marker whose backup is not waiting for it (failed: its vzdump
 * ended after the backup was given up on; or deleted as a failed one meanwhile): the backup takes
 * it and is `available` (event `backup.created`), so no archive of ours is left unaccounted.
 * A backup still being made is left alone: its own operation records the archive.
 */
async function adoptLateArchive(deps: ActivityDeps, backupId: string, at: { node: string; storage: string; volume: BackupVolume }): Promise<number> {
  return deps.db.$transaction(async (tx) => {
    const backup = await tx.backup.findUnique({ where: { id: backupId } });
    if (!backup || backup.volid || (backup.status !== 'failed' && backup.status !== 'deleted') || backup.node !== at.node || backup.storage !== at.storage) return 0;
    const server = await tx.instance.findUniqueOrThrow({ where: { id: backup.instanceId }, select: { status: true } });
    const done = at.volume.ctime !== undefined ? new Date(at.volume.ctime * 1000) : new Date();
    const changed = await tx.backup.updateMany({
      where: { id: backupId, status: backup.status, volid: null },
      data: {
        status: 'available',
        volid: at.volume.volid,
        sizeBytes: at.volume.size ?? null,
        failureCode: null,
        failureMessage: null,
        runningOnNode: null,
        completedAt: done,
        deletedAt: null,
        kept: backup.kept || server.status === 'deleted',
      },
    });
    if (changed.count === 0) return 0;
    await appendBackupEvent(tx, backup.instanceId, 'backup.created', backupId);
    return 1;
  });
}

async function recordExternal(
  deps: ActivityDeps,
  o: { connectionId: string; node: string; storage: string; instance: { id: string; tenantId: string; vmid: number | null }; volume: BackupVolume },
): Promise<number> {
  const { volume } = o;
  const known = await deps.db.backup.findFirst({ where: { connectionId: o.connectionId, volid: volume.volid } });
  if (known) return 0;
  const at = volume.ctime !== undefined ? new Date(volume.ctime * 1000) : new Date();
  await deps.db.backup.create({
    data: {
      id: newId('bkp'),
      tenantId: o.instance.tenantId,
      instanceId: o.instance.id,
      connectionId: o.connectionId,
      node: o.node,
      storage: o.storage,
      volid: volume.volid,
      vmid: o.instance.vmid as number,
      status: 'available',
      external: true,
      protected: volume.protected === 1,
      notes: volume.notes ?? null,
      sizeBytes: volume.size ?? null,
      createdAt: at,
      completedAt: at,
    },
  });
  return 1;
}
