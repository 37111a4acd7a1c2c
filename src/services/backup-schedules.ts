import type { Tx } from '../db/client';
import { shareLockInstanceStatus, tryLockKey } from '../db/locks';
import { changeDayRuns, type BackupCalendar } from '../domain/backup-calendar';
import { AppError, notFound } from '../domain/errors';
import type { BackupSchedule } from '../generated/prisma/client';
import { deleteTemporalBackupSchedule, UnknownTimeZoneError, upsertBackupSchedule } from '../temporal/schedules';
import type { ServiceDeps } from './deps';
import { findInstance } from './instances';
import type { Principal } from './principal';

type Deps = Pick<ServiceDeps, 'db' | 'temporal' | 'config'>;

/** A server's backup schedule as a caller sets it. */
export interface BackupScheduleRequest {
  frequency: 'daily' | 'weekly';
  /** `HH:MM` in `timezone`. */
  time: string;
  timezone: string;
  /** `monday` … `sunday`, weekly only. */
  weekday?: string;
  keepLast: number;
}

/** A server whose state leaves no backups to schedule: deleted, or on its way out. */
const GONE = ['deleting', 'deleted'];

/** How far ahead a schedule lists its runs on the days the clocks change; its runs move the list on (refreshChangeDayRuns). */
const CHANGE_DAY_HORIZON_MS = 2 * 365 * 86_400_000;

/** The schedule's runs on the days the clocks change, from `now` to the horizon. */
export function comingChangeDayRuns(calendar: BackupCalendar, now: Date): Date[] {
  return changeDayRuns(calendar, now, new Date(now.getTime() + CHANGE_DAY_HORIZON_MS));
}

/** Writes the server's Temporal Schedule; a time zone the Temporal server does not know is the caller's mistake, named at its field. */
async function writeTemporalSchedule(deps: Deps, instanceId: string, calendar: BackupCalendar, changeDayRunsAt: Date[]): Promise<void> {
  try {
    await upsertBackupSchedule(deps.temporal, deps.config, { instanceId, ...calendar, changeDayRuns: changeDayRunsAt });
  } catch (error) {
    if (!(error instanceof UnknownTimeZoneError)) throw error;
    throw new AppError('INVALID_INPUT', 'The request body is invalid.', {
      fields: { timezone: 'not a name of the IANA time zone database (abbreviations such as PST or IST are not); use a name such as America/Los_Angeles' },
    });
  }
}

/**
 * Runs one change of a server's backup schedule (its Temporal Schedule, then its row) alone, in
 * one transaction, on any number of API processes: a second change of the same server's schedule
 * meanwhile is refused (409 CONFLICT) rather than interleaved with it, so the two never disagree.
 * The server's row is share-locked too: its status cannot change under the change (a server delete
 * waits for it, then deletes the schedule itself).
 */
async function changeScheduleAlone<T>(deps: Deps, instanceId: string, change: (tx: Tx, status: string) => Promise<T>): Promise<T> {
  return deps.db.$transaction(async (tx) => {
    if (!(await tryLockKey(tx, `backup-schedule:${instanceId}`))) {
      throw new AppError('CONFLICT', "Another change to this server's backup schedule is being made; send yours again once it is done.");
    }
    const status = await shareLockInstanceStatus(tx, instanceId);
    if (status === undefined) throw notFound('server');
    return change(tx, status);
  });
}

/**
 * Sets a server's backup schedule, checked like a backup would be (a location with a backup
 * storage, `keepLast` within the plan's `backupLimit`). The Temporal Schedule is written first:
 * a schedule without its row deletes itself when it fires.
 */
