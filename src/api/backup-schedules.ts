import { AppError } from '../domain/errors';
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
 * Sets a server's backup schedule, checked like a backup would be (a location with a backup
 * storage, `keepLast` within the plan's `backupLimit`). The Temporal Schedule is written first:
 * a schedule without its row removes itself when it fires.
 */
export async function putBackupSchedule(deps: ApiDeps, who: Principal, instanceId: string, body: BackupScheduleBody): Promise<BackupSchedule> {
  const instance = await findInstance(deps.db, who, instanceId);
  if (GONE.includes(instance.status)) throw new AppError('INVALID_STATE', `A server that is ${instance.status} cannot be backed up.`, { status: instance.status });
  if (!instance.location.backupStorage) throw new AppError('BACKUPS_UNSUPPORTED', "This server's location offers no backups.");
  if (body.keepLast > instance.plan.backupLimit) {
    throw new AppError('BACKUP_LIMIT_REACHED', `The plan allows ${instance.plan.backupLimit} backups; keepLast cannot be more.`, { backupLimit: instance.plan.backupLimit });
  }
  const spec = { frequency: body.frequency, time: body.time, timezone: body.timezone, weekday: body.weekday ?? null };
  await upsertBackupSchedule(deps.temporal, deps.config, { instanceId, ...spec });
  return deps.db.backupSchedule.upsert({
    where: { instanceId },
    create: { instanceId, tenantId: instance.tenantId, createdByUserId: who.userId, keepLast: body.keepLast, ...spec },
    update: { createdByUserId: who.userId, keepLast: body.keepLast, ...spec },
  });
}

export async function getBackupSchedule(deps: ApiDeps, who: Principal, instanceId: string): Promise<BackupSchedule> {
  await findInstance(deps.db, who, instanceId);
  const schedule = await deps.db.backupSchedule.findUnique({ where: { instanceId } });
  if (!schedule) throw new AppError('NOT_FOUND', 'This server has no backup schedule.');
  return schedule;
}

/** Removes the schedule: Temporal's first, so a failure leaves it listed and the delete can be sent again. Its backups stay. */
export async function deleteBackupSchedule(deps: ApiDeps, who: Principal, instanceId: string): Promise<BackupSchedule> {
  const schedule = await getBackupSchedule(deps, who, instanceId);
  await removeBackupSchedule(deps.temporal, instanceId);
  await deps.db.backupSchedule.deleteMany({ where: { instanceId } });
  return schedule;
}
