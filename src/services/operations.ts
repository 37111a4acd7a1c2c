import { WorkflowNotFoundError } from '@temporalio/client';
import type { Tx } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { deleteDuringProvision, deletionDesired, operationBegun, operationNotStarted, type TransitionColumns } from '../db/instance-state';
import {
  chargeResize,
  reserveMigration,
  settleHoldings,
  TASK_TYPES,
  type OperationParams,
  type PreviousState,
} from '../db/lifecycle';
import { lockRow } from '../db/locks';
import { assertProjectAllows, lockProject } from '../db/projects';
import { openTask } from '../db/tasks';
import { assertNotArchived } from '../domain/archived';
import { decideLogin } from '../domain/credentials-policy';
import { AppError, notFound } from '../domain/errors';
import { newId } from '../security/ids';
import { judgeOperation, OPERATION_STATUS, REFUSED_IN_RESCUE, type Operation } from '../domain/instance-status';
import type { Prisma } from '../generated/prisma/client';
import type { CredentialType, DesiredState, InstanceStatus } from '../generated/prisma/enums';
import { operationWorkflowId, provisionWorkflowId } from '../temporal/workflow-ids';
import { intentColumns, workflowSummary, type StartIntent } from '../temporal/start-intents';
import { startCommittedWorkflow } from '../temporal/committed-start';
import type { OperationInput } from '../workflows/instance-operation';
import type { ServiceDeps } from './deps';
import { findInstance, type InstanceRow } from './instances';
import { decideParked } from './parked-rollbacks';
import { resolveSshKeys } from './ssh-keys';
import { tenantScope, type Principal } from './principal';

/** What an operation's request needs: the transaction, the workflow start, and the answer's read. */
export type OperationDeps = Pick<ServiceDeps, 'db' | 'temporal' | 'config' | 'logger' | 'afterCommit'>;

export interface OperationAnswer {
  instance: InstanceRow;
  /** The task that carries the operation (for an instance already deleted: its last task). */
  taskId: string | null;
  /** 202 when work was started or is under way; 200 when there was nothing left to do. */
  httpStatus: 200 | 202;
}

/** What each operation asks for; resize and migrate leave the power state alone. */
const DESIRED: Partial<Record<Operation, DesiredState>> = {
  start: 'running',
  reboot: 'running',
  stop: 'stopped',
  shutdown: 'stopped',
  // A rebuilt server boots like a new one.
  rebuild: 'running',
  delete: 'deleted',
};

/** Still being made: a delete cancels the provisioning instead of waiting for it. */
const PROVISIONING: readonly InstanceStatus[] = ['pending', 'scheduling', 'provisioning'];

async function lockInstance(tx: Tx, who: Principal, id: string) {
  await lockRow(tx, 'instances', id);
  const instance = await tx.instance.findFirst({
    where: { id, ...tenantScope(who) },
    include: { plan: true, volumes: true, tasks: { orderBy: { createdAt: 'desc' }, take: 1 } },
  });
  if (!instance) throw notFound('server');
  return instance;
}

export type LockedInstance = Awaited<ReturnType<typeof lockInstance>>;

const inProgress = (status?: string) =>
  status === 'backing_up'
    ? new AppError('BACKUP_IN_PROGRESS', 'The server is being backed up; try again when the backup has finished.', { status })
    : new AppError('OPERATION_IN_PROGRESS', 'Another operation is running on this server; try again when it has finished.', status ? { status } : undefined);

/** What an operation changes or holds beyond its task, decided under the instance's lock. */
export interface Preparation {
  params?: Omit<OperationParams, 'previous'>;
  data?: TransitionColumns;
  previous?: Partial<PreviousState>;
  /** More of its workflow's input. */
  workflow?: Pick<OperationInput, 'afterFailedRebuild'>;
}

/** An answer found under the lock that needs no new task (deletes only). */
interface Shortcut {
  answer: 'done' | 'joined' | 'cancel_provisioning' | 'retry_parked';
  taskId: string | null;
  workflowId?: string;
}

export interface OperationRequest {
  operation: Operation;
  prepare?: (tx: Tx, instance: LockedInstance) => Promise<Preparation>;
  shortcut?: (tx: Tx, instance: LockedInstance) => Promise<Shortcut | null>;
}

/**
 * Commits an operation's task in one transaction (instance row locked; the state checked with
 * judgeOperation; the task's activeInstanceId unique, so a concurrent request on another API
 * replica fails with OPERATION_IN_PROGRESS too), then starts its workflow. If the workflow
 * cannot start, the instance returns to what it was and everything held is given back.
 */
