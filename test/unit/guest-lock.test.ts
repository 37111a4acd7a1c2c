import { describe, expect, it } from 'vitest';
import type { ActivityDeps } from '../../src/activities/deps';
import { guestAfterClone } from '../../src/activities/guest-lock';
import type { ProxmoxClient } from '../../src/proxmox';

const site = { node: 'pve1', vmid: 1000, templateVmid: 9000 };
const OUR_MARKER = 'pvecp:inst_ours';

/**
 * A client whose cluster listing follows a script (one entry per read, the last one repeats) and
 * whose active clones of the template are `clones`; `recordedByOthers` are the UPIDs our other
 * instances recorded for their own clones.
 */
function scripted(resources: { lock?: string }[][], clones: string[], recordedByOthers: string[] = []) {
  const waitedOn: string[] = [];
  let reads = 0;
  const client = {
    guests: { list: async () => (resources[Math.min(reads++, resources.length - 1)] ?? []).map((r) => ({ id: 'qemu/1000', vmid: 1000, node: 'pve1', status: 'stopped', name: 'web-1', ...r })) },
    guestConfig: { get: async () => ({ name: 'web-1', description: OUR_MARKER }) },
    tasks: {
      list: async () => clones.map((upid) => ({ upid })),
      wait: async (upid: string) => void waitedOn.push(upid),
    },
  } as unknown as ProxmoxClient;
  const deps = {
    config: { TASK_POLL_INTERVAL_MS: 1 },
    db: { providerCall: { count: async () => clones.filter((upid) => recordedByOthers.includes(upid)).length } },
  } as unknown as ActivityDeps;
  return { client, deps, waitedOn, reads: () => reads };
}

describe('waiting out a clone before touching its guest', () => {
  it('returns the guest with its owner when no clone lock is held', async () => {
    const { client, deps } = scripted([[{}]], []);
    expect(await guestAfterClone(deps, client, site)).toMatchObject({ vmid: 1000, owner: 'inst_ours' });
  });

  it('returns nothing when the VMID holds no guest, after one look at the cluster', async () => {
    const { client, deps, reads } = scripted([[]], []);
    expect(await guestAfterClone(deps, client, site)).toBeUndefined();
    expect(reads()).toBe(1);
  });

  it("waits on the guest's own lock while an unexplained clone of the template runs, never on a task", async () => {
    const { client, deps, waitedOn, reads } = scripted([[{ lock: 'clone' }], [{ lock: 'clone' }], [{ lock: 'clone' }], [{}]], ['UPID:ours-or-a-stranger']);
    expect(await guestAfterClone(deps, client, site)).toMatchObject({ vmid: 1000, owner: 'inst_ours' });
    expect(waitedOn).toEqual([]);
    expect(reads()).toBeGreaterThanOrEqual(4);
  });

  it("does not wait for our other instances' clones of the same template: a lock only they could explain is stale", async () => {
    const { client, deps } = scripted([[{ lock: 'clone' }]], ['UPID:neighbour-1', 'UPID:neighbour-2'], ['UPID:neighbour-1', 'UPID:neighbour-2']);
    await expect(guestAfterClone(deps, client, site)).rejects.toMatchObject({ type: 'GUEST_LOCKED' });
  });

  it('does not call a lock stale when the clone finished between the two looks', async () => {
    const { client, deps } = scripted([[{ lock: 'clone' }], [{}]], []);
    expect((await guestAfterClone(deps, client, site))?.lock).toBeUndefined();
  });

  it('reports a clone lock that no clone explains, twice in a row, as stale and names qm unlock', async () => {
    const { client, deps } = scripted([[{ lock: 'clone' }]], []);
    await expect(guestAfterClone(deps, client, site)).rejects.toMatchObject({ type: 'GUEST_LOCKED', message: expect.stringContaining('qm unlock 1000') });
  });
});
