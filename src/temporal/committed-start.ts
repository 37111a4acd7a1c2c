import type { Client } from '@temporalio/client';
import type { Config } from '../config';
import type { Db, Tx } from '../db/client';
import { finishTask, lockUnstartedTask, markWorkflowStarted } from '../db/tasks';
import { AppError } from '../domain/errors';
import type { Logger } from '../logger';
import { startTaskWorkflow, type StartIntent } from './start-intents';
import { withinStartDeadline } from './starts';

export interface CommittedStartDeps {
  db: Db;
  temporal: Client;
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE'>;
  logger: Logger;
  /** Runs between the task's commit and its workflow start (tests stop there, as a crash would). */
  afterCommit?: (taskId: string) => Promise<void>;
}

export interface CommittedTask {
  instanceId: string;
  tenantId: string;
  taskId: string;
  workflowId: string;
  /** What the task's transaction recorded as its start intent. */
  intent: StartIntent;
  /** The instance's status as the workflow starts (search attribute). */
  status: string;
  /** What the customer is told when the workflow cannot be started. */
  unavailableMessage: string;
  /** Gives back what the committed task holds, in the transaction that fails it. */
  undo: (tx: Tx) => Promise<void>;
}

/**
 * Starts the workflow of a task whose rows (and start intent) are committed, then marks it
 * started. A workflow that already exists counts as started. If Temporal cannot be reached after
 * a few tries, the task's holdings are undone and the task fails, so nothing is stranded, and the
 * caller gets PROVIDER_UNAVAILABLE — unless the reconciler started the workflow meanwhile (both
 * decide under the task's row lock), in which case the request succeeded after all.
 */
export async function startCommittedWorkflow(deps: CommittedStartDeps, task: CommittedTask): Promise<void> {
  await deps.afterCommit?.(task.taskId);
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      // Each attempt has a deadline: the SDK would otherwise keep retrying an unreachable server.
      await withinStartDeadline(deps.temporal, () =>
        startTaskWorkflow(deps.temporal, deps.config.TEMPORAL_TASK_QUEUE, { ...task.intent, workflowId: task.workflowId, tenantId: task.tenantId, status: task.status }),
      );
      await markWorkflowStarted(deps.db, task.taskId);
      return;
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** attempt));
    }
  }
  deps.logger.error({ err: lastError, instanceId: task.instanceId, workflowId: task.workflowId }, 'could not start the workflow; undoing its task');
  const undone = await deps.db.$transaction(async (tx) => {
    if (!(await lockUnstartedTask(tx, task.taskId))) return false;
    await task.undo(tx);
    await finishTask(tx, task.taskId, { status: 'failed', errorCode: 'PROVIDER_UNAVAILABLE', errorMessage: task.unavailableMessage });
    return true;
  });
  if (undone) throw new AppError('PROVIDER_UNAVAILABLE', task.unavailableMessage);
}
