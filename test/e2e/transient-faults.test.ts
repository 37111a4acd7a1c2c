import { describe, expect, it } from 'vitest';
import { progressQuery } from '../../src/workflows/definitions';
import { callCount, guestOf, Q, suiteStack } from '../support/lifecycle';
import { expectFullyReleased } from '../support/reservations';
import type { Stack } from '../support/stack';

const STATUS_READ = `GET ${Q}/status/current`;
const CONFIG_WRITE = `POST ${Q}/config`;
const LOCK_TIMEOUT = "can't lock file '/var/lock/qemu-server/lock-100.conf' - got timeout";

/** The simulator's faults not used up yet. */
async function pendingFaults(stack: Stack): Promise<unknown[]> {
  return ((await (await fetch(`${stack.sim.url}/_sim/faults`)).json()) as { faults: unknown[] }).faults;
}

async function provision(stack: Stack, hostname: string) {
  const created = await stack.create({ hostname });
  expect(created.status).toBe(202);
  const id = created.body.data.id as string;
  return { id, ended: await stack.waitForStatus(id, ['running', 'failed', 'rollback_failed'], 60_000) };
}

describe('provider failures that change nothing are retried; refusals are final', () => {
  const stack = suiteStack({}, (started) => started.sim.clearFaults());

  it('reaches running through three 500s on the guest status read', async () => {
    await stack.sim.fault({ op: 'status', call: STATUS_READ, mode: 'http500', count: 3 });
    const { ended } = await provision(stack, 'status-blips');
    expect(ended).toMatchObject({ status: 'running', failure: null, task: { status: 'succeeded' } });
    expect(await pendingFaults(stack)).toEqual([]);
  });

  it.each([
    ['a config lock timeout', { mode: 'http500', message: LOCK_TIMEOUT }],
    ['a guest locked by a backup', { mode: 'http500', message: 'VM 100 is locked (backup)' }],
    ['a config task ended by a lock timeout', { mode: 'task_fail', message: LOCK_TIMEOUT }],
  ])('retries a config write refused by %s, and reaches running', async (_what, refusal) => {
    await stack.sim.fault({ op: 'config', ...refusal });
    const { id, ended } = await provision(stack, 'lock-contention');
    expect(ended).toMatchObject({ status: 'running', failure: null });
    expect(await pendingFaults(stack)).toEqual([]);
    // The refused write was made again: the plan's sizing is on the guest.
    expect(String((await guestOf(stack, id))?.config.memory)).toBe('1024');
  });

  it('fails at once, without a second try, when a config write is refused for another reason', async () => {
    const writes = await callCount(stack, CONFIG_WRITE);
    await stack.sim.fault({ op: 'config', mode: 'http500', message: "invalid parameter 'memory': value out of range" });
    const { id, ended } = await provision(stack, 'refused-write');
    expect(ended).toMatchObject({ status: 'failed', failure: { code: 'PROVISIONING_FAILED' } });
    expect(await callCount(stack, CONFIG_WRITE)).toBe(writes + 1);
    const admin = await stack.api.request('GET', `/v1/admin/instances/${id}`, { token: stack.api.adminToken });
    expect(admin.body.data.failureCause).toMatchObject({ stage: 'configure', type: 'PROVIDER_REJECTED' });
    expect(await guestOf(stack, id)).toBeUndefined();
  });

  it('completes a rollback whose confirming reads fail for a while, without parking', async () => {
    // The start fails, so the provision rolls back; its answer is held until the read faults are in place.
    await stack.sim.fault({ op: 'start', mode: 'task_fail', delayMs: 1500 });
    const created = await stack.create({ hostname: 'shaky-rollback' });
    const id = created.body.data.id as string;
    await expect.poll(() => stack.api.db.providerCall.count({ where: { instanceId: id, kind: 'start' } }), { timeout: 20_000 }).toBe(1);
    // The removal's first look finds the guest; the reads confirming its stop, and the next look, fail.
    await stack.sim.fault({ op: 'any', call: 'GET /cluster/resources', mode: 'http500', skip: 1, count: 2 });
    const ended = await stack.waitForStatus(id, ['failed', 'rollback_failed', 'running'], 60_000);
    expect(ended.status).toBe('failed');
    expect(await pendingFaults(stack)).toEqual([]);
    expect(await guestOf(stack, id)).toBeUndefined();
    await expectFullyReleased(stack.api.db, id);
    const progress = await stack.api.temporal.workflow.getHandle(`provision-${id}`).query(progressQuery);
    expect(progress.rollback).toMatchObject({ state: 'done', parkedTimes: 0 });
  });

  it('sends the guest the password it minted first when the cloud-init write is retried, and reveals that one', async () => {
    // The cloud-init write is done but its answer is lost; the retry writes again.
    await stack.sim.fault({ op: 'config', param: 'cipassword', mode: 'drop_after_accept' });
    const { id, ended } = await provision(stack, 'cloud-init-retried');
    expect(ended.status).toBe('running');
    expect(await pendingFaults(stack)).toEqual([]);
    const revealed = await stack.api.request('POST', `/v1/instances/${id}/credentials/reveal`, { token: stack.customer.token });
    expect(revealed.status).toBe(200);
    expect(revealed.body.data.password).toMatch(/^\S{24}$/);
    expect((await guestOf(stack, id))?.cipassword).toBe(revealed.body.data.password);
  });
});
