import { Context } from '@temporalio/activity';
import { isUniqueViolation } from '../db/errors';
import { appendBackupEvent } from '../db/guest-data';
import type { Backup } from '../generated/prisma/client';
import { backupNotesMarker } from '../domain/snapshots';
import { ProxmoxError, type ProxmoxClient } from '../proxmox';
import { delay } from '../proxmox/delay';
import { deleteScheduleOf } from '../services/backup-schedules';
import { backupsInUse, PRUNABLE } from '../services/backups';
import { cancellationSignal, heartbeat, loadInstance, type InstanceRef } from './context';
import type { ActivityDeps } from './deps';
import { fail, FailureType } from './failures';
import { powerOff } from './guest-calls';
import { guestOf, paramsOf, saidCall } from './lifecycle';
import { runProviderCall } from './provider-call';
import { followSnapshotsOf } from './snapshot-reconcile';
import { say, stepLine } from './steps';

/** The backup row the task's operation is about (`backup` for a take or delete, `restore` for a restore). */
async function backupOfTask(deps: ActivityDeps, taskId: string): Promise<Backup> {
  const params = await paramsOf(deps, taskId);
  const backupId = params.backup?.backupId ?? params.restore?.backupId;
  if (!backupId) throw fail(FailureType.InconsistentState, `task ${taskId} names no backup`);
  return deps.db.backup.findUniqueOrThrow({ where: { id: backupId } });
}

/** The archive vzdump wrote for this backup: the one whose notes carry the backup's marker. */
async function archiveOf(client: ProxmoxClient, backup: Backup) {
  const marker = backupNotesMarker(backup.id);
  return (await client.backups.list(backup.node, backup.storage, backup.vmid)).find((v) => (v.notes ?? '').split(/\s/).includes(marker));
}

/** "volume '…' does not exist" is about the archive, not the guest: a refusal, never GUEST_LOST. */
async function aboutArchive<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ProxmoxError && /volume '.*' does not exist|protected/.test(error.message)) {
      throw fail(FailureType.ProviderRejected, error.message, { status: error.status });
    }
    throw error;
  }
}

/**
 * backup, first: the node's backup slot. One vzdump per node runs at a time, so backups queue
 * here instead of piling onto Proxmox's global lock; the slot is the unique `runningOnNode`.
 * Converges on retry: a backup that holds the slot already keeps it.
 */
