import { beforeAll, describe, expect, it } from 'vitest';
import { callCount, crashWorkerWhilePolling, guestOf, liveAllocations, operate, Q, readInstance, runningServer, setTaskMs, suiteStack, taskEnd } from '../support/lifecycle';
import type { WorkerProcess } from '../support/stack';

/**
 * A worker process is killed (SIGKILL) while it polls an operation's Proxmox task; a new one
 * resumes polling the recorded UPID and finishes the operation without issuing it again.
 */
describe('lifecycle operations survive a worker crash', () => {
  const stack = suiteStack({ worker: false });
  let worker: WorkerProcess;
  beforeAll(() => {
    worker = stack.spawnWorkerProcess();
  });


  const running = (hostname: string) => runningServer(stack, { hostname }, 60_000);

  const crashWhilePolling = async (taskId: string, kind: string) => {
    worker = await crashWorkerWhilePolling(stack, worker, taskId, kind);
  };

  it('finishes a start whose worker died mid-task, with exactly one start call', { timeout: 120_000 }, async () => {
    const id = await running('crash-start');
    const stop = await operate(stack, id, 'stop');
    await taskEnd(stack, stop.body.meta.taskId, 60_000);
    const starts = await callCount(stack, `POST ${Q}/status/start`);

    await setTaskMs(stack, 2500);
    const start = await operate(stack, id, 'start');
    expect(start.status).toBe(202);
    await crashWhilePolling(start.body.meta.taskId, 'start');
    const task = await taskEnd(stack, start.body.meta.taskId, 90_000);
    await setTaskMs(stack, 20);

    expect(task.status).toBe('succeeded');
    expect(await callCount(stack, `POST ${Q}/status/start`)).toBe(starts + 1);
    expect((await guestOf(stack, id))?.status).toBe('running');
    expect((await readInstance(stack, id)).status).toBe('running');
  });

  it('finishes a migration whose worker died mid-task, with exactly one migrate call and the capacity moved once', { timeout: 120_000 }, async () => {
    const id = await running('crash-migrate');
    const from = (await stack.api.db.instance.findUniqueOrThrow({ where: { id } })).node as string;
    const to = ['pve1', 'pve2', 'pve3'].find((n) => n !== from) as string;
    const migrations = await callCount(stack, `POST ${Q}/migrate`);

    await setTaskMs(stack, 2500);
    const migrate = await operate(stack, id, 'migrate', { node: to });
    expect(migrate.status).toBe(202);
    await crashWhilePolling(migrate.body.meta.taskId, 'migrate');
    const task = await taskEnd(stack, migrate.body.meta.taskId, 90_000);
    await setTaskMs(stack, 20);

    expect(task.status).toBe('succeeded');
    expect(await callCount(stack, `POST ${Q}/migrate`)).toBe(migrations + 1);
    expect((await guestOf(stack, id))?.node).toBe(to);
    expect(await liveAllocations(stack, id)).toEqual([expect.objectContaining({ node: to, target: null, state: 'allocated' })]);
  });
});
