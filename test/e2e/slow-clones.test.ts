import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFullyReleased } from '../support/reservations';
import { FAST_ENV, guestsOf, startStack, type Stack } from '../support/stack';

/**
 * A slow, busy node: every Proxmox task takes 60 s at the tests' 1/20 time scale (budgets are
 * scaled by STAGE_TIMEOUT_SCALE=0.05, so a 3 s task outlasts a stage's 1.5 s heartbeat timeout).
 */
const SCALE = Number(FAST_ENV.STAGE_TIMEOUT_SCALE);
const TASK_MS = 60_000 * SCALE;
const CLONE_CALL = 'POST /nodes/{node}/qemu/{vmid}/clone';
const COUNT = 8;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ taskMs: TASK_MS });
  // Every create lands on pve1, from the same template.
  await stack.api.db.node.updateMany({ where: { name: { not: 'pve1' } }, data: { enabled: false } });
});
afterAll(async () => {
  await stack?.close();
});

describe('concurrent clones of one template on one node', () => {
  it("each provision waits only for its own clone: a neighbour's failed clone and a delete mid-clone affect nobody else", async () => {
    // The first clone task to start fails.
    await stack.sim.fault({ op: 'clone', mode: 'task_fail', message: 'clone failed: storage got full' });
    const answers = await Promise.all(Array.from({ length: COUNT }, (_, i) => stack.create({ hostname: `busy-${i}` })));
    expect(answers.map((a) => a.status)).toEqual(Array(COUNT).fill(202));
    const ids = answers.map((a) => a.body.data.id as string);

    // Once every clone is under way, delete one whose clone is not the failing one.
    const db = stack.api.db;
    await expect.poll(() => db.providerCall.count({ where: { instanceId: { in: ids }, kind: 'clone', status: 'running' } }), { timeout: 60_000, interval: 50 }).toBe(COUNT);
    const firstClone = (await stack.sim.state()).tasks.find((t) => t.type === 'qmclone' && t.upid.includes(':qmclone:9000:'));
    const cloning = await db.providerCall.findMany({ where: { instanceId: { in: ids }, kind: 'clone' } });
    const doomed = cloning.find((call) => call.upid === firstClone?.upid)?.instanceId;
    const deleted = cloning.find((call) => call.upid !== firstClone?.upid)!.instanceId;
    expect(doomed).toBeDefined();
    expect((await stack.api.request('DELETE', `/v1/instances/${deleted}`, { token: stack.customer.token })).status).toBe(202);

    const ended = await Promise.all(ids.map((id) => stack.waitForStatus(id, ['running', 'failed', 'deleted', 'rollback_failed'], 110_000)));
    const statusOf = Object.fromEntries(ids.map((id, i) => [id, ended[i]?.status]));
    expect(statusOf[doomed!]).toBe('failed');
    expect(statusOf[deleted]).toBe('deleted');
    expect(Object.values(statusOf).filter((s) => s === 'running')).toHaveLength(COUNT - 2);
    expect(Object.values(statusOf)).not.toContain('rollback_failed');

    const state = await stack.sim.state();
    expect(state.calls[CLONE_CALL]).toBe(COUNT);
    for (const id of ids) expect(guestsOf(state, id)).toHaveLength(statusOf[id] === 'running' ? 1 : 0);
    await expectFullyReleased(db, doomed!);
    const failed = (await stack.api.request('GET', `/v1/admin/instances/${doomed}`, { token: stack.api.adminToken })).body.data;
    expect(failed.failureCause).toMatchObject({ stage: 'clone' });
  }, 120_000);
});