export async function putBackupSchedule(deps: Deps, who: Principal, instanceId: string, body: BackupScheduleRequest): Promise<BackupSchedule> {
  const instance = await findInstance(deps, who, instanceId);
  const spec = { frequency: body.frequency, time: body.time, timezone: body.timezone, weekday: body.weekday ?? null };
  return changeScheduleAlone(deps, instanceId, async (tx, status) => {
    if (GONE.includes(status)) throw new AppError('INVALID_STATE', `A server that is ${status} cannot be backed up.`, { status });
    if (!instance.location.backupStorage) throw new AppError('BACKUPS_UNSUPPORTED', "This server's location offers no backups.");
    if (body.keepLast > instance.plan.backupLimit) {
      throw new AppError('BACKUP_LIMIT_REACHED', `The plan allows ${instance.plan.backupLimit} backups; keepLast cannot be more.`, { backupLimit: instance.plan.backupLimit });
    }
    const changeDayRunsAt = comingChangeDayRuns(spec, new Date());
    await writeTemporalSchedule(deps, instanceId, spec, changeDayRunsAt);
    return tx.backupSchedule.upsert({
      where: { instanceId },
      create: { instanceId, tenantId: instance.tenantId, createdByUserId: who.userId, keepLast: body.keepLast, ...spec, changeDayRunsAt },
      update: { createdByUserId: who.userId, keepLast: body.keepLast, ...spec, changeDayRunsAt },
    });
  });
}

/**
 * Lists the schedule's coming runs on the days the clocks change anew (the horizon moved on, or the
 * runtime's time zone rules changed): its Temporal Schedule, then its row. Skipped while another
 * change of the schedule is being made, which writes them itself; a schedule gone, or a server on
 * its way out, is left alone.
 */
export async function refreshChangeDayRuns(deps: Deps, instanceId: string): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    if (!(await tryLockKey(tx, `backup-schedule:${instanceId}`))) return;
    const status = await shareLockInstanceStatus(tx, instanceId);
    const schedule = await tx.backupSchedule.findUnique({ where: { instanceId } });
    if (!schedule || status === undefined || GONE.includes(status)) return;
    const calendar = { frequency: schedule.frequency, time: schedule.time, timezone: schedule.timezone, weekday: schedule.weekday };
    const changeDayRunsAt = comingChangeDayRuns(calendar, new Date());
    await upsertBackupSchedule(deps.temporal, deps.config, { instanceId, ...calendar, changeDayRuns: changeDayRunsAt });
    await tx.backupSchedule.update({ where: { instanceId }, data: { changeDayRunsAt } });
  });
}

export async function getBackupSchedule(deps: Deps, who: Principal, instanceId: string): Promise<BackupSchedule> {
  await findInstance(deps, who, instanceId);
  const schedule = await deps.db.backupSchedule.findUnique({ where: { instanceId } });
  if (!schedule) throw new AppError('NOT_FOUND', 'This server has no backup schedule.');
  return schedule;
}

/**
 * Deletes the schedule: Temporal's first, so a failure leaves it listed and the delete can be sent
 * again. Its backups stay. A server with no schedule (never set, or deleted by a delete just before
 * this one) answers null: the delete is done either way.
 */
export async function deleteBackupSchedule(deps: Deps, who: Principal, instanceId: string): Promise<BackupSchedule | null> {
  await findInstance(deps, who, instanceId);
  return changeScheduleAlone(deps, instanceId, async (tx) => {
    const schedule = await tx.backupSchedule.findUnique({ where: { instanceId } });
    if (!schedule) return null;
    await deleteTemporalBackupSchedule(deps.temporal, instanceId);
    await tx.backupSchedule.delete({ where: { instanceId } });
    return schedule;
  });
}

/** Deletes the schedule of a server that is gone or being deleted (no caller to check), Temporal's first; one already gone counts as deleted. */
export async function deleteScheduleOf(deps: Pick<ServiceDeps, 'db' | 'temporal'>, instanceId: string): Promise<void> {
  await deleteTemporalBackupSchedule(deps.temporal, instanceId);
  await deps.db.backupSchedule.deleteMany({ where: { instanceId } });
}
