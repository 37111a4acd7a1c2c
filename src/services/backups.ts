import type { Tx } from '../db/client';
import { appendBackupEvent } from '../db/guest-data';
import { lockRow } from '../db/locks';
import { AppError } from '../domain/errors';
import { assertWithinPlanLimit } from '../domain/snapshots';
import type { Backup, Prisma, ProxmoxConnection } from '../generated/prisma/client';
import { ProxmoxError } from '../proxmox';
import { TASK_TYPES } from '../db/lifecycle';
import { openTask } from '../db/tasks';
import { newId } from '../security/ids';
import { startCommittedWorkflow } from '../temporal/committed-start';
import { intentColumns, type StartIntent } from '../temporal/start-intents';
import { keptBackupDeleteWorkflowId } from '../temporal/workflow-ids';
import type { ServiceDeps } from './deps';
import { findInstance } from './instances';
import { answer, requestOperation, type OperationAnswer, type OperationDeps } from './operations';
import { tenantScope, type Principal } from './principal';

/** Backups that exist or are being made: they count against the plan's limit. */
const HELD: Prisma.BackupWhereInput = { status: { in: ['pending', 'running', 'available', 'deleting'] }, external: false };
/** Backups a schedule's retention may delete: its own, written, neither protected nor kept. */
export const PRUNABLE = { scheduled: true, status: 'available', protected: false, kept: false, volid: { not: null } } satisfies Prisma.BackupWhereInput;
/** Backups a customer still sees. */
const SHOWN: Prisma.BackupWhereInput = { status: { not: 'deleted' } };

/**
 * The scheduled backups a schedule's retention deletes once its next backup is written: they make
 * room for it, so a schedule keeping as many as the plan allows keeps running (one over the limit
 * until the retention has run).
 */
async function expiringAfter(tx: Tx, instanceId: string, keepLast: number): Promise<number> {
  const prunable = await tx.backup.count({ where: { instanceId, ...PRUNABLE } });
  return Math.max(0, prunable - (keepLast - 1));
}

/**
 * The backups a restore as a new server is reading now: its server is being made and its
 * restore (the clone stage's `restore` call) has not succeeded yet. Such a backup is held: a
 * delete answers BACKUP_IN_USE, retention skips it, its server's delete keeps it.
 */
export async function backupsInUse(db: Pick<Tx, 'instance'>, backupIds: string[]): Promise<Set<string>> {
  if (backupIds.length === 0) return new Set();
  const readers = await db.instance.findMany({
    where: {
      restoredFromBackupId: { in: backupIds },
      status: { in: ['pending', 'scheduling', 'provisioning'] },
      NOT: { providerCalls: { some: { phase: 'clone', kind: 'restore', status: 'succeeded' } } },
    },
    select: { restoredFromBackupId: true },
  });
  return new Set(readers.map((r) => r.restoredFromBackupId as string));
}

async function assertNotInUse(tx: Tx, backup: Backup): Promise<void> {
  if ((await backupsInUse(tx, [backup.id])).size > 0) {
    throw new AppError('BACKUP_IN_USE', 'A new server is being restored from this backup; delete it once that restore has finished.');
  }
}

export interface BackupAnswer extends OperationAnswer {
  backup: Backup;
}

/**
 * A backup, checked before Proxmox is asked anything: the location has a backup storage and the
 * plan's `backupLimit` leaves room. Its vzdump waits for the node's other backups to end.
 * A schedule's run names its backup (so a retried run finds the one it made) and marks it scheduled.
 */
