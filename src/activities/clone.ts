import { legacyGuestName as guestName } from '../domain/ownership';
import type { ProxmoxClient } from '../proxmox';
import { loadInstance, placement, type InstanceRef } from './context';
import type { ActivityDeps } from './deps';
import { fail, FailureType } from './failures';
import { guestAfterClone, type CloneSite } from './guest-lock';
import { runProviderStep } from './provider-step';
import { say } from './steps';

/**
 * Finds our guest at the reserved VMID, once any clone of ours creating it has finished. A guest
 * carrying our name is adopted; anything else at that VMID is someone else's and stops the stage.
 */
async function adoptGuest(client: ProxmoxClient, site: CloneSite, name: string): Promise<boolean> {
  const guest = await guestAfterClone(client, site);
  if (!guest) return false;
  if (guest.name !== name) {
    throw fail(FailureType.GuestConflict, `VMID ${site.vmid} is taken by a guest we did not create (${guest.name ?? 'unnamed'})`, { vmid: site.vmid, node: guest.node });
  }
  return true;
}

/**
 * clone: the image's template becomes our guest at the reserved VMID.
 * Converges on retry: a recorded UPID is polled again; a guest with our name is adopted; the clone is issued only when neither exists.
 */
export function createCloneActivity(deps: ActivityDeps) {
  return async function cloneGuest({ instanceId, taskId }: InstanceRef): Promise<void> {
    const instance = await loadInstance(deps.db, instanceId);
    const { node, vmid } = placement(instance);
    const template = instance.image.templates.find((t) => t.connectionId === instance.connectionId && t.node === node);
    if (!template || instance.templateVmid === null) {
      throw fail(FailureType.InconsistentState, `no template of image ${instance.imageId} on node ${node}`);
    }
    // A task the API gave up on (its workflow start seemed to fail) must not create a guest.
    const task = await deps.db.task.findUnique({ where: { id: taskId }, select: { status: true } });
    if (task?.status !== 'pending' && task?.status !== 'running') {
      throw fail(FailureType.InconsistentState, `task ${taskId} is ${task?.status ?? 'missing'}; no guest is created for it`);
    }
    await deps.db.instance.updateMany({ where: { id: instanceId, status: { in: ['pending', 'scheduling'] } }, data: { status: 'provisioning' } });
    await say(deps, taskId, 'clone', 'cloning the image', 'processing', `Creating the server's disk from ${instance.image.name}.`);
    const client = deps.proxmox(instance.connection);
    const name = guestName(instanceId);
    const site: CloneSite = { node, vmid, templateVmid: template.templateVmid };
    await runProviderStep(deps, client, {
      instanceId,
      taskId,
      stage: 'clone',
      kind: 'clone',
      node,
      vmid,
      isDone: () => adoptGuest(client, site, name),
      issue: async () => {
        // Proxmox's own word that the VMID is free; our database owns the range, this only asserts it.
        if (!(await client.isVmidFree(vmid))) {
          if (await adoptGuest(client, site, name)) return null;
          throw fail(FailureType.GuestConflict, `VMID ${vmid} is in use on the cluster`, { vmid, node });
        }
        return client.cloneVm(node, template.templateVmid, {
          newid: vmid,
          name,
          full: true,
          storage: instance.connection.storage,
          description: `Managed by pvecp. Instance ${instanceId}.`,
        });
      },
    });
    await say(deps, taskId, 'clone', 'cloning the image', 'success', "The server's disk is ready.");
  };
}
