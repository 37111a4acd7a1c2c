import { proxyActivities, uuid4 } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { ScheduledBackupOutcome } from '../activities/backup-schedules';
import { bookkeepingOptions } from './activity-options';

export interface ScheduledBackupInput {
  instanceId: string;
}

/**
 * One run of a server's backup schedule (the Temporal Schedule `backup-schedule-<instanceId>`):
 * asks for the backup as the API would; the backup itself, and the retention after it, run as the
 * server's `backup` operation. A refusal is the run's result, not its failure.
 */
export async function ScheduledBackup({ instanceId }: ScheduledBackupInput): Promise<ScheduledBackupOutcome> {
  const { requestScheduledBackup } = proxyActivities<Activities>(bookkeepingOptions(1, 'ask for the scheduled backup'));
  return requestScheduledBackup({ instanceId, backupId: `bkp_${uuid4().replaceAll('-', '')}` });
}
