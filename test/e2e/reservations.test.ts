import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_NODES } from '../../src/db/seed';
import { operate, runningServer } from '../support/lifecycle';
import { startStack, type Stack } from '../support/stack';

const BURST = 40;

/** `BURST` creates at once; answers the accepted ones (202) and the refusals by status, code and resource. */
async function burst(stack: Stack, prefix: string, body: { locationId?: string } = {}) {
  const answers = await Promise.all(Array.from({ length: BURST }, (_, i) => stack.createAnswer({ hostname: `${prefix}-${i}`, ...body })));
  const accepted = answers.flatMap((a) => (a.response.status === 202 && a.data ? [a.data.data] : []));
  const refusals = answers.filter((a) => a.response.status !== 202).map((a) => `${a.response.status} ${a.error?.error.code} ${String(a.error?.error.details?.resource)}`);
  return { accepted, refusals };
}

/** Only the accepted servers hold anything: no instance, task, volume, VMID, address or capacity is left from a refused create. */
async function expectHeldOnlyBy(stack: Stack, ids: string[]) {
  const { db } = stack.api;
  const held = { instances: { id: { notIn: ids } } };
  expect(await db.instance.count({ where: held.instances })).toBe(0);
  expect(await db.task.count({ where: { instanceId: { notIn: ids } } })).toBe(0);
  expect(await db.volume.count({ where: { instanceId: { notIn: ids } } })).toBe(0);
  expect(await db.vmidReservation.count({ where: { state: { not: 'free' } } })).toBe(ids.length);
  expect(await db.vmidReservation.count({ where: { state: { not: 'free' }, instanceId: { notIn: ids } } })).toBe(0);
  expect(await db.ipAddress.count({ where: { state: { not: 'free' }, instanceId: { notIn: ids } } })).toBe(0);
  expect(await db.nodeAllocation.count({ where: { state: { not: 'released' } } })).toBe(ids.length);
}

describe(`${BURST} simultaneous creates against exactly 10 of something`, () => {
  let stack: Stack;
  beforeEach(async () => {
    // A database of its own for each case: every count below starts from nothing.
    stack = await startStack({ worker: false });
  });
  afterEach(async () => {
    await stack?.close();
  });

  it('10 free addresses: 10 servers, each with its own address; the rest refused for IPv4, nothing half-reserved', async () => {
    const admin = stack.api.client(stack.api.adminToken);
    // A /28 has 14 host addresses; one is the gateway and three go to servers made first.
    const pool = await admin.POST('/v1/admin/ip-pools', { body: { cidr: '203.0.113.0/28', gateway: '203.0.113.1', bridge: 'vmbr0', dns: ['1.1.1.1'], family: 4 } });
    const location = await admin.POST('/v1/admin/locations', { body: { name: 'ten-addresses', connectionId: stack.seed.connectionId, ipPools: [pool.data?.data.id ?? ''] } });
    const locationId = location.data?.data.id ?? '';
    const first = [];
    for (let i = 0; i < 3; i++) first.push((await stack.create({ hostname: `first-${i}`, locationId })).body.data);

    const { accepted, refusals } = await burst(stack, 'addr', { locationId });

    expect(accepted).toHaveLength(10);
    expect(refusals).toEqual(Array.from({ length: BURST - 10 }, () => '503 CAPACITY_UNAVAILABLE ipv4'));
    const addresses = [...first, ...accepted].map((server) => server.ipv4);
    expect(new Set(addresses).size).toBe(13);
    expect(addresses.every((address) => /^203\.0\.113\.([2-9]|1[0-4])$/.test(address ?? ''))).toBe(true);
    await expectHeldOnlyBy(stack, [...first, ...accepted].map((server) => server.id));
    // The pool never grew past its last host address.
    expect(await stack.api.db.ipAddress.count({ where: { poolId: pool.data?.data.id } })).toBe(13);
  });

  it('a VMID range of 10: 10 servers on 10 distinct VMIDs of the range; the rest refused for the VMID, nothing half-reserved', async () => {
    // There is no admin route that narrows a connection's VMID range; the test sets it in the
    // database before the first create, as the range an operator gave the control plane.
    const range = { vmidStart: 4000, vmidEnd: 4009 };
    await stack.api.db.proxmoxConnection.update({ where: { id: stack.seed.connectionId }, data: range });

    const { accepted, refusals } = await burst(stack, 'vmid');

    expect(accepted).toHaveLength(10);
    expect(refusals).toEqual(Array.from({ length: BURST - 10 }, () => '503 CAPACITY_UNAVAILABLE vmid'));
    const rows = await stack.api.db.instance.findMany({ where: { id: { in: accepted.map((s) => s.id) } } });
    expect(rows.map((r) => r.vmid).sort()).toEqual(Array.from({ length: 10 }, (_, i) => range.vmidStart + i));
    await expectHeldOnlyBy(stack, accepted.map((server) => server.id));
    // The range never grew past its end.
    expect(await stack.api.db.vmidReservation.count()).toBe(10);
  });

  it('room for 10 servers on the nodes: 10 servers, no node over its capacity; the rest refused for node capacity, nothing half-reserved', async () => {
    const admin = stack.api.client(stack.api.adminToken);
    const vcpus = { pve1: 3, pve2: 3, pve3: 4 } as const;
    for (const node of DEMO_NODES) {
      const { response } = await admin.PATCH('/v1/admin/connections/{id}/nodes/{node}', { params: { path: { id: stack.seed.connectionId, node } }, body: { vcpus: vcpus[node] } });
      expect(response.status).toBe(200);
    }

    const { accepted, refusals } = await burst(stack, 'node');

    expect(accepted).toHaveLength(10);
    expect(refusals).toEqual(Array.from({ length: BURST - 10 }, () => '503 CAPACITY_UNAVAILABLE node_capacity'));
    const perNode = await stack.api.db.nodeAllocation.groupBy({ by: ['nodeId'], where: { state: { not: 'released' } }, _sum: { vcpus: true } });
    const nodes = await stack.api.db.node.findMany({ where: { connectionId: stack.seed.connectionId } });
    expect(Object.fromEntries(nodes.map((n) => [n.name, perNode.find((p) => p.nodeId === n.id)?._sum.vcpus ?? 0]))).toEqual(vcpus);
    const rows = await stack.api.db.instance.findMany({ where: { id: { in: accepted.map((s) => s.id) } }, include: { allocation: { include: { node: true } } } });
    expect(rows.every((r) => r.allocation?.node.name === r.node)).toBe(true);
    await expectHeldOnlyBy(stack, accepted.map((server) => server.id));
  });
});

