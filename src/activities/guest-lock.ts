import { listedRunning, type ProxmoxClient } from '../proxmox';
import { delay } from '../proxmox/delay';
import { cancellationSignal, heartbeat, heartbeatOfThisActivity } from './context';
import type { ActivityDeps } from './deps';
import { fail, FailureType } from './failures';
import { guestAt, type GuestAtVmid } from './ownership';

export interface CloneSite {
  /** Where the clone runs: the template's node (its Proxmox task is listed there, under the template's VMID). */
  node: string;
  templateVmid: number;
  /** The guest the clone creates. */
  vmid: number;
}

/**
 * Could a clone still be creating the site's guest? Proxmox lists a clone under its template's
 * VMID, so every clone of the template looks alike; those whose UPIDs our other instances
 * recorded are theirs, and only an unexplained one may be this guest's.
 */
async function cloneMayBeRunning(deps: ActivityDeps, client: ProxmoxClient, site: CloneSite): Promise<boolean> {
  const listed = await client.tasks.list(site.node, { typefilter: 'qmclone', vmid: site.templateVmid, source: 'active' });
  // The list also shows clones that ended a moment ago: only running ones can hold the lock.
  const running = listed.filter(listedRunning);
  if (running.length === 0) return false;
  const theirs = await deps.db.providerCall.count({ where: { upid: { in: running.map((t) => t.upid) }, vmid: { not: site.vmid } } });
  return running.length > theirs;
}

/**
 * The guest at the site's VMID once no clone is still creating it (undefined when there is
 * none). It waits on the guest's own `clone` lock, never on another guest's Proxmox task, heartbeating
 * and stopping when the activity is cancelled. A lock that no running clone can explain is
 * stale on a second look: an API token cannot clear it, so an operator must (`qm unlock`).
 */
export async function guestAfterClone(deps: ActivityDeps, client: ProxmoxClient, site: CloneSite): Promise<GuestAtVmid | undefined> {
  for (;;) {
    const listed = (await client.guests.list()).find((r) => r.vmid === site.vmid);
    // No guest is no clone either; a clone that begins after this look is as new as one after any other.
    if (!listed) return undefined;
    if (listed.lock !== 'clone') return guestAt(client, site.vmid);
    if (!(await cloneMayBeRunning(deps, client, site))) {
      // The clone may have finished between the two reads: only a lock that is still there is stale.
      const again = await guestAt(client, site.vmid);
      if (again?.lock !== 'clone') return again;
      throw fail(FailureType.GuestLocked, `guest ${site.vmid} on ${again.node} keeps a stale 'clone' lock; run 'qm unlock ${site.vmid}' on ${again.node}`, {
        vmid: site.vmid,
        node: again.node,
        lock: again.lock,
      });
    }
    heartbeat({ waitingFor: `the clone creating guest ${site.vmid}` });
    await delay(deps.config.TASK_POLL_INTERVAL_MS, cancellationSignal());
  }
}

/** Waits for the Proxmox tasks running on our own guest (a start, a migration), heartbeating and cancellable. */
export async function waitForProxmoxTasksOnGuest(deps: ActivityDeps, client: ProxmoxClient, node: string, vmid: number): Promise<void> {
  const beat = heartbeatOfThisActivity();
  const running = (await client.tasks.list(node, { vmid, source: 'active' })).filter(listedRunning);
  for (const proxmoxTask of running) {
    await client.tasks.wait(proxmoxTask.upid, {
      signal: cancellationSignal(),
      pollIntervalMs: deps.config.TASK_POLL_INTERVAL_MS,
      resumed: true,
      onPoll: () => beat({ waitingFor: proxmoxTask.upid }),
    });
  }
}
