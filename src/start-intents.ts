import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Prisma } from './generated/prisma/client';
import { InstanceIdKey, InstanceStatusKey, TenantIdKey } from './workflows/definitions';

/**
 * A task's start intent: committed with the task, so that its workflow is started by whoever gets
 * there first — the API right after its commit, or the reconciler when the API never confirmed
 * the start (it crashed, or Temporal was briefly away).
 */
export type StartableWorkflow = 'ProvisionInstance' | 'InstanceOperation';

export interface StartIntent {
  workflowType: StartableWorkflow;
  /** The workflow's one argument; it names the instance and the task, and the line the Web UI lists it by. */
  workflowArgs: { instanceId: string; taskId: string; summary: string } & Record<string, unknown>;
}

/** The one line the Web UI and `temporal workflow list` name a task's workflow by; it also heads its current details. */
export function workflowSummary(o: { operation: string; hostname: string; plan: string; tenantId: string }): string {
  return `${o.operation} ${o.hostname} (plan ${o.plan}, tenant ${o.tenantId})`;
}

/** The workflow's static details (markdown): where to look next. */
function staticDetails(task: TaskStart): string {
  const { instanceId, taskId, summary } = task.workflowArgs;
  return [
    `**${summary}**: server \`${instanceId}\`, task \`${taskId}\`.`,
    '',
    `Provider side and failure cause: \`GET /v1/admin/instances/${instanceId}\``,
    `Progress: \`temporal workflow query --workflow-id ${task.workflowId} --type progress\``,
  ].join('\n');
}

/** The task columns that record an intent. */
export function intentColumns(intent: StartIntent): { workflowType: string; workflowArgs: Prisma.InputJsonValue } {
  return { workflowType: intent.workflowType, workflowArgs: intent.workflowArgs as Prisma.InputJsonValue };
}

export interface TaskStart extends StartIntent {
  workflowId: string;
  tenantId: string;
  /** The instance's status as the workflow starts (search attribute). */
  status: string;
}

/**
 * Starts a task's workflow under its recorded id. With REJECT_DUPLICATE a workflow that exists or
 * existed under that id (even one that has already finished) answers "already started": a start
 * that did happen is never doubled, whoever tries again.
 */
export async function startTaskWorkflow(client: Client, taskQueue: string, task: TaskStart): Promise<'started' | 'already_started'> {
  try {
    await client.workflow.start(task.workflowType, {
      taskQueue,
      workflowId: task.workflowId,
      args: [task.workflowArgs],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      staticSummary: task.workflowArgs.summary,
      staticDetails: staticDetails(task),
      typedSearchAttributes: [
        { key: InstanceIdKey, value: task.workflowArgs.instanceId },
        { key: TenantIdKey, value: task.tenantId },
        { key: InstanceStatusKey, value: task.status },
      ],
    });
    return 'started';
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return 'already_started';
    throw error;
  }
}

/** How long one workflow start may take before it counts as failed: the SDK would otherwise keep retrying an unreachable server. */
const START_DEADLINE_MS = 5_000;

/** Runs one call to Temporal (a workflow start) under the start deadline. */
export function withinStartDeadline<T>(client: Client, call: () => Promise<T>): Promise<T> {
  return client.connection.withDeadline(Date.now() + START_DEADLINE_MS, call);
}