export async function requestOperation(deps: OperationDeps, who: Principal, instanceId: string, request: OperationRequest): Promise<Shortcut | { taskId: string }> {
  const { operation } = request;
  const taskId = newId('task');
  const workflowId = operationWorkflowId(operation, instanceId, taskId);
  let committed: Shortcut | { tenantId: string; params: OperationParams; intent: StartIntent };
  try {
    committed = await deps.db.$transaction(
      async (tx) => {
        const instance = await lockInstance(tx, who, instanceId);
        const shortcut = await request.shortcut?.(tx, instance);
        if (shortcut) return shortcut;
        if (instance.rescueSince && REFUSED_IN_RESCUE.includes(operation)) {
          throw new AppError('IN_RESCUE', `The server is in rescue mode; leave it before asking it to ${operation}.`, { status: instance.status });
        }
        const verdict = judgeOperation(instance.status, operation);
        if (verdict === 'in_progress') throw inProgress(instance.status);
        if (verdict === 'invalid_state') {
          throw new AppError('INVALID_STATE', `A server that is ${instance.status} cannot be asked to ${operation}.`, { status: instance.status });
        }
        const prepared = (await request.prepare?.(tx, instance)) ?? {};
        const params: OperationParams = { previous: { status: instance.status, desiredState: instance.desiredState, ...prepared.previous }, ...prepared.params };
        const summary = workflowSummary({ operation, hostname: instance.hostname, plan: instance.plan.name, tenantId: instance.tenantId });
        const intent: StartIntent = {
          workflowType: 'InstanceOperation',
          workflowArgs: {
            instanceId,
            taskId,
            summary,
            operation,
            shutdownTimeoutSeconds: deps.config.SHUTDOWN_TIMEOUT_SECONDS,
            timeoutScale: deps.config.STAGE_TIMEOUT_SCALE,
            ...prepared.workflow,
          },
        };
        await openTask(
          tx,
          {
          id: taskId,
          instanceId,
          tenantId: instance.tenantId,
          type: TASK_TYPES[operation],
          workflowId,
          ...intentColumns(intent),
          params: params as unknown as Prisma.InputJsonValue,
          },
          { step: `${operation} > accepted`, status: 'success', message: 'The request was accepted.', progress: 5 },
        );
        const desiredState = DESIRED[operation];
        // The system acting on its own (SYSTEM) is no user: its audit rows name none.
        await operationBegun(tx, instanceId, { operation, actorUserId: who.userId || null, taskId, set: { ...(desiredState ? { desiredState } : {}), ...prepared.data } });
        return { tenantId: instance.tenantId, params, intent };
      },
      { maxWait: 20_000, timeout: 30_000 },
    );
  } catch (error) {
    // The unique active task: another request won the race (possibly on another replica).
    if (isUniqueViolation(error)) throw inProgress();
    throw error;
  }
  if ('answer' in committed) return committed;

  const { params, tenantId, intent } = committed;
  await startCommittedWorkflow(deps, {
    instanceId,
    tenantId,
    taskId,
    workflowId,
    intent,
    status: OPERATION_STATUS[operation],
    unavailableMessage: 'The service that operates servers is unavailable; nothing was changed. Please try again.',
    undo: (tx) => undoOperation(tx, instanceId, operation, params),
  });
  return { taskId };
}

/** Puts the instance back as it was before an operation whose workflow never started. */
async function undoOperation(tx: Tx, instanceId: string, operation: Operation, params: OperationParams): Promise<void> {
  await settleHoldings(tx, instanceId, params, 'revert');
  const { previous } = params;
  await operationNotStarted(tx, instanceId, {
    operation,
    previous: previous.status as InstanceStatus,
    set: {
      desiredState: previous.desiredState as DesiredState,
      ...(previous.imageId ? { imageId: previous.imageId } : {}),
      ...(previous.username ? { username: previous.username } : {}),
      ...(previous.credentialType ? { credentialType: previous.credentialType as CredentialType } : {}),
      ...(previous.sshKeys ? { sshKeys: previous.sshKeys } : {}),
      ...(previous.templateVmid !== undefined ? { templateVmid: previous.templateVmid } : {}),
    },
  });
}

const CANCEL_DEADLINE_MS = 5_000;

/**
 * Asks the provisioning workflow to stop; its rollback honours desiredState `deleted`, and a
 * provision that already finished refuses to finalize a deleted instance, so a late cancel
 * changes nothing. When Temporal cannot take the cancel, the delete stays recorded and the
 * caller is told to send it again (which sends the cancel again).
 */
