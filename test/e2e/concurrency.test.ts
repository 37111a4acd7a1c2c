import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guestsOf, startStack, type Stack } from '../support/stack';

const COUNT = 100;

describe(`${COUNT} concurrent creates`, () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      // The worker starts once the burst has been answered (see below).
      worker: false,
      // The production stage budgets: on a busy 2-core machine a hundred provisions queue for
      // activity slots, and schedule-to-close budgets count that wait.
      env: { STAGE_TIMEOUT_SCALE: '1' },
    });
    // The demo nodes allow 32 vCPUs each, 96 in all: one short of a hundred 1-vCPU servers, and
    // the smallest plan cannot go below one vCPU. There is no admin route that changes a node's
    // capacity, so the test raises it in the database, as an operator would after adding cores;
    // the demo catalog (templates per node, address pools) stays as seeded. Memory (64 × 1 GiB
    // per node) and disk (100 × 10 GiB per node) already fit.
    await stack.api.db.node.updateMany({ where: { connectionId: stack.seed.connectionId }, data: { vcpus: 64 } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it(
    `takes ${COUNT} simultaneous requests to ${COUNT} running servers without using a VMID or an address twice`,
    async () => {
      const { api, sim } = stack;
      const answers = await Promise.all(Array.from({ length: COUNT }, (_, i) => stack.create({ hostname: `burst-${i}` })));
      const refused = answers.filter((a) => a.status !== 202);
      expect(refused.map((a) => JSON.stringify(a.body))).toEqual([]);
      const ids = answers.map((a) => a.body.data.id as string);
      expect(new Set(ids).size).toBe(COUNT);
      // Every accepted create holds its own VMID and addresses from the moment it is answered.
      const reserved = await api.db.instance.findMany({ where: { id: { in: ids } }, include: { addresses: true } });
      expect(new Set(reserved.map((r) => r.vmid)).size).toBe(COUNT);
      expect(new Set(reserved.flatMap((r) => r.addresses.map((a) => a.address))).size).toBe(2 * COUNT);

      // Now a hundred provisions run at once. The worker starts only after the burst because on
      // two cores a hundred creates (all of one user, so they count their rate limit one after
      // the other) and a hundred provisions starve each other of the CPU.
      await stack.startWorker();

      // Poll the database, not the API: a hundred pollers would compete with the work itself.
      const deadline = Date.now() + 200_000;
      let counts: Record<string, number> = {};
      while (Date.now() < deadline) {
        const groups = await api.db.instance.groupBy({ by: ['status'], where: { id: { in: ids } }, _count: { _all: true } });
        counts = Object.fromEntries(groups.map((g) => [g.status, g._count._all]));
        const settled = (counts.running ?? 0) + (counts.failed ?? 0) + (counts.rollback_failed ?? 0);
        if (settled === COUNT) break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(counts).toEqual({ running: COUNT });

      const rows = await api.db.instance.findMany({ where: { id: { in: ids } }, include: { addresses: true, vmidReservation: true, allocation: true } });
      const vmids = rows.map((r) => r.vmid);
      expect(vmids.every((v) => typeof v === 'number')).toBe(true);
      expect(new Set(vmids).size).toBe(COUNT);
      expect(rows.every((r) => r.vmidReservation?.vmid === r.vmid && r.vmidReservation.state === 'assigned')).toBe(true);
      const v4 = rows.map((r) => r.addresses.find((a) => a.family === 4)?.address);
      const v6 = rows.map((r) => r.addresses.find((a) => a.family === 6)?.address);
      expect(v4.every(Boolean) && v6.every(Boolean)).toBe(true);
      expect(new Set(v4).size).toBe(COUNT);
      expect(new Set(v6).size).toBe(COUNT);
      expect(rows.every((r) => r.addresses.every((a) => a.state === 'assigned'))).toBe(true);
      expect(rows.every((r) => r.allocation?.state === 'allocated')).toBe(true);
      // No slot of any kind is held twice across the whole database either.
      const vmidRows = await api.db.vmidReservation.findMany({ where: { state: { not: 'free' } } });
      expect(new Set(vmidRows.map((r) => r.vmid)).size).toBe(vmidRows.length);
      const addressRows = await api.db.ipAddress.findMany({ where: { state: { not: 'free' } } });
      expect(new Set(addressRows.map((r) => r.address)).size).toBe(addressRows.length);

      // The scheduler kept every node within its capacity.
      const perNode = await api.db.nodeAllocation.groupBy({ by: ['nodeId'], where: { state: { not: 'released' } }, _sum: { vcpus: true, memoryMiB: true, diskGiB: true } });
      const nodes = await api.db.node.findMany({ where: { connectionId: stack.seed.connectionId } });
      for (const used of perNode) {
        const node = nodes.find((n) => n.id === used.nodeId);
        expect(used._sum.vcpus ?? 0).toBeLessThanOrEqual(node?.vcpus ?? 0);
        expect(used._sum.memoryMiB ?? 0).toBeLessThanOrEqual(node?.memoryMiB ?? 0);
        expect(used._sum.diskGiB ?? 0).toBeLessThanOrEqual(node?.diskGiB ?? 0);
      }

      // The provider agrees: a hundred guests of ours, each on the VMID and node we recorded.
      const { guests } = await sim.state();
      const ours = ids.flatMap((id) => guestsOf({ guests }, id));
      expect(ours).toHaveLength(COUNT);
      expect(new Set(ours.map((g) => g.vmid)).size).toBe(COUNT);
      for (const row of rows) {
        const guest = ours.find((g) => g.vmid === row.vmid);
        expect(guest?.name).toBe(row.hostname);
        expect(guest?.node).toBe(row.node);
        expect(guest?.status).toBe('running');
        expect(String(guest?.config.ipconfig0)).toContain(`ip=${row.addresses.find((a) => a.family === 4)?.address}/24`);
      }
      // Nothing else was created: no guest outside the templates and ours.
      const templates = guests.filter((g) => g.vmid >= 9000 && g.vmid <= 9999);
      expect(guests.length).toBe(templates.length + COUNT);
    },
    240_000,
  );
});
