import { Context } from '@temporalio/activity';
import { AppError, type ErrorCode } from '../domain/errors';
import { deleteScheduleOf } from '../services/backup-schedules';
import { requestBackup } from '../services/backups';
import type { ActivityDeps } from './deps';

export interface ScheduledBackupRequest {
  instanceId: string;
  /** Chosen by the run, so a retried attempt finds the backup it made. */
  backupId: string;
}

export interface ScheduledBackupOutcome {
  backupId: string | null;
  /** Why the run made no backup: a refusal code, or `NO_SCHEDULE` when the schedule had been deleted (and is deleted from Temporal now). */
  refusal: ErrorCode | 'NO_SCHEDULE' | null;
}

/** Refusals that pass with time: the attempt is retried rather than recorded. */
const TRANSIENT: readonly ErrorCode[] = ['PROVIDER_UNAVAILABLE', 'SERVICE_UNAVAILABLE', 'SERVICE_BUSY'];

/**
 * A backup schedule's run: asks for a backup exactly as POST /v1/instances/{id}/backups does,
 * as the user who set the schedule. A refusal (plan limit, server busy or not in a state to back
 * up) is recorded on the schedule, not raised: the next run comes as planned. A schedule whose
 * row is gone (deleted, or its server deleted) deletes itself from Temporal.
 * Converges on retry: the backup id is the run's, so a backup already asked for is found, not asked for again.
 */
export function createRequestScheduledBackupActivity(deps: ActivityDeps) {
  return async function requestScheduledBackup({ instanceId, backupId }: ScheduledBackupRequest): Promise<ScheduledBackupOutcome> {
    const services = { ...deps, temporal: Context.current().client };
    const schedule = await deps.db.backupSchedule.findUnique({ where: { instanceId }, include: { instance: { select: { status: true } } } });
    if (!schedule || schedule.instance.status === 'deleted') {
      await deleteScheduleOf(services, instanceId);
      return { backupId: null, refusal: 'NO_SCHEDULE' };
    }
    let outcome: ScheduledBackupOutcome = { backupId, refusal: null };
    if (!(await deps.db.backup.findUnique({ where: { id: backupId }, select: { id: true } }))) {
      const owner = { userId: schedule.createdByUserId, tokenId: 'backup-schedule', role: 'customer' as const, tenantId: schedule.tenantId };
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