export async function requestBackup(
  deps: OperationDeps,
  who: Principal,
  instanceId: string,
  body: { notes?: string; protected?: boolean },
  schedule?: { backupId: string; keepLast: number },
): Promise<BackupAnswer> {
  const backupId = schedule?.backupId ?? newId('bkp');
  const { taskId } = (await requestOperation(deps, who, instanceId, {
    operation: 'backup',
    prepare: async (tx, instance) => {
      const location = await tx.location.findUniqueOrThrow({ where: { id: instance.locationId } });
      if (!location.backupStorage) throw new AppError('BACKUPS_UNSUPPORTED', "This server's location offers no backups.");
      const held = await tx.backup.count({ where: { instanceId, ...HELD } });
      assertWithinPlanLimit('backups', instance.plan.backupLimit, held - (schedule ? await expiringAfter(tx, instanceId, schedule.keepLast) : 0));
      if (!instance.node || instance.vmid === null) throw new AppError('INVALID_STATE', 'This server has no guest to back up.');
      await tx.backup.create({
        data: {
          id: backupId,
          tenantId: instance.tenantId,
          instanceId,
          connectionId: instance.connectionId,
          node: instance.node,
          storage: location.backupStorage,
          vmid: instance.vmid,
          status: 'pending',
          protected: body.protected ?? false,
          notes: body.notes ?? null,
          scheduled: schedule !== undefined,
        },
      });
      return { params: { backup: { backupId } } };
    },
  })) as { taskId: string };
  const backup = await deps.db.backup.update({ where: { id: backupId }, data: { taskId } });
  return { ...(await answer(deps, who, instanceId, taskId, 202)), backup };
}

/** A backup the caller may see: another tenant's is NOT_FOUND. */
export async function findBackup(deps: Pick<ServiceDeps, 'db'>, who: Principal, backupId: string): Promise<Backup> {
  const row = await deps.db.backup.findFirst({ where: { id: backupId, ...tenantScope(who), ...SHOWN } });
  if (!row) throw new AppError('NOT_FOUND', 'The backup was not found.');
  return row;
}

async function lockBackup(tx: Tx, backupId: string): Promise<Backup> {
  await lockRow(tx, 'backups', backupId);
  return tx.backup.findUniqueOrThrow({ where: { id: backupId } });
}

