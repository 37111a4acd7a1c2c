import { describe, expect, it } from 'vitest';
import { OWNERSHIP_TAG } from '../../src/domain/ownership';
import { progressQuery } from '../../src/workflows/definitions';
import { callCount, guestOf, Q, suiteStack } from '../support/lifecycle';
import { expectFullyReleased } from '../support/reservations';
import type { Stack } from '../support/stack';

const STATUS_READ = `GET ${Q}/status/current`;
const CONFIG_WRITE = `POST ${Q}/config`;
const START = `POST ${Q}/status/start`;
const LOCK_TIMEOUT = "can't lock file '/var/lock/qemu-server/lock-100.conf' - got timeout";

/** The simulator's faults not used up yet. */
async function pendingFaults(stack: Stack): Promise<unknown[]> {
  return ((await (await fetch(`${stack.sim.url}/_sim/faults`)).json()) as { faults: unknown[] }).faults;
}

async function simOptions(stack: Stack, options: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${stack.sim.url}/_sim/options`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(options) });
  expect(res.ok).toBe(true);
}

async function provision(stack: Stack, hostname: string) {
  const created = await stack.create({ hostname });
  expect(created.status).toBe(202);
  const id = created.body.data.id as string;
  return { id, ended: await stack.waitForStatus(id, ['running', 'failed', 'rollback_failed'], 60_000) };
}

describe('provider failures that may pass are retried or converged; refusals are final', () => {
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

  /** How many config writes a provision makes when nothing fails (measured once). */
  let cleanWrites: number | undefined;
  async function configWritesOfCleanProvision(): Promise<number> {
    if (cleanWrites === undefined) {
      const before = await callCount(stack, CONFIG_WRITE);
      expect((await provision(stack, 'clean-writes')).ended.status).toBe('running');
      cleanWrites = (await callCount(stack, CONFIG_WRITE)) - before;
    }
    return cleanWrites;
  }

  it.each([
    ['a proxy error that changed nothing', 'http500', 'proxy error on pve3: pvedaemon gave no answer, config locked', 1],
    ['a bare internal error that changed nothing', 'http500', 'internal error', 1],
    ['a bare internal error after the write was made', 'http500_after_accept', 'internal error', 0],
  ])('converges the configure write through %s: reaches running, writing again only what is missing', async (_what, mode, message, extraWrites) => {
    const clean = await configWritesOfCleanProvision();
    const before = await callCount(stack, CONFIG_WRITE);
    await stack.sim.fault({ op: 'config', param: 'tags', mode, message });
    const { id, ended } = await provision(stack, 'converged-write');
    expect(ended).toMatchObject({ status: 'running', failure: null, task: { status: 'succeeded' } });
    expect(await pendingFaults(stack)).toEqual([]);
    expect((await guestOf(stack, id))?.config).toMatchObject({ memory: '1024', tags: OWNERSHIP_TAG });
    expect((await callCount(stack, CONFIG_WRITE)) - before).toBe(clean + extraWrites);
  });

  it('gives up on a config write still answered 500 after four tries: the stage fails and rolls back', async () => {
    const before = await callCount(stack, CONFIG_WRITE);
    await stack.sim.fault({ op: 'config', param: 'tags', mode: 'http500', message: 'internal error', count: 10 });
    const { id, ended } = await provision(stack, 'write-never-passes');
    expect(ended).toMatchObject({ status: 'failed', failure: { code: 'PROVISIONING_FAILED' } });
    const admin = await stack.api.request('GET', `/v1/admin/instances/${id}`, { token: stack.api.adminToken });
    expect(admin.body.data.failureCause).toMatchObject({ stage: 'configure', type: 'PROVIDER_REJECTED' });
    // The configure write is the provision's first, and its last: four tries.
    expect((await callCount(stack, CONFIG_WRITE)) - before).toBe(4);
    expect(((await pendingFaults(stack)) as { remaining: number }[])[0]?.remaining).toBe(6);
    expect(await guestOf(stack, id)).toBeUndefined();
  });

  it('adopts the Proxmox task a start answered 500 had started: the start is sent once', async () => {
    // A start long enough that the guest is not running yet when the call is looked into.
    await simOptions(stack, { taskMsByType: { qmstart: 1500 } });
    try {
      const starts = await callCount(stack, START);
      await stack.sim.fault({ op: 'start', mode: 'http500_after_accept', message: 'proxy error on pve1: pvedaemon gave no answer' });
      const { id, ended } = await provision(stack, 'start-answered-500');
      expect(ended).toMatchObject({ status: 'running', failure: null });
      expect(await callCount(stack, START)).toBe(starts + 1);
      expect((await guestOf(stack, id))?.status).toBe('running');
      const call = await stack.api.db.providerCall.findFirstOrThrow({ where: { instanceId: id, kind: 'start' } });
      expect(call).toMatchObject({ status: 'succeeded', upid: expect.stringMatching(/:qmstart:/) });
    } finally {
      await simOptions(stack, { taskMsByType: {} });
    }
  });

  it.each([
    ['a parameter verification failure (400)', { mode: 'http400', message: 'value must have a minimum value of 16' }, 'PROVISIONING_FAILED', 'PROVIDER_REJECTED'],
    ['a failed permission check (403)', { mode: 'http403', message: 'Permission check failed (/vms/100, VM.Config.Memory)' }, 'PROVIDER_PERMISSION_DENIED', 'PROVIDER_PERMISSION_DENIED'],
  ])('fails at once, without a second try, when a config write is refused by %s', async (_what, refusal, code, type) => {
    const before = await callCount(stack, CONFIG_WRITE);
    await stack.sim.fault({ op: 'config', param: 'tags', ...refusal });
    const { id, ended } = await provision(stack, 'refused-write');
    expect(ended).toMatchObject({ status: 'failed', failure: { code } });
    expect((await callCount(stack, CONFIG_WRITE)) - before).toBe(1);
    const admin = await stack.api.request('GET', `/v1/admin/instances/${id}`, { token: stack.api.adminToken });
    expect(admin.body.data.failureCause).toMatchObject({ stage: 'configure', type });
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
