import type { Tx } from '../db/client';
import { AppError, notFound } from '../domain/errors';
import type { BackupSchedule } from '../generated/prisma/client';
import { removeBackupSchedule, upsertBackupSchedule } from '../temporal/schedules';
import type { Principal } from './auth';
import type { ApiDeps } from './deps';
import { findInstance } from './instance-lookup';
import type { BackupScheduleBody } from './schemas/backups';

export const toBackupScheduleView = (s: BackupSchedule) => ({
  instanceId: s.instanceId,
  frequency: s.frequency,
  time: s.time,
  timezone: s.timezone,
  weekday: (s.weekday as BackupScheduleBody['weekday']) ?? null,
  keepLast: s.keepLast,
  lastRunAt: s.lastRunAt?.toISOString() ?? null,
  lastBackupId: s.lastBackupId,
  lastRefusal: s.lastRefusalCode,
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
});

/** A server whose state leaves no backups to schedule: deleted, or on its way out. */
const GONE = ['deleting', 'deleted'];

/**
 * Runs one change of a server's backup schedule (its Temporal Schedule, then its row) alone, in
 * one transaction, on any number of API processes: a second change of the same server's schedule
 * meanwhile is refused (409 CONFLICT) rather than interleaved with it, so the two never disagree.
 * The server's row is share-locked too: its status cannot change under the change (a server delete
 * waits for it, then removes the schedule itself).
 */
async function changeScheduleAlone<T>(deps: ApiDeps, instanceId: string, change: (tx: Tx, status: string) => Promise<T>): Promise<T> {
  return deps.db.$transaction(async (tx) => {
    const [lock] = await tx.$queryRaw<{ taken: boolean }[]>`SELECT pg_try_advisory_xact_lock(hashtext(${`backup-schedule:${instanceId}`})) AS taken`;
    if (!lock?.taken) throw new AppError('CONFLICT', "Another change to this server's backup schedule is being made; send yours again once it is done.");
    const [instance] = await tx.$queryRaw<{ status: string }[]>`SELECT status::text FROM instances WHERE id = ${instanceId} FOR SHARE`;
    if (!instance) throw notFound('server');
    return change(tx, instance.status);
  });
}

/**
 * Sets a server's backup schedule, checked like a backup would be (a location with a backup
 * storage, `keepLast` within the plan's `backupLimit`). The Temporal Schedule is written first:
 * a schedule without its row removes itself when it fires.
 */
export async function putBackupSchedule(deps: ApiDeps, who: Principal, instanceId: string, body: BackupScheduleBody): Promise<BackupSchedule> {
  const instance = await findInstance(deps.db, who, instanceId);
  const spec = { frequency: body.frequency, time: body.time, timezone: body.timezone, weekday: body.weekday ?? null };
  return changeScheduleAlone(deps, instanceId, async (tx, status) => {
    if (GONE.includes(status)) throw new AppError('INVALID_STATE', `A server that is ${status} cannot be backed up.`, { status });
    if (!instance.location.backupStorage) throw new AppError('BACKUPS_UNSUPPORTED', "This server's location offers no backups.");
    if (body.keepLast > instance.plan.backupLimit) {
      throw new AppError('BACKUP_LIMIT_REACHED', `The plan allows ${instance.plan.backupLimit} backups; keepLast cannot be more.`, { backupLimit: instance.plan.backupLimit });
    }
    await upsertBackupSchedule(deps.temporal, deps.config, { instanceId, ...spec });
    return tx.backupSchedule.upsert({
      where: { instanceId },
      create: { instanceId, tenantId: instance.tenantId, createdByUserId: who.userId, keepLast: body.keepLast, ...spec },
      update: { createdByUserId: who.userId, keepLast: body.keepLast, ...spec },
    });
  });
}

export async function getBackupSchedule(deps: ApiDeps, who: Principal, instanceId: string): Promise<BackupSchedule> {
  await findInstance(deps.db, who, instanceId);
  const schedule = await deps.db.backupSchedule.findUnique({ where: { instanceId } });
  if (!schedule) throw noSchedule();
  return schedule;
}

/**
 * Removes the schedule: Temporal's first, so a failure leaves it listed and the delete can be sent
 * again. Its backups stay. A server with no schedule (never set, or removed by a delete just before
 * this one) answers null: the delete is done either way.
 */
export async function deleteBackupSchedule(deps: ApiDeps, who: Principal, instanceId: string): Promise<BackupSchedule | null> {
  await findInstance(deps.db, who, instanceId);
  return changeScheduleAlone(deps, instanceId, async (tx) => {
    const schedule = await tx.backupSchedule.findUnique({ where: { instanceId } });
    if (!schedule) return null;
    await removeBackupSchedule(deps.temporal, instanceId);
    await tx.backupSchedule.delete({ where: { instanceId } });
    return schedule;
  });
}

const noSchedule = () => new AppError('NOT_FOUND', 'This server has no backup schedule.');
