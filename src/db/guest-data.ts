/**
 * The snapshot and backup rows an operation holds while it runs: settled with the operation (a
 * snapshot taken is available, one that failed frees its name; a backup made is available, one
 * that failed says so with its own event), in the transaction that ends the operation.
 */
import { Prisma } from '../generated/prisma/client';
import type { InstanceStatus } from '../generated/prisma/enums';
import { runSql, type Queryable, type Tx } from './client';
import { appendEvents } from './events';
import type { OperationParams } from './lifecycle';

async function instanceOf(tx: Queryable, instanceId: string) {
  const [instance] = await runSql<{ tenantId: string; hostname: string; status: InstanceStatus }>(tx, Prisma.sql`SELECT "tenantId", hostname, status::text AS status FROM instances WHERE id = ${instanceId}`);
  if (!instance) throw new Error(`instance ${instanceId} does not exist`);
  return instance;
}

/** The backup's own event (`backup.created`, `backup.failed`, `backup.deleted`, `backup.lost`, `backup.found`, or `instance.restored` of a server made from it), beside the instance's. */
export async function appendBackupEvent(
  tx: Queryable,
  instanceId: string,
  type: 'backup.created' | 'backup.failed' | 'backup.deleted' | 'backup.lost' | 'backup.found' | 'instance.restored', backupId: string, code?: string): Promise<void> {
  const instance = await instanceOf(tx, instanceId);
  await appendEvents(tx, { tenantId: instance.tenantId, instanceId }, [{ type, data: { status: instance.status, hostname: instance.hostname, backupId, ...(code ? { code } : {}) } }]);
}

/**
 * Settles what a snapshot or backup operation holds. The row's state names the operation:
 * `creating` (a snapshot) or `pending`/`running` (a backup) is a take, `deleting` a delete, and
 * `available` a rollback or restore (nothing to settle).
 */
export async function settleGuestData(tx: Tx, instanceId: string, params: OperationParams, outcome: 'commit' | 'revert'): Promise<void> {
  if (params.snapshot) {
    const row = await tx.snapshot.findUnique({ where: { id: params.snapshot.snapshotId } });
    if (row?.status === 'creating') {
      await tx.snapshot.update({ where: { id: row.id }, data: outcome === 'commit' ? { status: 'available' } : { status: 'failed', liveKey: null } });
    } else if (row?.status === 'deleting') {
      await tx.snapshot.update({ where: { id: row.id }, data: outcome === 'commit' ? { status: 'deleted', liveKey: null } : { status: 'available' } });
    }
  }
  if (params.backup) {
    const row = await tx.backup.findUnique({ where: { id: params.backup.backupId } });
    if (row?.status === 'deleting') {
      // A delete that failed leaves the backup as it was: lost when the storage last showed it missing.
      const before = row.failureCode === 'BACKUP_LOST' ? 'lost' : 'available';
      await tx.backup.update({ where: { id: row.id }, data: outcome === 'commit' ? { status: 'deleted', deletedAt: new Date() } : { status: before } });
      return;
    }
    if (!row || (row.status !== 'pending' && row.status !== 'running')) return;
    if (outcome === 'commit' && row.volid) {
      await tx.backup.update({ where: { id: row.id }, data: { status: 'available', runningOnNode: null, completedAt: new Date() } });
      return;
    }
    // A vzdump Proxmox still runs (the backup outlived its budget) keeps its host: another one now
    // would wait on Proxmox's own lock. The reconciler gives the host back once Proxmox shows the task ended.
    const stillRunning = row.runningOnNode !== null && row.taskId !== null && (await tx.providerCall.count({ where: { taskId: row.taskId, kind: 'vzdump', status: 'running', upid: { not: null } } })) > 0;
    const failure: Prisma.BackupUpdateInput = {
      status: 'failed',
      completedAt: new Date(),
      failureCode: 'BACKUP_FAILED',
      ...(stillRunning
        ? { failureMessage: 'The backup did not finish in time; its Proxmox VE task is still running.' }
        : { runningOnNode: null, failureMessage: 'The backup could not be made.' }),
    };
    await tx.backup.update({ where: { id: row.id }, data: failure });
    await appendBackupEvent(tx, instanceId, 'backup.failed', row.id, 'BACKUP_FAILED');
  }
}