export function createClaimBackupSlotActivity(deps: ActivityDeps) {
  return async function claimBackupSlot(ref: InstanceRef): Promise<void> {
    const backup = await backupOfTask(deps, ref.taskId);
    const slot = `${backup.connectionId}:${backup.node}`;
    const pollMs = Math.max(100, deps.config.TASK_POLL_INTERVAL_MS * 4);
    let said = false;
    for (;;) {
      if (backup.runningOnNode === slot) return;
      try {
        const claimed = await deps.db.backup.updateMany({
          where: { id: backup.id, status: { in: ['pending', 'running'] } },
          data: { runningOnNode: slot, status: 'running' },
        });
        if (claimed.count === 0) throw fail(FailureType.InconsistentState, `backup ${backup.id} is ${backup.status}, not waiting to run`);
        await say(deps, ref.taskId, 'backup', 'waiting for the host', 'success', 'The host is free for this backup.');
        return;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      if (!said) {
        await say(deps, ref.taskId, 'backup', 'waiting for the host', 'processing', 'Another backup runs on this host; this one waits its turn.');
        said = true;
      }
      heartbeat({ waitingFor: slot });
      await delay(pollMs, cancellationSignal());
    }
  };
}

/**
 * backup: vzdump writes the archive (snapshot mode: the server keeps running), then the archive is
 * found on the storage by the marker in its notes, and its volume and size are recorded.
 * Converges on retry: a recorded UPID is polled again; an archive carrying the marker counts as made.
 */
export function createMakeBackupActivity(deps: ActivityDeps) {
  return async function makeBackup(ref: InstanceRef): Promise<void> {
    const guest = await guestOf(deps, ref, 'backup');
    const { client, node, vmid } = guest;
    const backup = await backupOfTask(deps, ref.taskId);
    await saidCall(deps, guest, 'writing the archive', ['Writing the backup archive.', 'The backup archive is written.'], {
      kind: 'vzdump',
      isDone: async () => (await archiveOf(client, backup)) !== undefined,
      issue: () =>
        client.backups.create(node, vmid, {
          storage: backup.storage,
          mode: 'snapshot',
          compress: 'zstd',
          notesTemplate: `${backupNotesMarker(backup.id)} {{guestname}}`,
          protected: backup.protected,
        }),
      startsTask: { type: 'vzdump', id: vmid },
    });
    const archive = await archiveOf(client, backup);
    if (!archive) throw fail(FailureType.InconsistentState, `vzdump ended but no archive of backup ${backup.id} is on ${backup.storage}`, { node, vmid });
    await deps.db.backup.update({ where: { id: backup.id }, data: { volid: archive.volid, sizeBytes: archive.size ?? null } });
  };
}

/**
 * backup_delete: the archive goes from its storage (a protected one is unprotected first: only an
 * operator's delete gets this far).
 * Converges on retry: a recorded UPID is polled again; an archive no longer listed counts as deleted.
 */
export function createDeleteBackupArchiveActivity(deps: ActivityDeps) {
  return async function deleteBackupArchive(ref: InstanceRef): Promise<void> {
    const { client, callKey } = await guestOf(deps, ref, 'backup_delete');
    const backup = await backupOfTask(deps, ref.taskId);
    if (!backup.volid) return;
    await say(deps, ref.taskId, 'backup_delete', 'deleting the archive', 'processing', 'Deleting the backup archive.');
    await removeArchive(deps, client, { ...callKey, kind: 'imgdel' }, { ...backup, volid: backup.volid });
  };
}

/**
 * Deletes one archive from its storage as a recorded provider call (a protected one is
 * unprotected first); an archive no longer listed counts as deleted. `key`: the call's task, phase and kind.
 */
export async function removeArchive(
  deps: ActivityDeps,
  client: ProxmoxClient,
  key: { instanceId: string; taskId: string; phase: string; kind: string },
  backup: Backup & { volid: string },
): Promise<void> {
  const { volid } = backup;
  const listed = async () => (await client.backups.list(backup.node, backup.storage, backup.vmid)).find((v) => v.volid === volid);
  if ((await listed())?.protected) await aboutArchive(() => client.backups.update(backup.node, volid, { protected: false }));
  await runProviderCall(deps, client, {
    ...key,
    node: backup.node,
    vmid: backup.vmid,
    isDone: async () => (await listed()) === undefined,
    issue: () => aboutArchive(() => client.backups.delete(backup.node, volid)),
    // Proxmox's `imgdel` task of an archive is about `<owner vmid>@<storage>`.
    startsTask: { type: 'imgdel', id: `${backup.vmid}@${backup.storage}` },
    reportsDone: stepLine(key.taskId, key.phase, 'deleting the archive', 'success', 'The backup archive is deleted.'),
  });
}

/**
 * restore (in place): the server is stopped, then Proxmox restores the archive over the same
 * VMID, keeping its MAC addresses (the guest's snapshots go: ours are deleted too); the workflow then applies our size and network again and
 * starts the server if it ran. Answers whether it ran.
 * Converges on retry: the stop counts as done on a stopped guest; a restore whose answer was lost
 * is sent again, which writes the same archive over the same guest.
 */
export function createRestoreGuestActivity(deps: ActivityDeps) {
  return async function restoreGuest(ref: InstanceRef): Promise<{ wasRunning: boolean }> {
    const guest = await guestOf(deps, ref, 'restore');
    const { client, node, vmid, instance } = guest;
    const params = await paramsOf(deps, ref.taskId);
    const backup = await backupOfTask(deps, ref.taskId);
    const volid = backup.volid;
    if (!volid) throw fail(FailureType.InconsistentState, `backup ${backup.id} has no archive`);
    // A server that moved since the request may sit on a host that cannot read the archive: nothing is stopped then.
    if (node !== backup.node && !(await client.backups.list(node, backup.storage, backup.vmid)).some((v) => v.volid === volid)) {
      throw fail(FailureType.ProviderRejected, `the archive ${volid} cannot be read on ${node}`, { node, vmid });
    }
    await saidCall(deps, guest, 'stopping the server', ['Powering the server off for the restore.', 'The server is powered off.'], powerOff(client, node, vmid));
    await saidCall(deps, guest, 'restoring the archive', ['Writing the backup over the server.', 'The backup is restored.'], {
      kind: 'restore',
      issue: () => aboutArchive(() => client.backups.restore(node, vmid, { archive: volid, force: true, storage: instance.connection.storage, unique: false })),
      startsTask: { type: 'qmrestore', id: vmid },
    });
    // The restore replaced the guest's config, snapshots and all: the list follows it.
    await followSnapshotsOf(deps, client, { id: instance.id, node, vmid });
    return { wasRunning: params.previous.status === 'running' };
  };
}

/** Deletes one archive of a server (a recorded provider call of its own) and marks its backup deleted. */
async function deleteArchiveOf(deps: ActivityDeps, client: ProxmoxClient, ref: InstanceRef, phase: string, backup: Backup & { volid: string }): Promise<void> {
  await removeArchive(deps, client, { ...ref, phase, kind: `imgdel:${backup.id}` }, backup);
  await deps.db.$transaction(async (tx) => {
    await tx.backup.update({ where: { id: backup.id }, data: { status: 'deleted', deletedAt: new Date() } });
    await appendBackupEvent(tx, ref.instanceId, 'backup.deleted', backup.id);
  });
}

/**
 * backup, after a scheduled one is written: retention. The oldest scheduled backups beyond the
 * schedule's `keepLast` (this one counted) are deleted; manual, protected and kept ones never.
 * One that cannot be deleted now stays available and is tried again after the next run.
 * Converges on retry: each archive is a recorded provider call of its own; a deleted backup is no longer a candidate.
 */
export function createPruneScheduledBackupsActivity(deps: ActivityDeps) {
  return async function pruneScheduledBackups(ref: InstanceRef): Promise<void> {
    const backup = await backupOfTask(deps, ref.taskId);
    if (!backup.scheduled) return;
    const schedule = await deps.db.backupSchedule.findUnique({ where: { instanceId: ref.instanceId } });
    if (!schedule) return;
    const older = await deps.db.backup.findMany({
      where: { instanceId: ref.instanceId, ...PRUNABLE, id: { not: backup.id } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    });
    // One a new server is being restored from stays until that restore ends (the next run prunes it).
    const inUse = await backupsInUse(deps.db, older.map((b) => b.id));
    const expired = older.slice(Math.max(0, schedule.keepLast - 1)).filter((b) => !inUse.has(b.id));
    if (expired.length === 0) return;
    const client = deps.proxmox((await loadInstance(deps.db, ref.instanceId)).connection);
    let deleted = 0;
    for (const old of expired) {
      try {
        await deleteArchiveOf(deps, client, ref, 'backup', old as Backup & { volid: string });
        deleted++;
      } catch (error) {
        deps.logger.warn({ err: error, backupId: old.id }, 'could not delete an expired scheduled backup; it stays until the next run');
      }
    }
    await say(deps, ref.taskId, 'backup', 'retention', deleted === expired.length ? 'success' : 'warning', `${deleted} of ${expired.length} older scheduled backups deleted (the schedule keeps ${schedule.keepLast}).`);
  };
}

/**
 * delete, once the guest is gone: the server's backup schedule is deleted, and its backups go
 * with it unless the delete keeps them; protected and external ones, one a new server is being
 * restored from, and any whose archive cannot be deleted now, are kept (`kept`, still listed,
 * counted against the tenant, deletable on their own) rather than holding up the delete.
 * Converges on retry: a schedule already gone counts as deleted; each archive is a recorded provider call of its own.
 */
export function createDeleteBackupsOfServerActivity(deps: ActivityDeps) {
  return async function deleteBackupsOfServer(ref: InstanceRef): Promise<void> {
    await deleteScheduleOf({ ...deps, temporal: Context.current().client }, ref.instanceId);
    const { keepBackups } = await paramsOf(deps, ref.taskId);
    const backups = await deps.db.backup.findMany({ where: { instanceId: ref.instanceId, status: { in: ['available', 'lost'] }, kept: false } });
    if (backups.length === 0) return;
    const instance = await loadInstance(deps.db, ref.instanceId);
    const client = deps.proxmox(instance.connection);
    const inUse = await backupsInUse(deps.db, backups.map((b) => b.id));
    let unremoved = 0;
    for (const backup of backups) {
      const volid = backup.volid;
      if (keepBackups || backup.protected || backup.external || !volid || inUse.has(backup.id)) {
        await deps.db.backup.update({ where: { id: backup.id }, data: { kept: true } });
        continue;
      }
      try {
        await deleteArchiveOf(deps, client, ref, 'delete', { ...backup, volid });
      } catch (error) {
        deps.logger.warn({ err: error, backupId: backup.id }, 'could not delete a backup of a deleted server; it is kept');
        await deps.db.backup.update({ where: { id: backup.id }, data: { kept: true } });
        unremoved++;
      }
    }
    if (unremoved > 0) {
      await say(deps, ref.taskId, 'delete', 'backups', 'warning', `${unremoved} of the server's backups could not be deleted now; they are kept and can be deleted on their own.`);
      return;
    }
    await say(deps, ref.taskId, 'delete', 'backups', 'success', keepBackups ? "The server's backups are kept." : "The server's backups are deleted (protected ones, and any a new server is being restored from, are kept).");
  };
}

/**
 * delete, when removing the server's backups gave up: every backup of it still there is kept
 * (listed, counted against the tenant, deletable on their own), and the delete says so.
 * Converges on retry: marking a backup kept twice changes nothing.
 */
export function createKeepBackupsOfServerActivity(deps: ActivityDeps) {
  return async function keepBackupsOfServer(ref: InstanceRef): Promise<void> {
    const kept = await deps.db.backup.updateMany({ where: { instanceId: ref.instanceId, status: { in: ['available', 'lost'] }, kept: false }, data: { kept: true } });
    if (kept.count === 0) return;
    await say(deps, ref.taskId, 'delete', 'backups', 'warning', `${kept.count} of the server's backups could not be deleted now; they are kept and can be deleted on their own.`);
  };
}