async function cancelProvisioning(deps: OperationDeps, instanceId: string): Promise<void> {
  try {
    await deps.temporal.connection.withDeadline(Date.now() + CANCEL_DEADLINE_MS, () => deps.temporal.workflow.getHandle(provisionWorkflowId(instanceId)).cancel());
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return;
    deps.logger.warn({ err: error, instanceId }, 'could not cancel the provisioning workflow');
    throw new AppError('PROVIDER_UNAVAILABLE', 'The server is being deleted, but its creation could not be stopped yet. Please send the delete again.');
  }
}

export async function answer(deps: OperationDeps, who: Principal, instanceId: string, taskId: string | null, httpStatus: 200 | 202): Promise<OperationAnswer> {
  return { instance: await findInstance(deps, who, instanceId), taskId, httpStatus };
}

/** start, stop (forced), shutdown (ACPI, then forced after the timeout), reboot. */
export async function requestPowerOperation(deps: OperationDeps, who: Principal, instanceId: string, operation: 'start' | 'stop' | 'shutdown' | 'reboot'): Promise<OperationAnswer> {
  const { taskId } = (await requestOperation(deps, who, instanceId, { operation })) as { taskId: string };
  return answer(deps, who, instanceId, taskId, 202);
}

/** The server's project, its row locked as a create locks it (its restrictions and quota hold for this change). */
async function lockedProjectOf(tx: Tx, instance: { tenantId: string; projectId: string }) {
  const project = await lockProject(tx, instance.tenantId, instance.projectId);
  if (!project) throw new Error(`project ${instance.projectId} of a server does not exist`);
  return project;
}

/** resize: stopped servers only; the growth is charged to quota and node first, the disk only grows. */
export async function requestResize(deps: OperationDeps, who: Principal, instanceId: string, planId: string): Promise<OperationAnswer> {
  const { taskId } = (await requestOperation(deps, who, instanceId, {
    operation: 'resize',
    prepare: async (tx, instance) => {
      const plan = await tx.plan.findUnique({ where: { id: planId } });
      if (!plan) throw new AppError('INVALID_INPUT', 'The request refers to something that does not exist.', { fields: { planId: 'no such plan' } });
      if (plan.id !== instance.planId) assertNotArchived({ planId: plan.archivedAt });
      const project = await lockedProjectOf(tx, instance);
      if (plan.id !== instance.planId) assertProjectAllows(project, { planId: plan.id });
      const tenant = await tx.tenant.findUniqueOrThrow({ where: { id: instance.tenantId } });
      const disk = instance.volumes.find((v) => v.kind === 'root')?.sizeGiB ?? instance.chargedDiskGiB;
      return { params: { resize: await chargeResize(tx, instance, project, tenant, plan, disk) } };
    },
  })) as { taskId: string };
  return answer(deps, who, instanceId, taskId, 202);
}

/**
 * rebuild: a new disk from the image (the same or another), a new credential; VMID, addresses,
 * MAC and name stay. After a failed rebuild (`rebuild_failed`) it is how the server comes back.
 */
export async function requestRebuild(deps: OperationDeps, who: Principal, instanceId: string, body: { imageId?: string; sshKeys?: string[]; sshKeyIds?: string[] }): Promise<OperationAnswer> {
  const { imageId } = body;
  // New keys when the request names any (raw or saved on the caller's account); else the server's own.
  const newKeys = body.sshKeys || body.sshKeyIds ? await resolveSshKeys(deps.db, who, body.sshKeyIds, body.sshKeys) : undefined;
  const { taskId } = (await requestOperation(deps, who, instanceId, {
    operation: 'rebuild',
    prepare: async (tx, instance) => {
      const image = await tx.image.findUnique({ where: { id: imageId ?? instance.imageId }, include: { templates: true } });
      if (!image) throw new AppError('INVALID_INPUT', 'The request refers to something that does not exist.', { fields: { imageId: 'no such image' } });
      const sameImage = image.id === instance.imageId;
      // Rebuilding from the image the server has stays possible after the image is archived or no longer allowed in its project.
      if (!sameImage) {
        assertNotArchived({ imageId: image.archivedAt });
        assertProjectAllows(await lockedProjectOf(tx, instance), { imageId: image.id });
      }
      if (instance.userData !== null) {
        const connection = await tx.proxmoxConnection.findUniqueOrThrow({ where: { id: instance.connectionId } });
        if (!connection.snippetsStorage) {
          throw new AppError('USER_DATA_UNSUPPORTED', "This server's user data can no longer be handed over: its location has no snippets storage now.");
        }
      }
      const login = decideLogin(
        { username: instance.username, sshKeys: newKeys ?? instance.sshKeys, credentialType: sameImage && !newKeys ? instance.credentialType : undefined },
        image,
        instance.plan.defaultUsername,
        deps.config.DEFAULT_USERNAME,
      );
      const template = image.templates.find((t) => t.connectionId === instance.connectionId && t.node === instance.node);
      if (!template) throw new AppError('UNSUPPORTED', "This image is not available on this server's host.", { fields: { imageId: 'not offered here' } });
      return {
        data: { imageId: image.id, templateVmid: template.templateVmid, username: login.username, credentialType: login.credentialType, sshKeys: login.sshKeys },
        previous: { imageId: instance.imageId, username: instance.username, credentialType: instance.credentialType, sshKeys: instance.sshKeys, templateVmid: instance.templateVmid },
        ...(instance.status === 'rebuild_failed' ? { workflow: { afterFailedRebuild: true } } : {}),
      };
    },
  })) as { taskId: string };
  return answer(deps, who, instanceId, taskId, 202);
}

