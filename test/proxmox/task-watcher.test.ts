import { describe, expect, it, vi } from 'vitest';
import {
  formatUpid,
  ProxmoxTaskWatcher,
  parseUpid,
  ProxmoxError,
  ProxmoxTaskError,
  ProxmoxTaskTimeoutError,
  type ProxmoxTaskListEntry,
  type ProxmoxTaskStatus,
  type WaitForProxmoxTaskOptions,
} from '../../src/proxmox';
import { gaps, T0, useFakeClockFromT0 } from '../support/fake-clock';

/** Waits begin at T0 (a whole second, as UPID start times are). */

const upid = (pid: number, type = 'qmclone') =>
  formatUpid({ node: 'pve1', pid, pstart: 0x10000, starttime: T0 / 1000, type, id: String(100 + pid), user: 'root@pam!cp' });

const http = (status: number, message: string, path = '/nodes/{node}/tasks') => new ProxmoxError({ kind: 'http', status, message, method: 'GET', path });

interface FakeTask {
  /** Ms after T0 at which it stops; never when undefined. */
  endsAt?: number;
  exit?: string;
  /** The list never shows it (another user's task, past the list's limit). */
  unlisted?: boolean;
  /** Status reads answered "no such task" before it shows up. */
  hiddenReads?: number;
}

/**
 * A fake node: `list` answers its active list (`listAnswer` can replace it: an error, or a
 * list that lags), `status` the task's state. Both record when they were read (ms since T0).
 */
function fakeNode(tasks: Record<string, FakeTask>) {
  const listReads: number[] = [];
  const statusReads: { t: number; upid: string }[] = [];
  const now = () => Date.now() - T0;
  const ended = (task: FakeTask) => task.endsAt !== undefined && now() >= task.endsAt;
  const node = {
    listReads,
    statusReads,
    listAnswer: undefined as undefined | ((t: number) => Error | ProxmoxTaskListEntry[] | undefined),
    statusReadsOf: (id: string) => statusReads.filter((r) => r.upid === id).map((r) => r.t),
    async list(): Promise<ProxmoxTaskListEntry[]> {
      listReads.push(now());
      const custom = node.listAnswer?.(now());
      if (custom instanceof Error) throw custom;
      if (custom) return custom;
      return Object.entries(tasks)
        .filter(([, task]) => !task.unlisted && !ended(task))
        .map(([id]) => ({ ...parseUpid(id), upid: id, status: 'RUNNING' }));
    },
    async status(id: string): Promise<ProxmoxTaskStatus> {
      statusReads.push({ t: now(), upid: id });
      const task = tasks[id];
      if (!task || (task.hiddenReads ?? 0) > 0) {
        if (task) task.hiddenReads = (task.hiddenReads ?? 0) - 1;
        throw http(400, 'no such task', '/nodes/{node}/tasks/{upid}/status');
      }
      const state = { ...parseUpid(id), upid: id };
      return ended(task) ? { ...state, status: 'stopped', exitstatus: task.exit ?? 'OK' } : { ...state, status: 'running' };
    },
  };
  return node;
}

/** Starts waits on every task (all registered at T0), runs fake time to the end, returns each outcome and when it came. */
async function waitAll(node: ReturnType<typeof fakeNode>, ids: string[], opts: WaitForProxmoxTaskOptions = {}) {
  const watcher = new ProxmoxTaskWatcher(node, 'pve1');
  const settledAt: Record<string, number> = {};
  const outcomes = ids.map((id) =>
    watcher
      .wait(id, { pollIntervalMs: 500, ...opts })
      .catch((e: unknown) => e)
      .finally(() => {
        settledAt[id] = Date.now() - T0;
      }),
  );
  await vi.runAllTimersAsync();
  return { outcomes: await Promise.all(outcomes), settledAt, watcher };
}

useFakeClockFromT0();

