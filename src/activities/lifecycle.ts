import { ApplicationFailure } from '@temporalio/common';
import { operationOfTask, operationSubject, readParams, settleHoldings, type OperationParams } from '../db/lifecycle';
import { findProviderCall } from '../db/provider-calls';
import { deleted, operationFinished } from '../db/instance-state';
import { retireHoldings } from '../db/reservations';
import { finishTask, lockOpenTask, recordStep } from '../db/tasks';
import { GUEST_LOST_MESSAGE } from '../domain/failure-types';
import type { InstanceStatus } from '../generated/prisma/enums';
import { ProxmoxError } from '../proxmox';
import { loadInstance, placement, type InstanceRef, type LoadedInstance } from './context';
import type { ActivityDeps } from './deps';
import { fail, FailureType } from './failures';
import { growDisk, powerOff, powerOn, writeConfig, type GuestCall } from './guest-calls';
import { guestAt, ourGuestAt } from './ownership';
import { runProviderCall } from './provider-call';
import { say, stepLine } from './steps';

/** The guest an operation works on, with what every provider call needs; `phase` is the operation's name. */
export async function guestOf(deps: ActivityDeps, { instanceId, taskId }: InstanceRef, phase: string) {
  const instance = await loadInstance(deps.db, instanceId);
  const { node, vmid } = placement(instance);
  const client = deps.proxmox(instance.connection);
  return { instance, node, vmid, client, callKey: { instanceId, taskId, phase, node, vmid } };
}

export type Guest = Awaited<ReturnType<typeof guestOf>>;

/** One provider call, said in the task's thread as `<phase> > <what>`: processing before, success after. */
export async function saidCall(deps: ActivityDeps, { client, callKey }: Guest, what: string, [before, after]: [string, string], call: GuestCall): Promise<void> {
  await say(deps, callKey.taskId, callKey.phase, what, 'processing', before);
  await runProviderCall(deps, client, { ...callKey, ...call, reportsDone: stepLine(callKey.taskId, callKey.phase, what, 'success', after) });
}

export async function paramsOf(deps: ActivityDeps, taskId: string): Promise<OperationParams> {
  const task = await deps.db.task.findUnique({ where: { id: taskId }, select: { params: true } });
  return readParams(task?.params ?? null);
}

/** The task's parameters of its operation; a task without them is an inconsistent state. */
async function requiredParams<K extends 'resize' | 'migrate'>(deps: ActivityDeps, taskId: string, key: K, what: string): Promise<NonNullable<OperationParams[K]>> {
  const params = (await paramsOf(deps, taskId))[key];
  if (!params) throw fail(FailureType.InconsistentState, `task ${taskId} has no ${what} parameters`);
  return params;
}

/** Provider truth about our guest: where it is and whether it runs; null when it is gone (or not ours any more). */
export async function observeGuest(deps: ActivityDeps, instance: LoadedInstance): Promise<{ node: string; status: 'running' | 'stopped' } | null> {
  if (instance.vmid === null) return null;
  const client = deps.proxmox(instance.connection);
  const guest = await ourGuestAt(client, instance.vmid, instance.id);
  if (!guest) return null;
  try {
    const { status } = await client.guests.status(guest.node, instance.vmid);
    return { node: guest.node, status: status === 'running' ? 'running' : 'stopped' };
  } catch (error) {
    if (error instanceof ProxmoxError && error.isNotFound) return null;
    throw error;
  }
}

/**
 * start: power the guest on.
 * Converges on retry: a recorded UPID is polled again; a running guest, or "already running", counts as done.
 */
export function createStartActivity(deps: ActivityDeps) {
  return async function startGuest(ref: InstanceRef): Promise<void> {
    const guest = await guestOf(deps, ref, 'start');
    await saidCall(deps, guest, 'starting the server', ['Powering the server on.', 'The server is powered on.'], powerOn(guest.client, guest.node, guest.vmid));
  };
}

/**
 * stop: forced power off.
 * Converges on retry: a recorded UPID is polled again; a stopped guest counts as done.
 */
