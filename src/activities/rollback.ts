import { deleted, parked, provisionFailed } from '../db/instance-state';
import { releaseReservations, retireHoldings } from '../db/reservations';
import { finishTask, recordStep } from '../db/tasks';
import { loadInstance, type InstanceRef, type LoadedInstance } from './context';
import type { ActivityDeps } from './deps';
import { fail, FailureType } from './failures';
import { guestAfterClone, waitForProxmoxTasksOnGuest } from './guest-lock';
import { guestAt } from './ownership';
import { runProviderCall } from './provider-call';
import { restoredFromOwner } from './restore-as-new';
import { forgetSnapshotsNotOn } from './snapshot-reconcile';
import { deleteSnippet } from './snippets';
import { say } from './steps';
import { recordAudit } from '../db/audit';

export type GuestDestroyOutcome = 'removed' | 'absent' | 'not_ours';

export interface DestroyGuestInput extends InstanceRef {
  /** Names the provider calls of this destroy, unique within the task. */
  purpose: 'rollback' | 'delete' | 'rebuild';
}

/**
 * Destroys our guest and proves it: stop, destroy with purge, then the VMID must be gone from
 * /cluster/resources. A guest that is not provably ours (our VMID and our ownership marker, or
 * the legacy name) is never touched. The instance's user-data snippet, ours by its name, goes
 * once the guest is gone (a rebuild writes a new one).
 * Converges on retry: each call is a recorded provider call, a guest already gone counts as destroyed, and a missing snippet as deleted.
 */
export function createDestroyGuestActivity(deps: ActivityDeps) {
  return async function destroyGuest({ instanceId, taskId, purpose }: DestroyGuestInput): Promise<GuestDestroyOutcome> {
    const instance = await loadInstance(deps.db, instanceId);
    const outcome = await destroyInCluster(deps, instance, taskId, purpose);
    // A rebuild's new disk has none of the old one's snapshots.
    if (purpose === 'rebuild' && outcome !== 'not_ours') await forgetSnapshotsNotOn(deps, instanceId, []);
    await deleteSnippet(instance.connection, instanceId);
    return outcome;
  };
}

async function destroyInCluster(deps: ActivityDeps, instance: LoadedInstance, taskId: string, purpose: DestroyGuestInput['purpose']): Promise<GuestDestroyOutcome> {
  const instanceId = instance.id;
  if (instance.vmid === null) return 'absent';
  const vmid = instance.vmid;
  const client = deps.proxmox(instance.connection);
  const findGuest = async () => (await client.guests.list()).find((r) => r.vmid === vmid);

  // A clone of ours still creating the guest is waited out first (its lock is not stale).
  const guest =
    instance.templateVmid === null ? await guestAt(client, vmid) : await guestAfterClone(deps, client, { node: instance.node ?? '', vmid, templateVmid: instance.templateVmid });
  if (!guest) return 'absent';
  // A restored guest not yet marked as ours still carries its original's marker.
  if (guest.owner !== instanceId && (guest.owner === null || guest.owner !== (await restoredFromOwner(deps, instance)))) return 'not_ours';
  const where = guest.node;
  await say(deps, taskId, purpose, 'removing the server', 'processing', 'Removing the server from the hypervisor.');
  // A Proxmox task of ours holds the guest (a start, a migration): let it finish first.
  if (guest.lock) await waitForProxmoxTasksOnGuest(deps, client, where, vmid);
  const callKey = { instanceId, taskId, phase: purpose, node: where, vmid };
  await runProviderCall(deps, client, {
    ...callKey,
    kind: `${purpose}-stop`,
    isDone: async () => {
      const now = await findGuest();
      return !now || now.status === 'stopped';
    },
    issue: () => client.guests.stop(where, vmid),
  });
  const destroyed = await runProviderCall(deps, client, {
    ...callKey,
    kind: `${purpose}-destroy`,
    isDone: async () => !(await findGuest()),
    issue: () => client.guests.delete(where, vmid),
  });
  if (destroyed.warnings > 0) {
    // Proxmox only warns when a disk could not be removed: look for leftovers on the storage.
    const leftovers = await client.storage.images(where, instance.connection.storage, vmid);
    if (leftovers.length > 0) {
      throw fail(FailureType.GuestLocked, `guest ${vmid} was destroyed but left ${leftovers.length} volume(s) on ${instance.connection.storage}`, {
        vmid,
        node: where,
        volumes: leftovers.map((v) => v.volid),
      });
    }
  }
  if (await findGuest()) throw new Error(`guest ${vmid} is still listed by the cluster after its destroy task`);
  await say(deps, taskId, purpose, 'removing the server', 'success', 'The server was removed from the hypervisor.');
  return 'removed';
}

