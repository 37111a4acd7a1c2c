import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';

/** Where a workflow stands: the `progress` query, read from the Temporal Web UI and the CLI (`temporal workflow query --type progress`). */
export interface ProvisionProgress {
  /** The provisioning stage running, or the operation's name; called `stage` in the progress query and in recorded histories. */
  stage: string | null;
  completedStages: string[];
  status: string;
  rollback: { state: 'none' | 'running' | 'parked' | 'done'; reason?: string; parkedTimes: number };
}

export const progressQuery = defineQuery<ProvisionProgress>('progress');

/** Operator: try destroying the guest again (parks again if it still fails). Rejected unless the workflow is parked. */
export const retryRollbackUpdate = defineUpdate<string>('retryRollback');
/** Operator: the guest was destroyed by hand; release everything, audit the note. Rejected unless the workflow is parked. */
export const resolveRollbackUpdate = defineUpdate<string, [{ note: string }]>('resolveRollback');
/** The same decisions as signals, as earlier versions took them: kept so their histories still replay. */
export const retryRollbackSignal = defineSignal('retryRollback');
export const resolveRollbackSignal = defineSignal<[{ note: string }]>('resolveRollback');