export function createStopActivity(deps: ActivityDeps) {
  return async function stopGuest(ref: InstanceRef): Promise<void> {
    const guest = await guestOf(deps, ref, 'stop');
    await saidCall(deps, guest, 'stopping the server', ['Powering the server off.', 'The server is powered off.'], powerOff(guest.client, guest.node, guest.vmid));
  };
}

/**
 * shutdown: ACPI shutdown with Proxmox's own timeout; if the guest does not go down in time
 * (the task fails), a forced stop follows, said as a warning.
 * Converges on retry: each call is a recorded provider call; a shutdown recorded as failed goes straight to the stop; a stopped guest counts as done.
 */
export function createShutdownActivity(deps: ActivityDeps) {
  return async function shutdownGuest(ref: InstanceRef): Promise<void> {
    const { client, node, vmid, callKey } = await guestOf(deps, ref, 'shutdown');
    const seconds = deps.config.SHUTDOWN_TIMEOUT_SECONDS;
    await say(deps, ref.taskId, 'shutdown', 'shutting down', 'processing', 'Asking the operating system to shut down.');
    const earlier = await findProviderCall(deps.db, ref.taskId, 'shutdown');
    if (earlier?.status !== 'failed') {
      try {
        await runProviderCall(deps, client, {
          ...callKey,
          kind: 'shutdown',
          isDone: async () => (await client.guests.status(node, vmid)).status === 'stopped',
          issue: () => client.guests.shutdown(node, vmid, { timeoutSeconds: seconds, forceStop: false }),
        });
        await say(deps, ref.taskId, 'shutdown', 'shutting down', 'success', 'The server shut down.');
        return;
      } catch (error) {
        if (!(error instanceof ApplicationFailure) || error.type !== FailureType.ProviderTaskFailed) throw error;
      }
    }
    await say(deps, ref.taskId, 'shutdown', 'forcing a stop', 'warning', `The server did not shut down within ${seconds} seconds, so it is being powered off.`);
    await runProviderCall(deps, client, { ...callKey, ...powerOff(client, node, vmid) });
    await say(deps, ref.taskId, 'shutdown', 'shutting down', 'success', 'The server is powered off.');
  };
}

/**
 * reboot: an ACPI reboot.
 * Converges on retry: a recorded UPID is polled again; when the answer to the call was lost, a
 * guest that has been up for less time than since the call counts as rebooted (never before the
 * call: a guest started a moment ago is up for no longer than that either).
 */
export function createRebootActivity(deps: ActivityDeps) {
  return async function rebootGuest(ref: InstanceRef): Promise<void> {
    const guest = await guestOf(deps, ref, 'reboot');
    const { client, node, vmid } = guest;
    await saidCall(deps, guest, 'restarting the server', ['Restarting the server.', 'The server restarted.'], {
      kind: 'reboot',
      isDone: async ({ fresh }) => {
        if (fresh) return false;
        const asked = await findProviderCall(deps.db, ref.taskId, 'reboot');
        if (asked?.status !== 'issuing') return false;
        const status = await client.guests.status(node, vmid);
        const secondsSinceAsked = (Date.now() - asked.updatedAt.getTime()) / 1000;
        return status.status === 'running' && typeof status.uptime === 'number' && status.uptime <= secondsSinceAsked;
      },
      issue: () => client.guests.reboot(node, vmid),
    });
  };
}

/**
 * resize: CPU and memory of the new plan, then the disk grown to its absolute size (never shrunk).
 * Converges on retry: the config write is compared with the guest's config first; the disk is resized only while smaller.
 */
export function createResizeActivity(deps: ActivityDeps) {
  return async function resizeGuest(ref: InstanceRef): Promise<void> {
    const guest = await guestOf(deps, ref, 'resize');
    const { client, node, vmid } = guest;
    const { to } = await requiredParams(deps, ref.taskId, 'resize', 'resize');
    await saidCall(
      deps,
      guest,
      'sizing the server',
      [`Setting ${to.vcpus} vCPU and ${to.memoryMiB} MiB of memory.`, 'CPU and memory are set.'],
      writeConfig(client, node, vmid, 'config', { sockets: 1, cores: to.vcpus, memory: to.memoryMiB }),
    );
    await saidCall(deps, guest, 'growing the disk', [`Growing the disk to ${to.diskGiB} GiB.`, `The disk is ${to.diskGiB} GiB.`], growDisk(client, node, vmid, to.diskGiB));
  };
}