describe('reuse cooldown', () => {
  const cooldown = { VMID_REUSE_COOLDOWN_SECONDS: 600, ADDRESS_REUSE_COOLDOWN_SECONDS: 3600 };
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ env: { VMID_REUSE_COOLDOWN_SECONDS: String(cooldown.VMID_REUSE_COOLDOWN_SECONDS), ADDRESS_REUSE_COOLDOWN_SECONDS: String(cooldown.ADDRESS_REUSE_COOLDOWN_SECONDS) } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('hands out a deleted server’s VMID and addresses again only after their cooldowns', async () => {
    const { db } = stack.api;
    const firstId = await runningServer(stack, { hostname: 'first' });
    const first = await db.instance.findUniqueOrThrow({ where: { id: firstId }, include: { addresses: true } });
    const firstAddresses = first.addresses.map((a) => a.address).sort();
    expect((await operate(stack, firstId, 'delete')).status).toBe(202);
    await stack.waitForStatus(firstId, ['deleted']);
    const released = await db.vmidReservation.findFirstOrThrow({ where: { vmid: first.vmid ?? -1 } });
    expect(released).toMatchObject({ state: 'free', instanceId: null });
    expect(released.releasedAt).not.toBeNull();

    // Within the cooldown the lowest free VMID and addresses are the deleted server's, yet the next server gets others.
    const second = (await stack.create({ hostname: 'second' })).body.data;
    const secondRow = await db.instance.findUniqueOrThrow({ where: { id: second.id }, include: { addresses: true } });
    expect(secondRow.vmid).not.toBe(first.vmid);
    for (const address of secondRow.addresses) expect(firstAddresses).not.toContain(address.address);

    // Past the VMID cooldown (moved into the past in the database rather than waited for), the VMID comes back, the addresses not yet.
    const past = (seconds: number) => new Date(Date.now() - (seconds + 1) * 1000);
    await db.vmidReservation.updateMany({ where: { vmid: first.vmid ?? -1 }, data: { releasedAt: past(cooldown.VMID_REUSE_COOLDOWN_SECONDS) } });
    await db.ipAddress.updateMany({ where: { address: { in: firstAddresses } }, data: { releasedAt: past(cooldown.VMID_REUSE_COOLDOWN_SECONDS) } });
    const third = (await stack.create({ hostname: 'third' })).body.data;
    const thirdRow = await db.instance.findUniqueOrThrow({ where: { id: third.id }, include: { addresses: true } });
    expect(thirdRow.vmid).toBe(first.vmid);
    for (const address of thirdRow.addresses) expect(firstAddresses).not.toContain(address.address);

    // Past the address cooldown too, the addresses come back.
    await db.ipAddress.updateMany({ where: { address: { in: firstAddresses } }, data: { releasedAt: past(cooldown.ADDRESS_REUSE_COOLDOWN_SECONDS) } });
    const fourth = (await stack.create({ hostname: 'fourth' })).body.data;
    const fourthRow = await db.instance.findUniqueOrThrow({ where: { id: fourth.id }, include: { addresses: true } });
    expect(fourthRow.addresses.map((a) => a.address).sort()).toEqual(firstAddresses);
  });
});
