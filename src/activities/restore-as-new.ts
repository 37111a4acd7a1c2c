import { guestDescription } from '../domain/ownership';
import { beginCreatingGuest } from './clone';
import { loadInstance, placement, type InstanceRef } from './context';
import type { ActivityDeps } from './deps';
import { fail, FailureType } from './failures';
import { writeConfig } from './guest-calls';
import { guestAt } from './ownership';
import { runProviderCall } from './provider-call';
import { say, stepLine } from './steps';

/**
 * The instance a guest restored for `instance` may still be marked with: the archive carries its
 * original server's name and ownership marker until the restore marks the guest as ours. Only our
 * restore puts that marker at our reserved VMID (the original lives at its own), so a guest there
 * carrying it is ours too.
 */
export async function restoredFromOwner(deps: ActivityDeps, instance: { restoredFromBackupId: string | null }): Promise<string | null> {
  if (!instance.restoredFromBackupId) return null;
  const backup = await deps.db.backup.findUnique({ where: { id: instance.restoredFromBackupId }, select: { instanceId: true } });
  return backup?.instanceId ?? null;
}

/**
 * clone, for a restore-as-new (a create from a backup): Proxmox restores the backup's
 * archive to our reserved VMID on the host holding it (stopped; new MAC addresses and ids:
 * `unique`), then the guest is named after the customer's hostname and marked as ours. The later
 * stages give it its size, our identity, its own network and credentials as for any provision.
 * Converges on retry: a recorded UPID is polled again; a guest at our VMID carrying our marker or
 * its original's counts as restored; the mark is a config write that is done once applied.
 */
export function createRestoreAsNewActivity(deps: ActivityDeps) {
  return async function restoreAsNew({ instanceId, taskId }: InstanceRef): Promise<void> {
    const instance = await loadInstance(deps.db, instanceId);
    const backup = instance.restoredFromBackupId ? await deps.db.backup.findUnique({ where: { id: instance.restoredFromBackupId } }) : null;
    const archive = backup?.volid;
    if (!backup || !archive) throw fail(FailureType.InconsistentState, `instance ${instanceId} names no backup with an archive to restore`);
    await beginCreatingGuest(deps, instance, taskId);
    await say(deps, taskId, 'clone', 'restoring the backup', 'processing', "Creating the server's disk from the backup.");
    const client = deps.proxmox(instance.connection);
    const { node, vmid } = placement(instance);
    const callKey = { instanceId, taskId, phase: 'clone', node, vmid };
    await runProviderCall(deps, client, {
      ...callKey,
      kind: 'restore',
      isDone: async () => {
        const guest = await guestAt(client, vmid);
        if (!guest) return false;
        // Proxmox locks a guest `create` while it restores it: the restore whose answer was lost is still writing.
        if (guest.lock === 'create') throw new Error(`a restore is still creating guest ${vmid}`);
        if (guest.owner !== null && (guest.owner === instanceId || guest.owner === backup.instanceId)) return true;
        throw fail(FailureType.GuestConflict, `VMID ${vmid} holds a guest we did not create (${guest.name ?? 'unnamed'} on ${guest.node})`, { vmid, node: guest.node });
      },
      // Without `force`: Proxmox refuses to restore over a guest that is already there.
      issue: () => client.backups.restore(node, vmid, { archive, storage: instance.connection.storage, unique: true, start: false }),
      startsTask: { type: 'qmrestore', id: vmid },
      reportsDone: stepLine(taskId, 'clone', 'restoring the backup', 'success', "The server's disk is restored from the backup."),
    });
    await runProviderCall(deps, client, {
      ...callKey,
      ...writeConfig(client, node, vmid, 'restore-mark', { name: instance.hostname, description: guestDescription(instanceId) }),
    });
  };
}
