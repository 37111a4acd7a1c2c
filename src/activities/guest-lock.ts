import type { ClusterVmResource, ProxmoxClient } from '../proxmox';
import { fail, FailureType } from './failures';

export interface CloneSite {
  /** Where the clone runs: the template's node (its task is listed there, under the template's VMID). */
  node: string;
  templateVmid: number;
  /** The guest the clone creates. */
  vmid: number;
}

const findGuest = async (client: ProxmoxClient, vmid: number) => (await client.clusterResources()).find((r) => r.vmid === vmid);

/** Our clone tasks still running for this site: listed under the template's VMID, or the guest's. */
async function runningClones(client: ProxmoxClient, site: CloneSite) {
  const [byTemplate, byGuest] = await Promise.all([
    client.listTasks(site.node, { typefilter: 'qmclone', vmid: site.templateVmid, source: 'active' }),
    client.listTasks(site.node, { vmid: site.vmid, source: 'active' }),
  ]);
  return [...byTemplate, ...byGuest];
}

/**
 * The guest at the site's VMID once no clone of ours is still creating it (undefined when there
 * is none). A `clone` lock that no running task explains, on a second look, is stale: an API
 * token cannot clear it, so an operator must (`qm unlock`).
 */
export async function guestAfterClone(client: ProxmoxClient, site: CloneSite): Promise<ClusterVmResource | undefined> {
  for (;;) {
    const guest = await findGuest(client, site.vmid);
    const running = await runningClones(client, site);
    if (running.length === 0) {
      if (guest?.lock !== 'clone') return guest;
      // The clone may have finished between the two reads: only a lock that is still there is stale.
      const again = await findGuest(client, site.vmid);
      if (again?.lock !== 'clone') return again;
      throw fail(FailureType.GuestLocked, `guest ${site.vmid} on ${again.node} keeps a stale 'clone' lock; run 'qm unlock ${site.vmid}' on ${again.node}`, {
        vmid: site.vmid,
        node: again.node,
        lock: again.lock,
      });
    }
    for (const task of running) await client.waitForTask(task.upid);
  }
}
