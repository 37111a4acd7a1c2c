import type { SnapshotParams } from '../db/lifecycle';
import { ProxmoxError, type ProxmoxClient } from '../proxmox';
import type { InstanceRef } from './context';
import type { ActivityDeps } from './deps';
import { fail, FailureType } from './failures';
import { powerOff, powerOn } from './guest-calls';
import { guestOf, paramsOf, saidCall } from './lifecycle';

async function snapshotParams(deps: ActivityDeps, taskId: string): Promise<SnapshotParams> {
  const params = (await paramsOf(deps, taskId)).snapshot;
  if (!params) throw fail(FailureType.InconsistentState, `task ${taskId} has no snapshot parameters`);
  return params;
}

/**
 * "snapshot 'x' does not exist" says nothing about the guest: it is a refusal, not GUEST_LOST
 * (which the generic mapping would make of any "does not exist").
 */
async function aboutSnapshot(issue: () => Promise<string>): Promise<string> {
  try {
    return await issue();
  } catch (error) {
    if (error instanceof ProxmoxError && /snapshot '.*' does not exist|snapshot feature is not available/.test(error.message)) {
      throw fail(FailureType.ProviderRejected, error.message, { status: error.status });
    }
    throw error;
  }
}

const hasSnapshot = async (client: ProxmoxClient, node: string, vmid: number, name: string) => (await client.snapshots.list(node, vmid)).some((s) => s.name === name);

/**
 * snapshot: Proxmox takes it (with the guest's RAM when asked and the guest runs).
 * Converges on retry: a recorded UPID is polled again; a snapshot of that name on the guest counts as taken.
 */
export function createTakeSnapshotActivity(deps: ActivityDeps) {
  return async function takeSnapshot(ref: InstanceRef): Promise<void> {
    const guest = await guestOf(deps, ref, 'snapshot');
    const { client, node, vmid } = guest;
    const { snapshotId, name } = await snapshotParams(deps, ref.taskId);
    const row = await deps.db.snapshot.findUniqueOrThrow({ where: { id: snapshotId } });
    await saidCall(deps, guest, 'taking the snapshot', [`Taking the snapshot ${name}.`, `The snapshot ${name} is taken.`], {
      kind: 'snapshot',
      isDone: () => hasSnapshot(client, node, vmid, name),
      issue: () => aboutSnapshot(() => client.snapshots.create(node, vmid, { name, description: row.description || undefined, vmstate: row.vmstate || undefined })),
      startsTask: { type: 'qmsnapshot', id: vmid },
    });
  };
}

/**
 * snapshot_delete: Proxmox merges the snapshot away.
 * Converges on retry: a recorded UPID is polled again; a guest without that snapshot counts as done.
 */
export function createDeleteSnapshotActivity(deps: ActivityDeps) {
  return async function deleteGuestSnapshot(ref: InstanceRef): Promise<void> {
    const guest = await guestOf(deps, ref, 'snapshot_delete');
    const { client, node, vmid } = guest;
    const { name } = await snapshotParams(deps, ref.taskId);
    await saidCall(deps, guest, 'deleting the snapshot', [`Deleting the snapshot ${name}.`, `The snapshot ${name} is deleted.`], {
      kind: 'snapshot_delete',
      isDone: async () => !(await hasSnapshot(client, node, vmid, name)),
      issue: () => aboutSnapshot(() => client.snapshots.delete(node, vmid, name)),
      startsTask: { type: 'qmdelsnapshot', id: vmid },
    });
  };
}

/**
 * rollback, a revert to a snapshot: a server that ran is stopped first and started again afterwards, unless the snapshot
 * holds its RAM (Proxmox then resumes it itself).
 * Converges on retry: each call is a recorded provider call; the stop and start count as done on
 * a guest already in that state; a rollback whose answer was lost is sent again, which puts the
 * guest in the same state.
 */
export function createRevertToSnapshotActivity(deps: ActivityDeps) {
  return async function revertToSnapshot(ref: InstanceRef): Promise<void> {
    const guest = await guestOf(deps, ref, 'rollback');
    const { client, node, vmid } = guest;
    const params = await paramsOf(deps, ref.taskId);
    const snapshot = params.snapshot;
    if (!snapshot) throw fail(FailureType.InconsistentState, `task ${ref.taskId} has no snapshot parameters`);
    const row = await deps.db.snapshot.findUniqueOrThrow({ where: { id: snapshot.snapshotId } });
    const restartAfter = params.previous.status === 'running' && !row.vmstate;
    if (restartAfter) {
      await saidCall(deps, guest, 'stopping the server', ['Powering the server off for the rollback.', 'The server is powered off.'], powerOff(client, node, vmid));
    }
    await saidCall(deps, guest, 'rolling back', [`Rolling the server back to ${snapshot.name}.`, `The server is back at ${snapshot.name}.`], {
      kind: 'rollback',
      issue: () => aboutSnapshot(() => client.snapshots.rollback(node, vmid, snapshot.name)),
      startsTask: { type: 'qmrollback', id: vmid },
    });
    if (restartAfter) {
      await saidCall(deps, guest, 'starting the server', ['Powering the server on again.', 'The server is powered on.'], powerOn(client, node, vmid));
    }
  };
}
