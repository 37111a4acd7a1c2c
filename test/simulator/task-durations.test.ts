/**
 * Task durations per task type (`taskMsByType`), set at creation or through `/_sim/options`.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { startSim, useSim } from './support';

const HOUR_MS = 3_600_000;

interface StateTask {
  upid: string;
  type: string;
  status: string;
  exitstatus?: string;
  startedAtMs: number;
  endedAtMs?: number;
}

const h = useSim({ taskMs: 5 });
// A reset keeps the options, so each test starts from no per-type durations.
beforeEach(async () => {
  await h.control('POST', '/options', { taskMsByType: {} });
});
const taskOf = async (upid: string) => (await h.control<{ tasks: StateTask[] }>('GET', '/state')).tasks.find((t) => t.upid === upid);

describe('task durations per type', () => {
  it('a type with its own duration runs that long; other types take taskMs', async () => {
    await h.wait(await h.client.guests.clone('pve1', 9000, { newid: 440, name: 'configured' }));
    expect(await h.control('POST', '/options', { taskMsByType: { qmclone: HOUR_MS } })).toMatchObject({ taskMs: 5, taskMsByType: { qmclone: HOUR_MS } });

    const slowClone = await h.client.guests.clone('pve1', 9000, { newid: 441, name: 'slow' });
    const config = await h.client.guestConfig.set('pve1', 440, { tags: 'fast' });
    expect(config).not.toBeNull();
    await h.wait(config as string);

    expect(await taskOf(config as string)).toMatchObject({ type: 'qmconfig', status: 'stopped', exitstatus: 'OK' });
    const clone = await taskOf(slowClone);
    expect(clone).toMatchObject({ type: 'qmclone', status: 'running' });
    expect(clone).not.toHaveProperty('endedAtMs');
    h.sim.state.tasks.finish(slowClone);
  });

  it('the state shows when each task started and ended, in milliseconds', async () => {
    const upid = await h.client.guests.clone('pve1', 9000, { newid: 442, name: 'timed' });
    await h.wait(upid);
    const task = await taskOf(upid);
    expect(task?.endedAtMs).toBeGreaterThanOrEqual(task?.startedAtMs ?? Number.NaN);
  });

  it('posting a map replaces the previous one; an empty map puts every type back on taskMs', async () => {
    await h.control('POST', '/options', { taskMsByType: { qmclone: HOUR_MS, qmstart: HOUR_MS } });
    expect(await h.control('POST', '/options', { taskMsByType: { qmstart: HOUR_MS } })).toMatchObject({ taskMsByType: { qmstart: HOUR_MS } });
    expect(await h.control('GET', '/options')).not.toHaveProperty('taskMsByType.qmclone');
    await h.control('POST', '/options', { taskMsByType: {} });
    expect(await h.control('GET', '/options')).toMatchObject({ taskMsByType: {} });
    await h.wait(await h.client.guests.clone('pve1', 9000, { newid: 443, name: 'back-to-default' }));
  });

  it('rejects a negative or fractional duration', async () => {
    for (const taskMsByType of [{ qmclone: -1 }, { qmclone: 1.5 }]) {
      const res = await fetch(`${h.server.url}/_sim/options`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ taskMsByType }) });
      expect(res.status).toBe(400);
    }
  });

  it('the createSimulator option sets the durations from the start', async () => {
    const other = await startSim({ taskMs: 5, taskMsByType: { qmclone: HOUR_MS } });
    try {
      const upid = await other.client.guests.clone('pve1', 9000, { newid: 444, name: 'slow-from-start' });
      expect(await other.control('GET', '/options')).toMatchObject({ taskMsByType: { qmclone: HOUR_MS } });
      const { tasks } = await other.control<{ tasks: StateTask[] }>('GET', '/state');
      expect(tasks.find((t) => t.upid === upid)).toMatchObject({ status: 'running' });
    } finally {
      await other.close();
    }
  });
});
