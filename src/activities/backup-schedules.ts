import { Context } from '@temporalio/activity';
import type { Db } from '../db/client';
import { runPeriod } from '../domain/backup-calendar';
import { AppError, type ErrorCode } from '../domain/errors';
import type { BackupSchedule } from '../generated/prisma/client';
import { comingChangeDayRuns, deleteScheduleOf, refreshChangeDayRuns } from '../services/backup-schedules';
import { requestBackup } from '../services/backups';
import type { ActivityDeps } from './deps';

export interface ScheduledBackupRequest {
  instanceId: string;
  /** Chosen by the run, so a retried attempt finds the backup it made. */
  backupId: string;
  /** When the run was due (Temporal's nominal time, ISO 8601); runs started before it was passed count by the activity's clock. */
  scheduledAt?: string;
}

export interface ScheduledBackupOutcome {
  backupId: string | null;
  /**
   * Why the run made no backup: a refusal code; `NO_SCHEDULE` when the schedule had been deleted
   * (and is deleted from Temporal now); `ALREADY_RAN` when another run of the same local day
   * (week) came first.
   */
  refusal: ErrorCode | 'NO_SCHEDULE' | 'ALREADY_RAN' | null;
}

/** Refusals that pass with time: the attempt is retried rather than recorded. */
const TRANSIENT: readonly ErrorCode[] = ['PROVIDER_UNAVAILABLE', 'SERVICE_UNAVAILABLE', 'SERVICE_BUSY'];

/**
 * Whether this run is the one of its local day (daily) or week (weekly), taking the period for it
 * when no other run did: the first run due in a period counts, whatever it then makes; a run of a
 * period already taken does not. The run's id is recorded with it, so a retried attempt of the
 * same run counts again.
 */
async function countRun(db: Db, schedule: BackupSchedule, runId: string, scheduledAt: Date): Promise<boolean> {
  for (let row: BackupSchedule | null = schedule; row; row = await db.backupSchedule.findUnique({ where: { instanceId: schedule.instanceId } })) {
    if (row.countedRunId === runId) return true;
    if (row.countedRunAt && runPeriod(row, row.countedRunAt) === runPeriod(row, scheduledAt)) return false;
    const taken = await db.backupSchedule.updateMany({
      where: { instanceId: row.instanceId, countedRunId: row.countedRunId },
      data: { countedRunAt: scheduledAt, countedRunId: runId },
    });
    if (taken.count === 1) return true;
  }
  return false;
}

const sameInstants = (a: Date[], b: Date[]) => a.length === b.length && a.every((at, i) => at.getTime() === b[i]?.getTime());

/**
 * A backup schedule's run: asks for a backup exactly as POST /v1/instances/{id}/backups does,
 * as the user who set the schedule, once per local day (daily) or week (weekly) of the schedule's
 * time zone: a later run of a period already run makes none (`ALREADY_RAN`, nothing recorded). A
 * refusal (plan limit, server busy or not in a state to back up) is recorded on the schedule, not
 * raised: the next run comes as planned. A schedule whose row is gone (deleted, or its server
 * deleted) deletes itself from Temporal. Each run lists the schedule's coming runs on the days
 * the clocks change anew when they moved on.
 * Converges on retry: the backup id is the run's, recorded with the period it took, so a retried
 * attempt counts again and finds the backup it asked for instead of asking again.
 */
export function createRequestScheduledBackupActivity(deps: ActivityDeps) {
  return async function requestScheduledBackup({ instanceId, backupId, scheduledAt }: ScheduledBackupRequest): Promise<ScheduledBackupOutcome> {
    const services = { ...deps, temporal: Context.current().client };
    const schedule = await deps.db.backupSchedule.findUnique({ where: { instanceId }, include: { instance: { select: { status: true } } } });
    if (!schedule || schedule.instance.status === 'deleted') {
      await deleteScheduleOf(services, instanceId);
      return { backupId: null, refusal: 'NO_SCHEDULE' };
    }
    const now = new Date();
    if (!sameInstants(comingChangeDayRuns(schedule, now), schedule.changeDayRunsAt.filter((at) => at >= now))) await refreshChangeDayRuns(services, instanceId);
    if (!(await countRun(deps.db, schedule, backupId, scheduledAt ? new Date(scheduledAt) : now))) {
      deps.logger.info({ instanceId, scheduledAt }, 'a scheduled backup run skipped: its day (or week) had one');
      return { backupId: null, refusal: 'ALREADY_RAN' };
    }
    let outcome: ScheduledBackupOutcome = { backupId, refusal: null };
    if (!(await deps.db.backup.findUnique({ where: { id: backupId }, select: { id: true } }))) {
      // Whoever set the schedule was authorized to then (src/services/authorization.ts); the run acts as them inside their tenant.
      const owner = { userId: schedule.createdByUserId, tokenId: 'backup-schedule', role: 'customer' as const, tenantId: schedule.tenantId, tenantRole: null };
      try {
        await requestBackup(services, owner, instanceId, { notes: 'scheduled backup' }, { backupId, keepLast: schedule.keepLast });
      } catch (error) {
        if (!(error instanceof AppError) || TRANSIENT.includes(error.code)) throw error;
        deps.logger.info({ instanceId, code: error.code }, 'a scheduled backup was refused');
        outcome = { backupId: null, refusal: error.code };
      }
    }
    await deps.db.backupSchedule.updateMany({ where: { instanceId }, data: { lastRunAt: new Date(), lastBackupId: outcome.backupId, lastRefusalCode: outcome.refusal } });
    return outcome;
  };
}
