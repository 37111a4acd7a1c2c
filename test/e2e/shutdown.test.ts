import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openEventStream, settlesWithin, spawnAppProcess, type AppProcess } from '../support/processes';
import { guestsOf, startStack, type Stack, type WorkerProcess } from '../support/stack';

const CLONE_CALL = 'POST /nodes/{node}/qemu/{vmid}/clone';
const GRACE_SECONDS = 4;

/** SIGTERM is how orchestrators stop processes: both must go within SIGTERM_GRACE_SECONDS, losing nothing. */
describe('stopping the processes with SIGTERM', () => {
  let stack: Stack;
  let api: AppProcess | undefined;
  let worker: WorkerProcess | undefined;
  beforeAll(async () => {
    stack = await startStack({ worker: false, env: { SIGTERM_GRACE_SECONDS: String(GRACE_SECONDS) } });
  });
  afterEach(async () => {
    await api?.kill();
    await worker?.kill();
    await fetch(`${stack.sim.url}/_sim/options`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ taskMs: 20 }) });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const setTaskMs = (taskMs: number) =>
    fetch(`${stack.sim.url}/_sim/options`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ taskMs }) });
  const calls = async (call: string) => (await stack.sim.state()).calls[call] ?? 0;
  const cloneCall = (instanceId: string) => stack.api.db.providerCall.findFirst({ where: { instanceId, kind: 'clone' } });

  it('an API process with an open event stream tells the stream to reconnect and exits 0 within the grace time', async () => {
    // No worker runs: the provision's task stays open, so the stream would follow it forever.
    const id = (await stack.create({ hostname: 'stream-open' })).body.data.id as string;
    api = spawnAppProcess('server', stack.api.config, { PORT: '0', LOG_LEVEL: 'info' });
    const { port } = (await api.logLine('API listening')) as { port: number };
    const stream = await openEventStream(`http://127.0.0.1:${port}/v1/instances/${id}/events`, stack.customer.token);
    expect(stream.status).toBe(200);
    await stream.until((text) => text.includes('data: '));

    api.child.kill('SIGTERM');
    expect(await settlesWithin(api.exited, GRACE_SECONDS * 1000)).toBe(true);
    expect(await api.exited).toBe(0);
    await stream.ended;
    expect(stream.text()).toContain('event: close\ndata: {"reason":"shutting_down"}\n\n');
    // Its slot is given back: the token's streams are counted no more.
    expect(await stack.api.db.eventStreamLease.count()).toBe(0);
    // No worker is to clone this server later, in the next test.
    await stack.api.temporal.workflow.getHandle(`provision-${id}`).terminate('test over');
  });

  it('a worker waiting on a long Proxmox task exits within the grace time; the next worker resumes the recorded UPID, cloning once', async () => {
    await setTaskMs(15_000);
    const clonesBefore = await calls(CLONE_CALL);
    worker = stack.spawnWorkerProcess();
    const id = (await stack.create({ hostname: 'sigterm-clone' })).body.data.id as string;
    await expect.poll(async () => (await cloneCall(id))?.upid ?? null, { timeout: 60_000, interval: 50 }).toMatch(/^UPID:/);
    const recorded = (await cloneCall(id))!.upid;
    await setTaskMs(20);

    worker.child.kill('SIGTERM');
    expect(await settlesWithin(worker.exited, GRACE_SECONDS * 1000)).toBe(true);
    expect(worker.child.exitCode).toBe(0);

    worker = stack.spawnWorkerProcess();
    const running = await stack.waitForStatus(id, ['running', 'failed', 'rollback_failed'], 90_000);
    expect(running.status).toBe('running');
    expect(await calls(CLONE_CALL)).toBe(clonesBefore + 1);
    expect((await cloneCall(id))?.upid).toBe(recorded);
    expect(guestsOf(await stack.sim.state(), id)).toHaveLength(1);
  });
});
