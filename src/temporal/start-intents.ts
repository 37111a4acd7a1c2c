import { WorkflowExecutionAlreadyStartedError, type Client, type WorkflowOptions } from '@temporalio/client';
import { z } from 'zod';
import { OPERATION_STATUS, type Operation } from '../domain/instance-status';
import type { Prisma } from '../generated/prisma/client';
import type { InstanceOperation } from '../workflows/instance-operation';
import type { DeleteKeptBackup } from '../workflows/kept-backup';
import type { ProvisionInstance } from '../workflows/provision-instance';
import { InstanceIdKey, InstanceStatusKey, TenantIdKey } from './search-attributes';
import { startWorkflow } from './starts';

/**
 * What a start intent hands its workflow: the workflow's own input, always with the summary (the
 * line the Web UI lists it by) and never a parked state (only continue-as-new carries one).
 */
type IntentArgs<W extends (input: never) => unknown> = Omit<Parameters<W>[0], 'parked' | 'summary'> & { summary: string };

/**
 * A task's start intent: committed with the task, so that its workflow is started by whoever gets
 * there first — the API right after its commit, or the reconciler when the API never confirmed
 * the start (it crashed, or Temporal was briefly away).
 */
export type StartIntent =
  | { workflowType: 'ProvisionInstance'; workflowArgs: IntentArgs<typeof ProvisionInstance> }
  | { workflowType: 'InstanceOperation'; workflowArgs: IntentArgs<typeof InstanceOperation> }
  | { workflowType: 'DeleteKeptBackup'; workflowArgs: IntentArgs<typeof DeleteKeptBackup> };

const intentArgs = { instanceId: z.string(), taskId: z.string(), summary: z.string(), timeoutScale: z.number().optional() };

/** A start intent as the task row holds it (JSON written by intentColumns). */
const storedIntent = z.discriminatedUnion('workflowType', [
  z.object({ workflowType: z.literal('ProvisionInstance'), workflowArgs: z.object({ ...intentArgs, fromBackup: z.boolean().optional() }) }),
  z.object({
    workflowType: z.literal('InstanceOperation'),
    workflowArgs: z.object({
      ...intentArgs,
      operation: z.custom<Operation>((value) => typeof value === 'string' && Object.hasOwn(OPERATION_STATUS, value)),
      shutdownTimeoutSeconds: z.number().optional(),
    }),
  }),
  z.object({ workflowType: z.literal('DeleteKeptBackup'), workflowArgs: z.object({ ...intentArgs, backupId: z.string() }) }),
]) satisfies z.ZodType<StartIntent>;

/** The start intent a task row records; null when the row holds none, or none this version can start. */
export function readStartIntent(columns: { workflowType: string | null; workflowArgs: unknown }): StartIntent | null {
  if (!columns.workflowType) return null;
  const parsed = storedIntent.safeParse(columns);
  return parsed.success ? parsed.data : null;
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
  return { workflowType: intent.workflowType, workflowArgs: intent.workflowArgs };
}

export type TaskStart = StartIntent & {
  workflowId: string;
  tenantId: string;
  /** The instance's status as the workflow starts (search attribute). */
  status: string;
};

/**
 * Starts a task's workflow under its recorded id. With REJECT_DUPLICATE a workflow that exists or
 * existed under that id (even one that has already finished) answers "already started": a start
 * that did happen is never doubled, whoever tries again.
 */
export async function startTaskWorkflow(client: Client, taskQueue: string, task: TaskStart): Promise<'started' | 'already_started'> {
  const options: WorkflowOptions = {
    taskQueue,
    workflowId: task.workflowId,
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
    staticSummary: task.workflowArgs.summary,
    staticDetails: staticDetails(task),
    typedSearchAttributes: [
      { key: InstanceIdKey, value: task.workflowArgs.instanceId },
      { key: TenantIdKey, value: task.tenantId },
      { key: InstanceStatusKey, value: task.status },
    ],
  };
  try {
    if (task.workflowType === 'ProvisionInstance') await startWorkflow(client, 'ProvisionInstance', { ...options, args: [task.workflowArgs] });
    else if (task.workflowType === 'InstanceOperation') await startWorkflow(client, 'InstanceOperation', { ...options, args: [task.workflowArgs] });
    else await startWorkflow(client, 'DeleteKeptBackup', { ...options, args: [task.workflowArgs] });
    return 'started';
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return 'already_started';
    throw error;
  }
}

