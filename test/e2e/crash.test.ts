import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { guestsOf, startStack, type Stack, type WorkerProcess } from '../support/stack';

const CLONE_CALL = 'POST /nodes/{node}/qemu/{vmid}/clone';
const DESTROY_CALL = 'DELETE /nodes/{node}/qemu/{vmid}';

/**
 * Workers die like crashed processes (SIGKILL) at the worst moments; another worker takes over
 * after the activity's heartbeat timeout, and nothing is issued twice.
 */
describe('a worker killed mid-provision', () => {
  let stack: Stack;
  let worker: WorkerProcess | undefined;
  beforeAll(async () => {
    stack = await startStack({ worker: false });
  });
  afterEach(async () => {
    await worker?.kill();
    await stack.sim.clearFaults();
    await fetch(`${stack.sim.url}/_sim/options`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ taskMs: 20 }) });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const calls = async (call: string) => (await stack.sim.state()).calls[call] ?? 0;
  const providerCall = (instanceId: string, kind: string) => stack.api.db.providerCall.findFirst({ where: { instanceId, kind } });

  it('resumes polling the recorded UPID when the worker dies while the clone runs', async () => {
    await fetch(`${stack.sim.url}/_sim/options`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ taskMs: 4000 }) });
    const clonesBefore = await calls(CLONE_CALL);
    worker = stack.spawnWorkerProcess();
    const id = (await stack.create({ hostname: 'crash-polling' })).body.data.id as string;
    await expect.poll(async () => (await providerCall(id, 'clone'))?.upid ?? null, { timeout: 60_000, interval: 50 }).toMatch(/^UPID:/);
    const recorded = (await providerCall(id, 'clone'))!.upid;
    await worker.kill();
    await fetch(`${stack.sim.url}/_sim/options`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ taskMs: 20 }) });

    worker = stack.spawnWorkerProcess();
    const running = await stack.waitForStatus(id, ['running', 'failed'], 90_000);
    expect(running.status).toBe('running');
    expect(await calls(CLONE_CALL)).toBe(clonesBefore + 1);
    expect((await providerCall(id, 'clone'))?.upid).toBe(recorded);
    expect(guestsOf(await stack.sim.state(), id)).toHaveLength(1);
  });

  it('adopts the guest when the worker dies after the clone was accepted but before its UPID was recorded', async () => {
    await stack.sim.fault({ op: 'clone', mode: 'delay', delayMs: 10_000 });
    const clonesBefore = await calls(CLONE_CALL);
    worker = stack.spawnWorkerProcess();
    const id = (await stack.create({ hostname: 'crash-unrecorded' })).body.data.id as string;
    // Proxmox has the guest, our record still says "issuing" with no UPID: the answer is in flight.
    await expect
      .poll(async () => guestsOf(await stack.sim.state(), id).length > 0, { timeout: 60_000, interval: 50 })
      .toBe(true);
    expect(await providerCall(id, 'clone')).toMatchObject({ status: 'issuing', upid: null });
    await worker.kill();

    worker = stack.spawnWorkerProcess();
    const running = await stack.waitForStatus(id, ['running', 'failed'], 90_000);
    expect(running.status).toBe('running');
    expect(await calls(CLONE_CALL)).toBe(clonesBefore + 1);
  });

  it('finishes a rollback exactly once when the worker dies during it', async () => {
    await stack.sim.fault({ op: 'start', mode: 'task_fail' });
    await stack.sim.fault({ op: 'destroy', mode: 'delay', delayMs: 10_000 });
    const destroysBefore = await calls(DESTROY_CALL);
    worker = stack.spawnWorkerProcess();
    const id = (await stack.create({ hostname: 'crash-rollback' })).body.data.id as string;
    await expect.poll(async () => (await providerCall(id, 'rollback-destroy'))?.status ?? null, { timeout: 60_000, interval: 50 }).toBe('issuing');
    await worker.kill();

    worker = stack.spawnWorkerProcess();
    const failed = await stack.waitForStatus(id, ['failed', 'rollback_failed', 'running'], 90_000);
    expect(failed.status).toBe('failed');
    expect(await calls(DESTROY_CALL)).toBe(destroysBefore + 1);
    expect(guestsOf(await stack.sim.state(), id)).toEqual([]);
    const released = await stack.api.db.auditEvent.count({ where: { instanceId: id, action: 'instance.failed' } });
    expect(released).toBe(1);
    const vmidSlots = await stack.api.db.vmidReservation.count({ where: { instanceId: id } });
    expect(vmidSlots).toBe(0);
  });
});