/**
 * After a failed resize: CPU and memory back to the old plan, so the guest has no more than is
 * charged (a disk that grew stays grown; its call runs last, after the config).
 * Converges on retry: the config write is compared with the guest's config first.
 */
export function createUndoResizeActivity(deps: ActivityDeps) {
  return async function undoResize(ref: InstanceRef): Promise<void> {
    const { client, node, vmid, callKey } = await guestOf(deps, ref, 'resize');
    const resize = (await paramsOf(deps, ref.taskId)).resize;
    if (!resize) return;
    const { from } = resize;
    await runProviderCall(deps, client, { ...callKey, ...writeConfig(client, node, vmid, 'config-undo', { sockets: 1, cores: from.vcpus, memory: from.memoryMiB }) });
    await say(deps, ref.taskId, 'resize', 'restoring the old size', 'warning', `The resize did not complete; the server has ${from.vcpus} vCPU and ${from.memoryMiB} MiB again.`);
  };
}

/**
 * migrate: moves the guest to the target node, online when it runs (local disks travel with it).
 * Converges on retry: a recorded UPID is polled again; a guest already on the target counts as moved.
 */
export function createMigrateActivity(deps: ActivityDeps) {
  return async function migrateGuest(ref: InstanceRef): Promise<void> {
    const guest = await guestOf(deps, ref, 'migrate');
    const { client, node, vmid } = guest;
    const { targetNode } = await requiredParams(deps, ref.taskId, 'migrate', 'migration');
    await saidCall(deps, guest, 'moving the server', ['Moving the server to another host.', 'The server runs on its new host.'], {
      kind: 'migrate',
      isDone: async () => (await client.guests.list()).find((r) => r.vmid === vmid)?.node === targetNode,
      issue: async () => {
        const online = (await client.guests.status(node, vmid)).status === 'running';
        return client.guests.migrate(node, vmid, { target: targetNode, online, withLocalDisks: online });
      },
    });
  };
}

/**
 * Before a rebuild destroys anything: our guest must be there, or nothing is touched.
 * Converges on retry: read-only.
 */
export function createCheckGuestActivity(deps: ActivityDeps) {
  return async function checkGuest(ref: InstanceRef): Promise<void> {
    const instance = await loadInstance(deps.db, ref.instanceId);
    const { vmid } = placement(instance);
    const guest = await guestAt(deps.proxmox(instance.connection), vmid);
    if (!guest) throw fail(FailureType.GuestLost, `guest ${vmid} is not in the cluster`, { vmid });
    if (guest.owner !== instance.id) throw fail(FailureType.GuestConflict, `guest ${vmid} is not ours (${guest.name ?? 'unnamed'})`, { vmid, node: guest.node });
  };
}

/**
 * rebuild: the old credential goes with the old disk; cloud_init mints a new one.
 * Converges on retry: a delete of whatever is there.
 */
export function createDiscardCredentialActivity(deps: ActivityDeps) {
  return async function discardCredential({ instanceId, taskId }: InstanceRef): Promise<void> {
    await deps.db.credential.deleteMany({ where: { instanceId } });
    await say(deps, taskId, 'rebuild', 'old disk removed', 'success', 'The old disk and its login were removed; a new disk comes from the image.');
  };
}

export interface FinishOperationInput extends InstanceRef {
  /** Absent when the operation did what it was asked. */
  failure?: { code: string; message: string; cause?: Record<string, unknown> };
  /** The guest was destroyed on purpose (a rebuild that failed after it): the instance has no server. */
  guestRemoved?: boolean;
  /** A failed resize could not be undone on the guest: keep charging the larger size. */
  holdCharges?: boolean;
}

/**
 * Ends an operation on provider truth: the instance shows what the guest really is
 * (running/stopped); what the operation held is committed on success and returned on failure
 * (unless told to hold it).
 * A guest that vanished leaves the instance `lost` (GUEST_LOST) with every reservation kept
 * for an operator; nothing is re-created. A rebuild that failed after destroying the old guest
 * leaves it `rebuild_failed`, holding everything, for the customer to rebuild again or delete.
 * Converges on retry: provider reads, then one transaction that does nothing once the task has ended.
 */