/** migrate (operators): to another enabled node of the cluster, capacity reserved there first. */
export async function requestMigration(deps: OperationDeps, who: Principal, instanceId: string, node: string): Promise<OperationAnswer> {
  const { taskId } = (await requestOperation(deps, who, instanceId, {
    operation: 'migrate',
    prepare: async (tx, instance) => ({ params: { migrate: await reserveMigration(tx, instance, node) } }),
  })) as { taskId: string };
  return answer(deps, who, instanceId, taskId, 202);
}

/**
 * delete, idempotent:
 * - already `deleted` → 200 with the instance and its last task, nothing new;
 * - `deleting` → 202 with the task under way;
 * - still being made → desiredState `deleted`, the provisioning is cancelled and its rollback
 *   ends the instance as `deleted` (202 with the provisioning task);
 * - `rollback_failed` → desiredState `deleted` and the parked workflow is asked to retry its
 *   cleanup, which then ends the instance as `deleted` (202 with that task);
 * - otherwise a delete task: stop, destroy, confirm, release everything (202).
 */
export async function requestDelete(deps: OperationDeps, who: Principal, instanceId: string, keepBackups = false): Promise<OperationAnswer> {
  const result = await requestOperation(deps, who, instanceId, {
    operation: 'delete',
    prepare: async () => ({ params: { keepBackups } }),
    shortcut: async (tx, instance) => {
      const latest = instance.tasks[0];
      const active = await tx.task.findUnique({ where: { activeInstanceId: instanceId }, select: { id: true, workflowId: true } });
      if (instance.status === 'deleted') return { answer: 'done', taskId: latest?.id ?? null };
      // A delete that cancels a provisioning sends the cancel again: the first one may not have reached Temporal.
      if (instance.status === 'deleting' && active?.workflowId === provisionWorkflowId(instanceId)) return { answer: 'cancel_provisioning', taskId: active.id };
      if (instance.status === 'deleting') return { answer: 'joined', taskId: active?.id ?? latest?.id ?? null };
      if (PROVISIONING.includes(instance.status)) {
        await deleteDuringProvision(tx, instanceId, { actorUserId: who.userId });
        return { answer: 'cancel_provisioning', taskId: active?.id ?? latest?.id ?? null };
      }
      if (instance.status === 'rollback_failed' && latest) {
        await deletionDesired(tx, instanceId, { actorUserId: who.userId, during: instance.status, tenantId: instance.tenantId });
        return { answer: 'retry_parked', taskId: latest.id, workflowId: latest.workflowId };
      }
      return null;
    },
  });
  if (!('answer' in result)) return answer(deps, who, instanceId, result.taskId, 202);

  if (result.answer === 'cancel_provisioning') {
    await cancelProvisioning(deps, instanceId);
  } else if (result.answer === 'retry_parked' && result.workflowId) {
    try {
      await decideParked(deps, result.workflowId, { action: 'retry' });
    } catch (error) {
      // Refused because the cleanup is running again already: it honours desiredState `deleted` too.
      const workflow = error instanceof AppError ? error.details?.workflow : undefined;
      if (workflow === 'closed') {
        throw new AppError('INVALID_STATE', 'No workflow is waiting to clean this server up; an operator must finish it.', { status: 'rollback_failed' });
      }
      if (workflow !== 'not_parked') throw error;
    }
  }
  return answer(deps, who, instanceId, result.taskId, result.answer === 'done' ? 200 : 202);
}
