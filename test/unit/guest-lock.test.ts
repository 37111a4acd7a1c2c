import { describe, expect, it } from 'vitest';
import { guestAfterClone } from '../../src/activities/guest-lock';
import type { ProxmoxClient } from '../../src/proxmox';

const site = { node: 'pve1', vmid: 1000, templateVmid: 9000 };

/** A client whose answers follow a script, one entry per call. */
function scripted(resources: { lock?: string }[][], tasks: { upid: string }[][]) {
  const waited: string[] = [];
  let listCalls = 0;
  const client = {
    clusterResources: async () => (resources.shift() ?? []).map((r) => ({ id: 'qemu/1000', vmid: 1000, node: 'pve1', status: 'stopped', name: 'pvecp-inst-1', ...r })),
    // Two listings per look (by template, by guest): the script gives the first; the second is empty.
    listTasks: async () => (listCalls++ % 2 === 0 ? (tasks.shift() ?? []) : []),
    waitForTask: async (upid: string) => void waited.push(upid),
  } as unknown as ProxmoxClient;
  return { client, waited };
}

describe('waiting out a clone before touching its guest', () => {
  it('returns the guest as it is when no clone runs and no lock is held', async () => {
    const { client } = scripted([[{}]], [[]]);
    expect(await guestAfterClone(client, site)).toMatchObject({ vmid: 1000 });
  });

  it('returns nothing when there is no guest and no clone', async () => {
    const { client } = scripted([[]], [[]]);
    expect(await guestAfterClone(client, site)).toBeUndefined();
  });

  it('waits for a running clone, then looks again', async () => {
    const { client, waited } = scripted([[{ lock: 'clone' }], [{}]], [[{ upid: 'UPID:clone' }], []]);
    expect(await guestAfterClone(client, site)).toMatchObject({ vmid: 1000 });
    expect(waited).toEqual(['UPID:clone']);
  });

  it('does not call a lock stale when the clone finished between reading the guest and listing tasks', async () => {
    const { client } = scripted([[{ lock: 'clone' }], [{}]], [[]]);
    const guest = await guestAfterClone(client, site);
    expect(guest?.lock).toBeUndefined();
  });

  it('reports a clone lock that no task explains, twice in a row, as stale and names qm unlock', async () => {
    const { client } = scripted([[{ lock: 'clone' }], [{ lock: 'clone' }]], [[]]);
    await expect(guestAfterClone(client, site)).rejects.toMatchObject({ type: 'GUEST_LOCKED', message: expect.stringContaining('qm unlock 1000') });
  });
});