export function createFinishOperationActivity(deps: ActivityDeps) {
  return async function finishOperation({ instanceId, taskId, failure, guestRemoved, holdCharges }: FinishOperationInput): Promise<InstanceStatus> {
    const instance = await loadInstance(deps.db, instanceId);
    const truth = guestRemoved ? null : await observeGuest(deps, instance);
    const lost = !guestRemoved && (truth === null || failure?.code === 'GUEST_LOST');
    return deps.db.$transaction(async (tx) => {
      const task = await lockOpenTask(tx, taskId);
      if (!task) return (await tx.instance.findUniqueOrThrow({ where: { id: instanceId }, select: { status: true } })).status;
      const params = readParams(task.params);
      // A migration reported as failed whose guest did reach the target did happen.
      const moved = params.migrate !== undefined && truth?.node === params.migrate.targetNode;
      if ((!failure && !lost) || moved) await settleHoldings(tx, instanceId, params, 'commit');
      else if (!holdCharges) await settleHoldings(tx, instanceId, params, 'revert');

      const operation = operationOfTask(task.type);
      if (!operation) throw fail(FailureType.InconsistentState, `task ${taskId} is not an operation (${task.type})`);
      let status: InstanceStatus;
      let outcome: { code: string; message: string } | null = failure ?? null;
      let cause = failure?.cause;
      if (lost) {
        status = 'lost';
        outcome = { code: 'GUEST_LOST', message: GUEST_LOST_MESSAGE };
        cause ??= { operation, type: FailureType.GuestLost, detail: `guest ${instance.vmid} is not in the cluster after the operation` };
      } else if (guestRemoved || !truth) {
        status = 'rebuild_failed';
      } else {
        const { rescueSince } = await tx.instance.findUniqueOrThrow({ where: { id: instanceId }, select: { rescueSince: true } });
        // A server in rescue shows it while it runs; stopped, it is stopped (and starts into rescue again).
        status = truth.status === 'running' && rescueSince ? 'rescue' : truth.status;
      }
      await operationFinished(tx, instanceId, { operation, status, taskId, failure: outcome ? { ...outcome, cause } : null, subject: operationSubject(params) });
      if (outcome) {
        await recordStep(tx, { taskId, step: `${operation} > done`, status: 'error', message: outcome.message });
        await finishTask(tx, taskId, { status: 'failed', errorCode: outcome.code, errorMessage: outcome.message, failureCause: cause });
      } else {
        await recordStep(tx, { taskId, step: `${operation} > done`, status: 'success', message: `The server is ${status === 'rescue' ? 'in rescue' : status}.` });
        await finishTask(tx, taskId, { status: 'succeeded' });
      }
      return status;
    });
  };
}

export interface CompleteDeletionInput extends InstanceRef {
  /** A guest we did not create sits on the VMID: keep it out of circulation. */
  keepVmid: boolean;
  /** The operator's note, when the destroy was resolved by hand. */
  note?: string;
}

/**
 * Ends a delete once the guest is proven gone: VMID, addresses, capacity and quota are released,
 * the volume is marked deleted and the credential erased; the instance stays readable as `deleted`.
 * Converges on retry: conditional updates in one transaction.
 */
export function createCompleteDeletionActivity(deps: ActivityDeps) {
  return async function completeDeletion({ instanceId, taskId, keepVmid, note }: CompleteDeletionInput): Promise<void> {
    await deps.db.$transaction(async (tx) => {
      if (!(await lockOpenTask(tx, taskId))) return;
      await retireHoldings(tx, instanceId, { keepVmid });
      await deleted(tx, instanceId, { taskId, keepVmid, ...(note ? { operatorNote: note } : {}) });
      await recordStep(tx, { taskId, step: 'delete > done', status: 'success', message: 'The server was deleted and everything it held was released.' });
      await finishTask(tx, taskId, { status: 'succeeded' });
    });
  };
}
