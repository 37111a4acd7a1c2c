import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legacyGuestName } from '../../src/domain/ownership';
import { DEFAULT_SIM_TOKEN, parseToken } from '../../src/simulator/server';
import { expectFullyReleased } from '../support/reservations';
import { guestsOf, startStack, type Stack } from '../support/stack';

const CLONE_CALL = 'POST /nodes/{node}/qemu/{vmid}/clone';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

/** Calls the simulator's Proxmox API as a person with the cluster's token would (outside the control plane). */
async function proxmox(method: string, path: string, form: Record<string, string | number> = {}) {
  const { tokenId, secret } = parseToken(DEFAULT_SIM_TOKEN);
  const res = await fetch(`${stack.sim.url}/api2/json${path}`, {
    method,
    headers: { authorization: `PVEAPIToken=${tokenId}=${secret}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: method === 'GET' ? undefined : new URLSearchParams(Object.entries(form).map(([k, v]): [string, string] => [k, String(v)])).toString(),
  });
  expect(res.status, `${method} ${path}`).toBe(200);
  return ((await res.json()) as { data: unknown }).data;
}

/** A guest made by hand in the Proxmox UI, at a VMID of our range. */
async function strangerAt(vmid: number, name: string): Promise<void> {
  await proxmox('POST', '/nodes/pve1/qemu/9000/clone', { newid: vmid, name });
  await expect.poll(async () => (await stack.sim.state()).guests.find((g) => g.vmid === vmid)?.config.lock ?? 'none').toBe('none');
}

/** The VMIDs the database will hand out next, in order: free rows first, then past the highest. */
async function nextVmids(count: number): Promise<number[]> {
  const db = stack.api.db;
  const free = (await db.vmidReservation.findMany({ where: { state: 'free' }, orderBy: { vmid: 'asc' } })).map((r) => r.vmid);
  const top = (await db.vmidReservation.aggregate({ _max: { vmid: true } }))._max.vmid ?? 999;
  const beyond = Array.from({ length: count }, (_, i) => Math.max(1000, top + 1) + i);
  return [...free, ...beyond].slice(0, count);
}

const quarantined = async (query = '') =>
  (await stack.api.request('GET', `/v1/admin/quarantined-vmids${query}`, { token: stack.api.adminToken })).body.data as {
    id: string;
    vmid: number;
    strangerNode: string;
    strangerName: string;
    foundByInstanceId: string;
  }[];

describe('guests are named after the hostname and owned through a marker', () => {
  it("names the guest after the customer's hostname and marks it as ours in its description", async () => {
    const created = await stack.create({ hostname: 'named-1' });
    const id = created.body.data.id as string;
    await stack.waitForStatus(id, ['running']);
    const [guest] = guestsOf(await stack.sim.state(), id);
    expect(guest?.name).toBe('named-1');
    expect(String(guest?.config.description)).toContain(`pvecp:${id}`);
    expect(String(guest?.config.tags)).toContain('pvecp');
  });

  it('still recognises and removes a guest named the old way (pvecp-<instance id>, no marker)', async () => {
    const created = await stack.create({ hostname: 'legacy-1' });
    const id = created.body.data.id as string;
    await stack.waitForStatus(id, ['running']);
    const [guest] = guestsOf(await stack.sim.state(), id);
    // What an existing installation's guests look like.
    await proxmox('PUT', `/nodes/${guest!.node}/qemu/${guest!.vmid}/config`, { name: legacyGuestName(id), delete: 'description' });
    expect((await stack.sim.state()).guests.find((g) => g.vmid === guest!.vmid)?.config.description).toBeUndefined();

    expect((await stack.api.request('DELETE', `/v1/instances/${id}`, { token: stack.customer.token })).status).toBe(202);
    await stack.waitForStatus(id, ['deleted']);
    expect((await stack.sim.state()).guests.some((g) => g.vmid === guest!.vmid)).toBe(false);
  });
});

describe('VMIDs of our range taken by guests we did not create', () => {
  it('quarantines each one, provisions on the next free VMID, and never adopts or touches a stranger, even one named like our server', async () => {
    const [first, second, third, fourth] = await nextVmids(4);
    await strangerAt(first!, 'hand-made');
    await strangerAt(second!, 'web-42'); // the hostname the customer is about to ask for, without our marker
    await strangerAt(third!, 'lab-vm');
    const strangersBefore = (await stack.sim.state()).guests.filter((g) => [first, second, third].includes(g.vmid));
    const clonesBefore = (await stack.sim.state()).calls[CLONE_CALL] ?? 0;

    const created = await stack.create({ hostname: 'web-42' });
    const id = created.body.data.id as string;
    const running = await stack.waitForStatus(id, ['running', 'failed', 'rollback_failed'], 60_000);
    expect(running.status).toBe('running');

    const admin = (await stack.api.request('GET', `/v1/admin/instances/${id}`, { token: stack.api.adminToken })).body.data;
    expect(admin.provider.vmid).toBe(fourth);
    const [ours, ...more] = guestsOf(await stack.sim.state(), id);
    expect(more).toEqual([]);
    expect(ours).toMatchObject({ vmid: fourth, name: 'web-42' });
    // One clone call, at the fourth VMID: the strangers were read, never written.
    expect(((await stack.sim.state()).calls[CLONE_CALL] ?? 0) - clonesBefore).toBe(1);
    const strangersAfter = (await stack.sim.state()).guests.filter((g) => [first, second, third].includes(g.vmid));
    expect(strangersAfter).toEqual(strangersBefore);

    const listed = await quarantined();
    expect(listed.map((q) => q.vmid).sort()).toEqual([first, second, third]);
    expect(listed.find((q) => q.vmid === second)).toMatchObject({ strangerNode: 'pve1', strangerName: 'web-42', foundByInstanceId: id });
    // A quarantined VMID is out of circulation: nobody holds it, nobody gets it.
    const rows = await stack.api.db.vmidReservation.findMany({ where: { vmid: { in: [first!, second!, third!] } } });
    expect(rows.every((r) => r.state === 'quarantined' && r.instanceId === null)).toBe(true);
  });

  it('gives up after five strangers in a row: the provision fails cleanly and the strangers stay untouched', async () => {
    const vmids = await nextVmids(5);
    for (const [i, vmid] of vmids.entries()) await strangerAt(vmid, `stranger-${i}`);
    const strangersBefore = (await stack.sim.state()).guests.filter((g) => vmids.includes(g.vmid));

    const created = await stack.create({ hostname: 'unlucky-1' });
    const id = created.body.data.id as string;
    const failed = await stack.waitForStatus(id, ['running', 'failed', 'rollback_failed'], 60_000);
    expect(failed.status).toBe('failed');
    await expectFullyReleased(stack.api.db, id);
    expect(guestsOf(await stack.sim.state(), id)).toEqual([]);
    expect((await stack.sim.state()).guests.filter((g) => vmids.includes(g.vmid))).toEqual(strangersBefore);
    expect((await quarantined()).filter((q) => q.foundByInstanceId === id).map((q) => q.vmid).sort()).toEqual(vmids);
    const cause = (await stack.api.request('GET', `/v1/admin/instances/${id}`, { token: stack.api.adminToken })).body.data.failureCause;
    expect(JSON.stringify(cause)).toContain('set aside');
  });

  it('an admin returns a quarantined VMID to circulation once its stranger is gone', async () => {
    const [entry] = await quarantined();
    const owner = (await stack.sim.state()).guests.find((g) => g.vmid === entry!.vmid)!;
    await proxmox('DELETE', `/nodes/${owner.node}/qemu/${owner.vmid}`);
    await expect.poll(async () => (await stack.sim.state()).guests.some((g) => g.vmid === entry!.vmid)).toBe(false);

    const released = await stack.api.request('POST', `/v1/admin/quarantined-vmids/${entry!.id}/release`, { token: stack.api.adminToken });
    expect(released.status).toBe(200);
    expect((await quarantined()).some((q) => q.id === entry!.id)).toBe(false);
    expect((await stack.api.request('POST', `/v1/admin/quarantined-vmids/${entry!.id}/release`, { token: stack.api.adminToken })).status).toBe(404);
    expect((await nextVmids(1))[0]).toBe(entry!.vmid);

    const customer = await stack.api.request('GET', '/v1/admin/quarantined-vmids', { token: stack.customer.token });
    expect(customer.status).toBe(403);
  });
});
