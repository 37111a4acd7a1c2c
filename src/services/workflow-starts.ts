import { recordAudit } from '../db/audit';
import { lockUnstartedTask, markWorkflowStarted, recordStep } from '../db/tasks';
import { readStartIntent, startTaskWorkflow } from '../temporal/start-intents';
import { withinStartDeadline } from '../temporal/starts';
import type { ServiceDeps } from './deps';

/**
 * Starts the workflow of a task whose start was never confirmed (the API died between its commit
 * and the start, or Temporal was away), from its recorded intent and under the same workflow id,
 * and marks it started. A task the API gave up on (ended, holdings released) is left alone: both
 * decide under the task's row lock, which stays locked meanwhile, so the start has a short
 * deadline. Answers null when nothing was started.
 */
export async function startStrandedWorkflow(deps: Pick<ServiceDeps, 'db' | 'temporal' | 'config' | 'logger'>, taskId: string): Promise<'started' | 'already_started' | null> {
  return deps.db.$transaction(
    async (tx) => {
      const task = await lockUnstartedTask(tx, taskId);
      if (!task?.workflowType) return null;
      const intent = readStartIntent(task);
      if (!intent) {
        deps.logger.warn({ taskId, workflowType: task.workflowType }, 'a task records a start intent this version cannot start; left alone');
        return null;
      }
      const instance = await tx.instance.findUniqueOrThrow({ where: { id: task.instanceId }, select: { status: true } });
      const outcome = await withinStartDeadline(deps.temporal, () =>
        startTaskWorkflow(deps.temporal, deps.config.TEMPORAL_TASK_QUEUE, { ...intent, workflowId: task.workflowId, tenantId: task.tenantId, status: instance.status }),
      );
      await markWorkflowStarted(tx, taskId);
      if (outcome === 'started') {
        await recordStep(tx, { taskId, step: 'reconcile > resumed', status: 'warning', message: 'The request was interrupted after it was accepted; its work has been resumed.' });
      }
      await recordAudit(tx, { action: 'task.workflow_started_late', tenantId: task.tenantId, instanceId: task.instanceId, details: { taskId, workflowId: task.workflowId, outcome } });
      return outcome;
    },
    { maxWait: 10_000, timeout: 30_000 },
  );
}
