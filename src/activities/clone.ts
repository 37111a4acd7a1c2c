import { provisioningStarted } from '../db/instance-state';
import { MAX_QUARANTINED_PER_INSTANCE, quarantineVmid, type Stranger } from '../db/ranges';
import { guestDescription } from '../domain/ownership';
import { isAlreadyExists, type ProxmoxClient } from '../proxmox';
import { heartbeat, loadInstance, placement, type InstanceRef } from './context';
import type { ActivityDeps } from './deps';
import { fail, FailureType } from './failures';
import { guestAfterClone, type CloneSite } from './guest-lock';
import { runProviderCall } from './provider-call';
import { say, stepLine } from './steps';

/** The image (its name) and its templates, one per connection and node. */
const WITH_TEMPLATES = { image: { include: { templates: true } } } as const;

/** Someone else's guest sits on the VMID the clone was about to use. */
class StrangerAtVmid extends Error {
  constructor(
    readonly vmid: number,
    readonly stranger: Stranger,
  ) {
    super(`VMID ${vmid} holds a guest we did not create (${stranger.name ?? 'unnamed'} on ${stranger.node})`);
  }
}

/** True when our guest is at the site's VMID (once any clone creating it has finished); a stranger there is reported. */
async function adoptGuest(deps: ActivityDeps, client: ProxmoxClient, site: CloneSite, instanceId: string): Promise<boolean> {
  const guest = await guestAfterClone(deps, client, site);
  if (!guest) return false;
  if (guest.owner !== instanceId) throw new StrangerAtVmid(site.vmid, { node: guest.node, name: guest.name ?? null });
  return true;
}

/** Before a guest is created for the task: the task must still be open, and a provision moves on from `scheduling`. */
export async function beginCreatingGuest(deps: ActivityDeps, instance: { id: string; status: string }, taskId: string): Promise<void> {
  // A task the API gave up on (its workflow start seemed to fail) must not create a guest.
  const task = await deps.db.task.findUnique({ where: { id: taskId }, select: { status: true } });
  if (task?.status !== 'pending' && task?.status !== 'running') {
    throw fail(FailureType.InconsistentState, `task ${taskId} is ${task?.status ?? 'missing'}; no guest is created for it`);
  }
  // A rebuild clones too: only a provision moves the instance on from `scheduling`.
  if (instance.status === 'pending' || instance.status === 'scheduling') await provisioningStarted(deps.db, instance.id);
}

/**
 * clone: the image's template becomes our guest at the reserved VMID, named after the customer's
 * hostname and marked as ours in its description. A VMID taken by someone else's guest is
 * quarantined and the next free one is used, up to a bound.
 * Converges on retry: a recorded UPID is polled again; a guest carrying our marker is adopted; the clone is issued only when neither exists.
 */
export function createCloneActivity(deps: ActivityDeps) {
  return async function cloneGuest({ instanceId, taskId }: InstanceRef): Promise<void> {
    let instance = await loadInstance(deps.db, instanceId, WITH_TEMPLATES);
    const template = instance.image.templates.find((t) => t.connectionId === instance.connectionId && t.node === instance.node);
    if (!template || instance.templateVmid === null) {
      throw fail(FailureType.InconsistentState, `no template of image ${instance.imageId} on node ${instance.node}`);
    }
    await beginCreatingGuest(deps, instance, taskId);
    await say(deps, taskId, 'clone', 'cloning the image', 'processing', `Creating the server's disk from ${instance.image.name}.`);
    const client = deps.proxmox(instance.connection);
    // An earlier attempt may have set aside the last VMID it was allowed: the provision cannot go on.
    if (instance.vmid === null && (await deps.db.vmidReservation.count({ where: { quarantinedFor: instanceId } })) >= MAX_QUARANTINED_PER_INSTANCE) {
      throw fail(FailureType.GuestConflict, `${MAX_QUARANTINED_PER_INSTANCE} VMIDs were set aside for this server, none was free`, {});
    }
    for (;;) {
      const { node, vmid } = placement(instance);
      const site: CloneSite = { node, vmid, templateVmid: template.templateVmid };
      try {
        await runProviderCall(deps, client, {
          instanceId,
          taskId,
          phase: 'clone',
          kind: 'clone',
          node,
          vmid,
          // Our guest is there (adopted), or the VMID must be free by Proxmox's own word; our
          // database owns the range, this only asserts it.
          isDone: async () => {
            if (await adoptGuest(deps, client, site, instanceId)) return true;
            // Taken, yet no guest listed: a clone just begun shows up on the next look.
            if (!(await client.cluster.isVmidFree(vmid))) throw new Error(`VMID ${vmid} is taken but no guest is listed there yet`);
            return false;
          },
          issue: async () => {
            try {
              return await client.guests.clone(node, template.templateVmid, {
                newid: vmid,
                name: instance.hostname,
                full: true,
                storage: instance.connection.storage,
                description: guestDescription(instanceId),
              });
            } catch (error) {
              // Someone (or an attempt of ours given up on) created a guest at this VMID since the check.
              if (isAlreadyExists(error) && (await adoptGuest(deps, client, site, instanceId))) return null;
              throw error;
            }
          },
          // No `startsTask`: Proxmox files a clone under the template's VMID, shared with every
          // clone of that image; a guest at our VMID (isDone) is the sure sign of ours.
          reportsDone: stepLine(taskId, 'clone', 'cloning the image', 'success', "The server's disk is ready."),
        });
        break;
      } catch (error) {
        if (!(error instanceof StrangerAtVmid)) throw error;
        instance = await moveToNextVmid(deps, instanceId, taskId, error);
      }
    }
  };
}

/** Quarantines the stranger's VMID and continues on the next free one; past the bound the stage fails. */
async function moveToNextVmid(deps: ActivityDeps, instanceId: string, taskId: string, found: StrangerAtVmid) {
  const next = await quarantineVmid(deps.db, instanceId, found.vmid, found.stranger, deps.config.VMID_REUSE_COOLDOWN_SECONDS).catch((error: unknown) => {
      throw fail(FailureType.GuestConflict, `no free VMID after ${found.message}: ${error instanceof Error ? error.message : String(error)}`, { vmid: found.vmid });
    });
  if (next === null) {
    throw fail(FailureType.GuestConflict, `${found.message}; ${MAX_QUARANTINED_PER_INSTANCE} VMIDs were set aside for this server, none was free`, {
      vmid: found.vmid,
      node: found.stranger.node,
    });
  }
  deps.logger.warn({ instanceId, taskId, vmid: found.vmid, strangerNode: found.stranger.node, next }, 'VMID quarantined: a guest we did not create holds it');
  heartbeat({ quarantined: found.vmid, next });
  return loadInstance(deps.db, instanceId, WITH_TEMPLATES);
}