describe('ProxmoxTaskWatcher: when it reads the node', () => {
  it('reads the task list 5 ms after a wait begins, then every eighth of the task age (25 ms at least), at most every tenth of pollIntervalMs', async () => {
    const task = upid(1);
    const node = fakeNode({ [task]: { endsAt: 2_000 } });
    const { outcomes, settledAt } = await waitAll(node, [task]);
    expect(outcomes).toEqual([{ upid: task, exitstatus: 'OK', warnings: 0 }]);
    expect(node.listReads.slice(0, 10)).toEqual([5, 30, 55, 80, 105, 130, 155, 180, 205, 231]);
    expect(new Set(gaps(node.listReads.slice(-8)))).toEqual(new Set([50]));
    // one status read, on the first tick after the list stopped showing it
    expect(node.statusReadsOf(task)).toEqual([settledAt[task]]);
    expect(settledAt[task]).toBeGreaterThanOrEqual(2_000);
    expect(settledAt[task]).toBeLessThanOrEqual(2_050);
  });

  it('covers 20 waiting tasks with one list read per tick: as many list reads as for the longest task alone', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => upid(i + 1));
    // all shorter than the 2 s after which a task the list shows running is also read directly
    const lengths = ids.map((_, i) => 90 * (i + 1));
    const many = fakeNode(Object.fromEntries(ids.map((id, i) => [id, { endsAt: lengths[i], exit: i % 5 === 4 ? 'WARNINGS: 1' : 'OK' }])));
    const { outcomes, settledAt } = await waitAll(many, ids);

    vi.setSystemTime(T0);
    const longest = ids.at(-1) as string;
    const alone = fakeNode({ [longest]: { endsAt: lengths.at(-1) } });
    await waitAll(alone, [longest]);

    expect(many.listReads).toEqual(alone.listReads);
    expect(outcomes).toEqual(ids.map((id, i) => ({ upid: id, exitstatus: i % 5 === 4 ? 'WARNINGS: 1' : 'OK', warnings: i % 5 === 4 ? 1 : 0 })));
    ids.forEach((id, i) => {
      // each is read directly once, on the first tick after it ended
      expect(many.statusReadsOf(id)).toEqual([settledAt[id]]);
      const tickBefore = many.listReads.filter((t) => t < (settledAt[id] as number)).at(-1) as number;
      expect(tickBefore).toBeLessThan(lengths[i] as number);
    });
  });

  it('ticks for the youngest task: a task registered while an old one runs is covered within 25 ms, then every 25 ms', async () => {
    const old = upid(1);
    const young = upid(2, 'qmconfig');
    const node = fakeNode({ [old]: { endsAt: 3_000 }, [young]: { endsAt: 2_060 } });
    const watcher = new ProxmoxTaskWatcher(node, 'pve1');
    const first = watcher.wait(old, { pollIntervalMs: 500 });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(gaps(node.listReads.filter((t) => t > 1_000))).toEqual(Array.from({ length: 19 }, () => 50));
    const second = watcher.wait(young, { pollIntervalMs: 500 });
    await vi.runAllTimersAsync();
    await Promise.all([first, second]);
    const [youngRead] = node.statusReadsOf(young) as [number];
    const whileYoung = node.listReads.filter((t) => t > 2_000 && t <= youngRead);
    expect(whileYoung[0]).toBeLessThanOrEqual(2_025);
    expect(new Set(gaps(whileYoung))).toEqual(new Set([25]));
    expect(youngRead).toBeLessThanOrEqual(2_060 + 25);
    expect(gaps(node.listReads.filter((t) => t > youngRead && t < 3_000)).every((g) => g === 50)).toBe(true);
  });

  it('reads a resumed task at once', async () => {
    const task = upid(1);
    const node = fakeNode({ [task]: { endsAt: 0 } });
    await waitAll(node, [task], { resumed: true });
    expect(node.listReads).toEqual([0]);
    expect(node.statusReadsOf(task)).toEqual([0]);
  });

  it('stops reading once nothing waits, leaving no timer behind', async () => {
    const node = fakeNode({ [upid(1)]: { endsAt: 300 } });
    const { watcher } = await waitAll(node, [upid(1)]);
    const reads = node.listReads.length;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(node.listReads).toHaveLength(reads);
    expect(watcher.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('ProxmoxTaskWatcher: what it answers', () => {
  it('throws ProxmoxTaskError with the exit status of a failed task', async () => {
    const task = upid(1, 'qmstart');
    const { outcomes } = await waitAll(fakeNode({ [task]: { endsAt: 100, exit: 'VM 101 already running' } }), [task]);
    expect(outcomes[0]).toBeInstanceOf(ProxmoxTaskError);
    expect(outcomes[0]).toMatchObject({ upid: task, exitstatus: 'VM 101 already running', isAlreadyRunning: true });
  });

  it('reports to onPoll on every tick that covered the task (the activity heartbeats there)', async () => {
    const task = upid(1);
    const node = fakeNode({ [task]: { endsAt: 1_000 } });
    const seen: string[] = [];
    await waitAll(node, [task], { onPoll: (s) => seen.push(s.status) });
    expect(seen).toEqual([...node.listReads.slice(0, -1).map(() => 'running'), 'stopped']);
  });

  it('ends only the wait whose onPoll throws, with that error', async () => {
    const [failing, other] = [upid(1), upid(2)];
    const node = fakeNode({ [failing]: { endsAt: 500 }, [other]: { endsAt: 500 } });
    const watcher = new ProxmoxTaskWatcher(node, 'pve1');
    const first = watcher.wait(failing, { onPoll: () => { throw new Error('heartbeat failed'); } }).catch((e: unknown) => e);
    const second = watcher.wait(other);
    await vi.runAllTimersAsync();
    expect(await first).toEqual(new Error('heartbeat failed'));
    expect(await second).toMatchObject({ exitstatus: 'OK' });
  });

  it('reads a task the list shows running directly every 4 × pollIntervalMs, so a list that lags behind its end delays it at most that', async () => {
    const task = upid(1);
    const node = fakeNode({ [task]: { endsAt: 1_000 } });
    node.listAnswer = () => [{ ...parseUpid(task), upid: task, status: 'RUNNING' }];
    const { outcomes, settledAt } = await waitAll(node, [task]);
    expect(outcomes[0]).toMatchObject({ exitstatus: 'OK' });
    expect(node.statusReadsOf(task)).toEqual([settledAt[task]]);
    expect(settledAt[task]).toBeGreaterThanOrEqual(2_000);
    expect(settledAt[task]).toBeLessThanOrEqual(2_100);
  });
});

describe('ProxmoxTaskWatcher: falling back to per-task status reads', () => {
  it('reads each task on its own when the list is refused (a token without Sys.Audit), as pollProxmoxTask does', async () => {
    const task = upid(1, 'qmconfig');
    const node = fakeNode({ [task]: { endsAt: 100 } });
    node.listAnswer = () => http(403, 'Permission check failed (/nodes/pve1, Sys.Audit)');
    const { outcomes } = await waitAll(node, [task]);
    expect(outcomes[0]).toMatchObject({ exitstatus: 'OK' });
    expect(node.listReads).toEqual([5]);
    expect(node.statusReadsOf(task)).toEqual([30, 55, 83, 125]);
  });

  it('keeps polling per task on a node whose list lagged behind a task it saw ended', async () => {
    const lagging = upid(1);
    const other = upid(2);
    const node = fakeNode({ [lagging]: { endsAt: 500 }, [other]: { endsAt: 4_000 } });
    // the list goes on showing both as running
    node.listAnswer = () => [lagging, other].map((id) => ({ ...parseUpid(id), upid: id, status: 'RUNNING' }));
    const { outcomes, settledAt } = await waitAll(node, [lagging, other]);
    expect(outcomes.map((o) => (o as { exitstatus: string }).exitstatus)).toEqual(['OK', 'OK']);
    expect(settledAt[lagging]).toBeLessThanOrEqual(2_100);
    // the next list read still showed the ended task running: no more list reads
    expect(node.listReads.at(-1)).toBeLessThanOrEqual((settledAt[lagging] as number) + 100);
    expect(settledAt[other]).toBeLessThanOrEqual(4_500);
    expect(node.statusReadsOf(other).length).toBeGreaterThan(2);
  });

  it('hands a task the list does not show (another user\'s, past the list limit) to per-task polling', async () => {
    const hidden = upid(1);
    const node = fakeNode({ [hidden]: { endsAt: 3_000, unlisted: true } });
    const { outcomes, settledAt } = await waitAll(node, [hidden]);
    expect(outcomes[0]).toMatchObject({ exitstatus: 'OK' });
    expect(node.listReads).toEqual([5]);
    expect(node.statusReadsOf(hidden).slice(0, 3)).toEqual([5, 30, 55]);
    expect(settledAt[hidden]).toBeLessThanOrEqual(3_500);
  });

  it('retries a transient list failure on the next tick', async () => {
    const task = upid(1, 'qmconfig');
    const node = fakeNode({ [task]: { endsAt: 100 } });
    node.listAnswer = (t) => (t < 60 ? http(503, 'Service Unavailable') : undefined);
    const { outcomes } = await waitAll(node, [task]);
    expect(outcomes[0]).toMatchObject({ exitstatus: 'OK' });
    expect(node.listReads).toEqual([5, 30, 55, 80, 105]);
    expect(node.statusReadsOf(task)).toEqual([105]);
  });
});

describe('ProxmoxTaskWatcher: "no such task", timeout and abort', () => {
  it('tolerates "no such task" for the first 5 s of a wait, then throws it', async () => {
    const shy = upid(1);
    const gone = upid(2);
    const node = fakeNode({ [shy]: { endsAt: 50, hiddenReads: 3 }, [gone]: { endsAt: 50, hiddenReads: 1_000 } });
    const { outcomes, settledAt } = await waitAll(node, [shy, gone]);
    expect(outcomes[0]).toMatchObject({ exitstatus: 'OK' });
    expect(outcomes[1]).toBeInstanceOf(ProxmoxError);
    expect((outcomes[1] as ProxmoxError).isNoSuchTask).toBe(true);
    expect(settledAt[gone]).toBeGreaterThanOrEqual(5_000);
    expect(settledAt[gone]).toBeLessThanOrEqual(5_100);
  });

  it('gives up past its budget with ProxmoxTaskTimeoutError carrying the last status', async () => {
    const task = upid(1);
    const { outcomes, settledAt, watcher } = await waitAll(fakeNode({ [task]: {} }), [task], { timeoutMs: 3_000 });
    expect(outcomes[0]).toBeInstanceOf(ProxmoxTaskTimeoutError);
    expect(outcomes[0]).toMatchObject({ upid: task, lastStatus: 'running' });
    expect(settledAt[task]).toBe(3_000);
    expect(watcher.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('removes an aborted wait at once, rejecting with the reason, while the others go on', async () => {
    const aborted = upid(1);
    const other = upid(2);
    const node = fakeNode({ [aborted]: {}, [other]: { endsAt: 1_000 } });
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('shutting down')), 300);
    const watcher = new ProxmoxTaskWatcher(node, 'pve1');
    const first = watcher.wait(aborted, { pollIntervalMs: 500, signal: ac.signal }).catch((e: unknown) => e);
    const second = watcher.wait(other, { pollIntervalMs: 500 });
    await vi.advanceTimersByTimeAsync(300);
    expect(await first).toEqual(new Error('shutting down'));
    expect(watcher.size).toBe(1);
    await vi.runAllTimersAsync();
    expect(await second).toMatchObject({ exitstatus: 'OK' });
    expect(node.statusReadsOf(aborted)).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});