export async function listBackupsOf(deps: Pick<ServiceDeps, 'db'>, who: Principal, instanceId: string): Promise<Backup[]> {
  await findInstance(deps, who, instanceId);
  return deps.db.backup.findMany({ where: { instanceId, ...SHOWN }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
}

/**
 * Deletes a backup: its archive by an operation of its server (202), or, when its server was
 * deleted, by a task of its own (202); a lost backup's archive too, should Proxmox still have it.
 * A backup with no archive (failed, or lost before it was written) goes as a record alone (200).
 * Customers cannot delete a protected backup.
 */
export async function requestBackupDelete(deps: OperationDeps, who: Principal, backupId: string): Promise<{ backup: Backup; taskId: string | null; httpStatus: 200 | 202 }> {
  const found = await findBackup(deps, who, backupId);
  if (found.protected && who.role !== 'admin') throw new AppError('BACKUP_PROTECTED', 'This backup is protected; ask an operator to delete it.');
  if (!found.volid && (found.status === 'failed' || found.status === 'lost')) {
    const backup = await deps.db.$transaction(async (tx) => {
      const row = await lockBackup(tx, backupId);
      if (row.status === 'deleted') return row;
      const updated = await tx.backup.update({ where: { id: backupId }, data: { status: 'deleted', deletedAt: new Date() } });
      await appendBackupEvent(tx, row.instanceId, 'backup.deleted', row.id);
      return updated;
    });
    return { backup, taskId: null, httpStatus: 200 };
  }
  const server = await deps.db.instance.findUniqueOrThrow({ where: { id: found.instanceId }, select: { status: true } });
  const taskId = server.status === 'deleted' ? await requestKeptBackupDelete(deps, found) : await requestArchiveDeleteOperation(deps, who, found);
  return { backup: await deps.db.backup.findUniqueOrThrow({ where: { id: backupId } }), taskId, httpStatus: 202 };
}

/** A backup whose archive a delete removes: written (available), or lost (Proxmox may have it after all). */
async function lockDeletableBackup(tx: Tx, backupId: string): Promise<Backup> {
  const row = await lockBackup(tx, backupId);
  if ((row.status !== 'available' && row.status !== 'lost') || !row.volid) throw new AppError('INVALID_STATE', `The backup is ${row.status}.`, { status: row.status });
  await assertNotInUse(tx, row);
  await tx.backup.update({ where: { id: backupId }, data: { status: 'deleting' } });
  return row;
}

async function requestArchiveDeleteOperation(deps: OperationDeps, who: Principal, backup: Backup): Promise<string> {
  const { taskId } = (await requestOperation(deps, who, backup.instanceId, {
    operation: 'backup_delete',
    prepare: async (tx) => {
      await lockDeletableBackup(tx, backup.id);
      return { params: { backup: { backupId: backup.id } } };
    },
  })) as { taskId: string };
  return taskId;
}

/**
 * The delete of a backup kept after its server was deleted: a task of the deleted server that does
 * not hold it (several such deletes may run at once), carried by the DeleteKeptBackup workflow.
 */
async function requestKeptBackupDelete(deps: OperationDeps, backup: Backup): Promise<string> {
  const taskId = newId('task');
  const workflowId = keptBackupDeleteWorkflowId(backup.id, taskId);
  const intent: StartIntent = {
    workflowType: 'DeleteKeptBackup',
    workflowArgs: { instanceId: backup.instanceId, taskId, backupId: backup.id, summary: `backup_delete ${backup.id} (deleted server ${backup.instanceId}, tenant ${backup.tenantId})`, timeoutScale: deps.config.STAGE_TIMEOUT_SCALE },
  };
  let was: Backup['status'] = backup.status;
  await deps.db.$transaction(async (tx) => {
    was = (await lockDeletableBackup(tx, backup.id)).status;
    await openTask(
      tx,
      { id: taskId, instanceId: backup.instanceId, tenantId: backup.tenantId, type: TASK_TYPES.backup_delete, workflowId, ...intentColumns(intent), params: { backup: { backupId: backup.id } }, holdsInstance: false },
      { step: 'backup_delete > accepted', status: 'success', message: 'The request was accepted.', progress: 5 },
    );
  });
  await startCommittedWorkflow(deps, {
    instanceId: backup.instanceId,
    tenantId: backup.tenantId,
    taskId,
    workflowId,
    intent,
    status: 'deleted',
    unavailableMessage: 'The service that deletes backups is unavailable; nothing was changed. Please try again.',
    undo: async (tx) => void (await tx.backup.update({ where: { id: backup.id }, data: { status: was } })),
  });
  return taskId;
}

/**
 * Restores a server from one of its available backups, in place: an operation of the server
 * (status `restoring`). A server that moved (migrated) to a host that cannot read the archive (a
 * host-local backup storage of its old host) is refused before anything changes:
 * BACKUP_NOT_ON_HOST, which points at a restore as a new server (made on the archive's host).
 */
export async function requestRestore(deps: OperationDeps & Pick<ServiceDeps, 'proxmox'>, who: Principal, backupId: string): Promise<OperationAnswer> {
  const found = await findBackup(deps, who, backupId);
  const server = await deps.db.instance.findUniqueOrThrow({ where: { id: found.instanceId }, include: { connection: true } });
  if (server.node && found.volid && server.node !== found.node) await assertArchiveReadableOn(deps, server.connection, server.node, found);
  const { taskId } = (await requestOperation(deps, who, found.instanceId, {
    operation: 'restore',
    prepare: async (tx, instance) => {
      const row = await lockBackup(tx, backupId);
      if (row.status !== 'available' || !row.volid) throw new AppError('INVALID_STATE', `The backup is ${row.status}.`, { status: row.status });
      // The host was read above: a server that moved since has its archive read again by a request of its own.
      if (instance.node !== server.node) throw new AppError('OPERATION_IN_PROGRESS', 'The server moved to another host meanwhile; try again.');
      return { params: { restore: { backupId } } };
    },
  })) as { taskId: string };
  return answer(deps, who, found.instanceId, taskId, 202);
}

/** Provider truth: the archive is listed on the server's host (a shared storage, or the same host). */
async function assertArchiveReadableOn(deps: Pick<ServiceDeps, 'proxmox'>, connection: ProxmoxConnection, node: string, backup: Backup): Promise<void> {
  const client = deps.proxmox(connection);
  let readable = false;
  try {
    readable = (await client.backups.list(node, backup.storage, backup.vmid)).some((v) => v.volid === backup.volid);
  } catch (error) {
    // A storage the host does not have is refused as Proxmox words it; any other failure is not the customer's.
    if (!(error instanceof ProxmoxError) || error.isTransient || (error.status ?? 0) >= 500) throw new AppError('PROVIDER_UNAVAILABLE', 'The backup storage could not be read; please try again.');
  }
  if (!readable) {
    throw new AppError('BACKUP_NOT_ON_HOST', "The server moved to a host that cannot read this backup's archive; restore it as a new server instead (POST /v1/instances with backupId).", {
      restoreAsNew: true,
    });
  }
}
