import { proxyActivities, uuid4, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { ScheduledBackupOutcome } from '../activities/backup-schedules';
import { ScheduledStartTimeKey } from '../temporal/search-attributes';
import { bookkeepingOptions } from './activity-options';

export interface ScheduledBackupInput {
  instanceId: string;
}

/**
 * One run of a server's backup schedule (the Temporal Schedule `backup-schedule-<instanceId>`):
 * asks for the backup as the API would, for the local day (week) the run was due in; the backup
 * itself, and the retention after it, run as the server's `backup` operation. A refusal is the
 * run's result, not its failure.
 */
export async function ScheduledBackup({ instanceId }: ScheduledBackupInput): Promise<ScheduledBackupOutcome> {
  const { requestScheduledBackup } = proxyActivities<Activities>(bookkeepingOptions(1, 'ask for the scheduled backup'));
  // Due when the schedule says, not when a worker got to it: a run caught up after midnight still counts for its own day.
  const info = workflowInfo();
  const scheduledAt = (info.typedSearchAttributes.get(ScheduledStartTimeKey) ?? info.startTime).toISOString();
  return requestScheduledBackup({ instanceId, backupId: `bkp_${uuid4().replaceAll('-', '')}`, scheduledAt });
}
