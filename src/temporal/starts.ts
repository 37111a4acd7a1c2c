import type { Client, WorkflowStartOptions } from '@temporalio/client';
import type { SnippetsCheckInput, SnippetsVerdict } from '../activities/snippets-check';
import type { Config } from '../config';
import type { DeliverWebhooksInput } from '../domain/webhooks';
// Types only: starting a workflow loads none of its code (which proxies activities at import).
import type * as workflows from '../workflows';
import { applyThrottleWorkflowId, destroyOrphanWorkflowId, importImageWorkflowId, syncIsoWorkflowId, removeImageWorkflowId, reconcileInstanceWorkflowId, snippetsCheckWorkflowId, webhookDeliveryWorkflowId } from './workflow-ids';

type Workflows = typeof workflows;
export type WorkflowType = keyof Workflows;

/** Starts a workflow by its type name, with options (args above all) checked against that workflow's own signature. */
export function startWorkflow<T extends WorkflowType>(client: Client, workflowType: T, options: WorkflowStartOptions<Workflows[T]>) {
  return client.workflow.start<Workflows[T]>(workflowType, options);
}

/** How long one workflow start may take before it counts as failed: the SDK would otherwise keep retrying an unreachable server. */
const START_DEADLINE_MS = 5_000;

/** Runs one call to Temporal (a workflow start) under the start deadline. */
export function withinStartDeadline<T>(client: Client, call: () => Promise<T>): Promise<T> {
  return client.connection.withDeadline(Date.now() + START_DEADLINE_MS, call);
}

type StartConfig = Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'STAGE_TIMEOUT_SCALE'>;

/** An operator's destroy of an orphan guest, under the start deadline. */
export function startDestroyOrphan(client: Client, config: StartConfig, orphanId: string) {
  return withinStartDeadline(client, () =>
    startWorkflow(client, 'DestroyOrphan', {
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      workflowId: destroyOrphanWorkflowId(orphanId),
      // A destroy that failed before may be asked again; one that runs is joined.
      workflowIdConflictPolicy: 'USE_EXISTING',
      args: [{ orphanId, timeoutScale: config.STAGE_TIMEOUT_SCALE }],
    }),
  );
}

/** The build of an image version on a connection's nodes (ImportImage), under the start deadline; one that runs is joined. */
export function startImageImport(client: Client, config: StartConfig, build: { imageId: string; versionId: string; connectionId: string }) {
  return withinStartDeadline(client, () =>
    startWorkflow(client, 'ImportImage', {
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      workflowId: importImageWorkflowId(build.versionId, build.connectionId),
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      args: [{ ...build, timeoutScale: config.STAGE_TIMEOUT_SCALE }],
      staticSummary: `image version ${build.versionId} on connection ${build.connectionId}`,
    }),
  );
}

/**
 * An ISO's copies brought to what the library says (SyncIso), under the start deadline. One that
 * runs gives way to the new one: its downloads are keyed, so the new run resumes them.
 */
export function startIsoSync(client: Client, config: StartConfig, isoId: string) {
  return withinStartDeadline(client, () =>
    startWorkflow(client, 'SyncIso', {
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      workflowId: syncIsoWorkflowId(isoId),
      workflowIdConflictPolicy: 'TERMINATE_EXISTING',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      args: [{ isoId, timeoutScale: config.STAGE_TIMEOUT_SCALE }],
      staticSummary: `ISO ${isoId}: download or delete its copies`,
    }),
  );
}

/** The removal of a deleted image's templates and files on a connection (RemoveImage), under the start deadline. */
export function startImageRemoval(client: Client, config: StartConfig, o: { imageId: string; connectionId: string }) {
  return withinStartDeadline(client, () =>
    startWorkflow(client, 'RemoveImage', {
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      workflowId: removeImageWorkflowId(o.imageId, o.connectionId),
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      args: [{ ...o, timeoutScale: config.STAGE_TIMEOUT_SCALE }],
      staticSummary: `remove image ${o.imageId} from connection ${o.connectionId}`,
    }),
  );
}

/** An operator's reconcile of one instance, under the start deadline; one already running is joined. */
export function startInstanceReconcile(client: Client, config: Pick<Config, 'TEMPORAL_TASK_QUEUE'>, instance: { id: string; connectionId: string }) {
  return withinStartDeadline(client, () =>
    startWorkflow(client, 'Reconcile', {
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      workflowId: reconcileInstanceWorkflowId(instance.id),
      workflowIdConflictPolicy: 'USE_EXISTING',
      args: [{ connectionId: instance.connectionId, instanceId: instance.id }],
    }),
  );
}

/**
 * A server's ApplyThrottle (its throttle or unthrottle operation asked for), under the start
 * deadline; one that runs is joined: it reads the throttle the server asks for when it asks.
 */
export function startApplyThrottle(client: Client, config: Pick<Config, 'TEMPORAL_TASK_QUEUE'>, input: { instanceId: string; actorUserId?: string }) {
  return withinStartDeadline(client, () =>
    startWorkflow(client, 'ApplyThrottle', {
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      workflowId: applyThrottleWorkflowId(input.instanceId),
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      args: [input],
      staticSummary: `server ${input.instanceId}: bring its NICs to its throttle`,
    }),
  );
}

/** The delivery workflow of one endpoint × instance; starting it joins one that runs. */
export async function startDeliveryWorkflow(client: Client, config: Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'WEBHOOK_RETRY_INITIAL_MS'>, group: { endpointId: string; instanceId: string }): Promise<void> {
  const input: DeliverWebhooksInput = { ...group, retryInitialMs: config.WEBHOOK_RETRY_INITIAL_MS };
  await startWorkflow(client, 'DeliverWebhooks', {
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    workflowId: webhookDeliveryWorkflowId(group.endpointId, group.instanceId),
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    args: [input],
    staticSummary: `webhooks of endpoint ${group.endpointId} for server ${group.instanceId}`,
  });
}

/**
 * How long past its wait a snippets check may run before Temporal ends it (its activity's budget
 * is shorter): the admin saving the setting waits for the answer, and gets one without a worker too.
 */
const SNIPPETS_CHECK_MARGIN_SECONDS = 60;

/** Checks a connection's snippets setting on a worker (CheckSnippetsStorage) and waits for the verdict. */
export async function runSnippetsCheck(client: Client, config: Pick<Config, 'TEMPORAL_TASK_QUEUE'>, input: SnippetsCheckInput): Promise<SnippetsVerdict> {
  const handle = await withinStartDeadline(client, () =>
    startWorkflow(client, 'CheckSnippetsStorage', {
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      workflowId: snippetsCheckWorkflowId(input.checkId),
      workflowExecutionTimeout: (input.waitSeconds + SNIPPETS_CHECK_MARGIN_SECONDS) * 1000,
      args: [input],
      staticSummary: `snippets storage ${input.storage} seen from ${input.directory} on ${input.nodes.join(', ')}`,
    }),
  );
  return handle.result();
}
