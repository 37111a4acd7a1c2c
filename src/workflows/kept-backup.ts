import { CancellationScope, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { activityOptions, BUDGETS, bookkeepingOptions } from './activity-options';
import { readFailure } from './failure';

export interface DeleteKeptBackupInput {
  /** The deleted server the backup was made of (its tasks and events stay with it). */
  instanceId: string;
  taskId: string;
  backupId: string;
  summary: string;
  timeoutScale?: number;
}

export interface DeleteKeptBackupResult {
  status: 'deleted' | 'failed';
  failureCode?: string;
}

/**
 * The delete of a backup whose server was deleted (a backup of its own: no server operation can
 * carry it). The archive goes from its storage; the backup is then deleted. A failed delete leaves
 * the backup as it was (available, or lost), to be deleted again.
 */
export async function DeleteKeptBackup(input: DeleteKeptBackupInput): Promise<DeleteKeptBackupResult> {
  const scale = input.timeoutScale ?? 1;
  const { deleteKeptBackupArchive } = proxyActivities<Activities>(activityOptions(BUDGETS.archiveDelete, scale, 'backup_delete: remove the archive'));
  const { settleKeptBackupDelete } = proxyActivities<Activities>(bookkeepingOptions(scale, 'backup_delete: record the outcome'));
  try {
    await deleteKeptBackupArchive(input);
    await settleKeptBackupDelete({ ...input, outcome: 'deleted' });
    return { status: 'deleted' };
  } catch (error) {
    const { cause } = readFailure(error, { operation: 'backup_delete', phase: 'backup_delete' });
    const failure = { code: 'OPERATION_FAILED', message: 'The backup could not be deleted. Please try again or contact support.', cause };
    await CancellationScope.nonCancellable(() => settleKeptBackupDelete({ ...input, outcome: 'failed', failure }));
    return { status: 'failed', failureCode: failure.code };
  }
}
