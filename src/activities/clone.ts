import { guestName } from '../domain/provisioning';
import type { ProxmoxClient } from '../proxmox';
import { loadInstance, placement, type InstanceRef } from './context';
import type { ActivityDeps } from './deps';
import { fail, FailureType } from './failures';
import { runProviderStep } from './provider-step';
import { say } from './steps';

/**
 * Finds our guest at the reserved VMID. A guest carrying our name is adopted (waiting for a
 * clone still running); anything else at that VMID is someone else's and stops the stage.
 */
async function adoptGuest(client: ProxmoxClient, node: string, vmid: number, name: string, templateVmid: number): Promise<boolean> {
  const guest = (await client.clusterResources()).find((resource) => resource.vmid === vmid);
  if (!guest) {
    // Nothing there yet; a clone of ours may still be starting: wait for any we have running.
    const running = await client.listTasks(node, { typefilter: 'qmclone', vmid: templateVmid, source: 'active' });
    for (const task of running) await client.waitForTask(task.upid);
    if (running.length === 0) return false;
    return adoptGuest(client, node, vmid, name, templateVmid);
  }
  if (guest.name !== name) {
    throw fail(FailureType.GuestConflict, `VMID ${vmid} is taken by a guest we did not create (${guest.name ?? 'unnamed'})`, { vmid, node: guest.node });
  }
  if (guest.lock === 'clone') {
    const running = await client.listTasks(node, { typefilter: 'qmclone', vmid: templateVmid, source: 'active' });
    if (running.length === 0) {
      throw fail(FailureType.GuestLocked, `guest ${vmid} keeps a stale 'clone' lock; an operator must run 'qm unlock ${vmid}'`, { vmid, node });
    }
    for (const task of running) await client.waitForTask(task.upid);
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
    await runProviderStep(deps, client, {
      instanceId,
      taskId,
      stage: 'clone',
      kind: 'clone',
      node,
      vmid,
      isDone: () => adoptGuest(client, node, vmid, name, template.templateVmid),
      issue: async () => {
        // Proxmox's own word that the VMID is free; our database owns the range, this only asserts it.
        if (!(await client.isVmidFree(vmid))) {
          if (await adoptGuest(client, node, vmid, name, template.templateVmid)) return null;
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
