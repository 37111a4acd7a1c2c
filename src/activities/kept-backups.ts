import { appendBackupEvent } from '../db/guest-data';
import { finishTask, lockOpenTask, recordStep } from '../db/tasks';
import type { DescribedFailure } from '../workflows/failure';
import type { DeleteKeptBackupInput } from '../workflows/kept-backup';
import { removeArchive } from './backups';
import type { ActivityDeps } from './deps';
import { fail, FailureType } from './failures';
import { say, stepLine } from './steps';

/**
 * The archive of a backup whose server was deleted goes from its storage, through the backup's
 * own connection (there is no guest to go through).
 * Converges on retry: a recorded UPID is polled again; an archive no longer listed counts as deleted.
 */
export function createDeleteKeptBackupArchiveActivity(deps: ActivityDeps) {
  return async function deleteKeptBackupArchive({ instanceId, taskId, backupId }: DeleteKeptBackupInput): Promise<void> {
    const backup = await deps.db.backup.findUniqueOrThrow({ where: { id: backupId } });
    if (!backup.volid) throw fail(FailureType.InconsistentState, `backup ${backupId} names no archive`);
    const connection = await deps.db.proxmoxConnection.findUniqueOrThrow({ where: { id: backup.connectionId } });
    await say(deps, taskId, 'backup_delete', 'deleting the archive', 'processing', 'Deleting the backup archive.');
    await removeArchive(deps, deps.proxmox(connection), { instanceId, taskId, phase: 'backup_delete', kind: 'imgdel' }, { ...backup, volid: backup.volid });
  };
}

/**
 * Ends the delete of a kept backup: deleted (event `backup.deleted`), or, when it failed, the
 * backup as it was before (lost when the storage had last shown it missing, else available).
 * Converges on retry: an ended task is left as it is.
 */
export function createSettleKeptBackupDeleteActivity(deps: ActivityDeps) {
  return async function settleKeptBackupDelete(input: DeleteKeptBackupInput & { outcome: 'deleted' | 'failed'; failure?: DescribedFailure }): Promise<void> {
    const { instanceId, taskId, backupId, outcome, failure } = input;
    await deps.db.$transaction(async (tx) => {
      if (!(await lockOpenTask(tx, taskId))) return;
      const row = await tx.backup.findUniqueOrThrow({ where: { id: backupId } });
      if (outcome === 'deleted') {
        await tx.backup.update({ where: { id: backupId }, data: { status: 'deleted', deletedAt: new Date() } });
        await appendBackupEvent(tx, instanceId, 'backup.deleted', backupId);
        await recordStep(tx, stepLine(taskId, 'backup_delete', 'done', 'success', 'The backup is deleted.'));
        await finishTask(tx, taskId, { status: 'succeeded' });
        return;
      }
      if (row.status === 'deleting') await tx.backup.update({ where: { id: backupId }, data: { status: row.failureCode === 'BACKUP_LOST' ? 'lost' : 'available' } });
      await recordStep(tx, stepLine(taskId, 'backup_delete', 'done', 'error', failure?.message ?? 'The backup could not be deleted.'));
      await finishTask(tx, taskId, { status: 'failed', errorCode: failure?.code, errorMessage: failure?.message, failureCause: failure?.cause });
    });
  };
}