export interface FailInstanceInput extends InstanceRef {
  failure: { code: string; message: string };
  /** Operator-only detail: the provider's words, the stage, the UPID. */
  cause: Record<string, unknown>;
  /** Keep the VMID held: a guest that is not ours sits on it. */
  keepVmid: boolean;
}

/**
 * Ends a failed provision: releases VMID, addresses, capacity and quota, keeps the volume as an
 * errored record, deletes the credential, and fails instance and task with the same code.
 * When the customer deleted the instance meanwhile (desiredState `deleted`), it ends `deleted`.
 * Converges on retry: one transaction of conditional updates.
 */
export function createFailInstanceActivity(deps: ActivityDeps) {
  return async function failInstance({ instanceId, taskId, failure, cause, keepVmid }: FailInstanceInput): Promise<'failed' | 'deleted'> {
    return deps.db.$transaction(async (tx) => {
      const { desiredState } = await tx.instance.findUniqueOrThrow({ where: { id: instanceId }, select: { desiredState: true } });
      if (desiredState === 'deleted') {
        const message = 'The server was deleted before it was ready.';
        await retireHoldings(tx, instanceId, { keepVmid });
        await deleted(tx, instanceId, { during: 'provisioning', code: failure.code, keepVmid, ...cause });
        await recordStep(tx, { taskId, step: 'rollback > done', status: 'success', message });
        await finishTask(tx, taskId, { status: 'failed', errorCode: 'CANCELLED', errorMessage: message });
        return 'deleted';
      }
      await releaseReservations(tx, instanceId, { keepVmid });
      await tx.volume.updateMany({ where: { instanceId, status: { in: ['pending', 'ready'] } }, data: { status: 'errored' } });
      await tx.credential.deleteMany({ where: { instanceId } });
      await provisionFailed(tx, instanceId, failure, { keepVmid, ...cause });
      await recordStep(tx, { taskId, step: 'rollback > done', status: 'error', message: failure.message });
      await finishTask(tx, taskId, { status: 'failed', errorCode: failure.code, errorMessage: failure.message, failureCause: cause });
      return 'failed';
    });
  };
}

/** The destroys that park for an operator instead of failing. */
export type ParkingPurpose = 'rollback' | 'delete';

const PARKED_MESSAGES: Record<ParkingPurpose, string> = {
  rollback: 'The server could not be created; an operator is finishing its cleanup.',
  delete: 'The server could not be removed yet; an operator is finishing its removal.',
};

export interface ParkInput extends InstanceRef {
  /** What the destroy was for; a rollback unless said otherwise. */
  purpose?: ParkingPurpose;
  reason: string;
  /** Counts the parks of this task, so each one is its own line in the step thread. */
  attempt: number;
  cause: Record<string, unknown>;
}

/**
 * Parks an instance whose guest could not be proven gone: every reservation is kept and the
 * instance shows `rollback_failed` until an operator signals.
 * Converges on retry: plain updates to the same values.
 */
export function createParkInstanceActivity(deps: ActivityDeps) {
  return async function parkInstance({ instanceId, taskId, purpose = 'rollback', reason, attempt, cause }: ParkInput): Promise<void> {
    await deps.db.$transaction(async (tx) => {
      await parked(tx, instanceId, { message: PARKED_MESSAGES[purpose], reason, cause });
      await recordStep(tx, { taskId, step: `${purpose} > waiting for an operator (${attempt})`, status: 'error', message: 'Cleanup could not be confirmed; an operator has been asked to finish it.' });
    });
  };
}

/** Records an operator's decision on a parked instance. Converges on retry: an audit row per call is harmless. */
export function createRecordOperatorNoteActivity(deps: ActivityDeps) {
  return async function recordOperatorNote({ instanceId, action, note }: { instanceId: string; action: `${ParkingPurpose}.resolved_by_operator`; note: string }): Promise<void> {
    const { tenantId } = await deps.db.instance.findUniqueOrThrow({ where: { id: instanceId }, select: { tenantId: true } });
    await recordAudit(deps.db, { action, tenantId, instanceId, details: { note } });
  };
}
