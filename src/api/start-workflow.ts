import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Tx } from '../db/client';
import { finishTask } from '../db/tasks';
import { AppError } from '../domain/errors';
import { InstanceIdKey, InstanceStatusKey, TenantIdKey } from '../workflows/definitions';
import type { ApiDeps } from './app';

const START_DEADLINE_MS = 5_000;

export interface CommittedTask {
  instanceId: string;
  tenantId: string;
  taskId: string;
  workflowType: 'ProvisionInstance' | 'InstanceOperation';
  workflowId: string;
  input: Record<string, unknown>;
  /** The instance's status as the workflow starts (search attribute). */
  status: string;
  /** What the Web UI names the workflow by. */
  labels: { operation: string; hostname: string; plan: string };
  /** What the customer is told when the workflow cannot be started. */
  unavailableMessage: string;
  /** Gives back what the committed task holds, in the transaction that fails it. */
  undo: (tx: Tx) => Promise<void>;
}

/** The workflow's static summary (one line) and details (markdown), shown by the Web UI and `temporal workflow describe`. */
export function workflowMetadata(task: Pick<CommittedTask, 'instanceId' | 'tenantId' | 'taskId' | 'workflowId' | 'labels'>) {
  const { operation, hostname, plan } = task.labels;
  return {
    staticSummary: `${operation} ${hostname} (plan ${plan}, tenant ${task.tenantId})`,
    staticDetails: [
      `**${operation}** of server \`${hostname}\` (\`${task.instanceId}\`), plan \`${plan}\`, tenant \`${task.tenantId}\`, task \`${task.taskId}\`.`,
      '',
      `Provider side and failure cause: \`GET /v1/admin/instances/${task.instanceId}\``,
      `Progress: \`temporal workflow query --workflow-id ${task.workflowId} --type progress\``,
    ].join('\n'),
  };
}

/**
 * Starts the workflow of a task whose rows are committed. A workflow that already exists counts
 * as started. If Temporal cannot be reached after a few tries, the task's holdings are undone and
 * the task fails, so nothing is stranded, and the caller gets PROVIDER_UNAVAILABLE.
 */
export async function startCommittedWorkflow(deps: ApiDeps, task: CommittedTask): Promise<void> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const metadata = workflowMetadata(task);
      // Each attempt has a deadline: the SDK would otherwise keep retrying an unreachable server.
      await deps.temporal.connection.withDeadline(Date.now() + START_DEADLINE_MS, () => deps.temporal.workflow.start(task.workflowType, {
        taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
        workflowId: task.workflowId,
        args: [{ instanceId: task.instanceId, taskId: task.taskId, ...task.input, timeoutScale: deps.config.STAGE_TIMEOUT_SCALE, summary: metadata.staticSummary }],
        ...metadata,
        typedSearchAttributes: [
          { key: InstanceIdKey, value: task.instanceId },
          { key: TenantIdKey, value: task.tenantId },
          { key: InstanceStatusKey, value: task.status },
        ],
      }));
      return;
    } catch (error) {
      if (error instanceof WorkflowExecutionAlreadyStartedError) return;
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** attempt));
    }
  }
  deps.logger.error({ err: lastError, instanceId: task.instanceId, workflowId: task.workflowId }, 'could not start the workflow; undoing its task');
  await deps.db.$transaction(async (tx) => {
    await task.undo(tx);
    await finishTask(tx, task.taskId, { status: 'failed', errorCode: 'PROVIDER_UNAVAILABLE', errorMessage: task.unavailableMessage });
  });
  throw new AppError('PROVIDER_UNAVAILABLE', task.unavailableMessage);
}
