import { describe, expect, it, vi } from 'vitest';
import { formatUpid, parseUpid, ProxmoxError, ProxmoxTaskError, ProxmoxTaskTimeoutError, pollProxmoxTask, type ProxmoxTaskStatus, type WaitForProxmoxTaskOptions } from '../../src/proxmox';
import { gaps, T0, useFakeClockFromT0 } from '../support/fake-clock';

/** The wait begins at T0 (a whole second, as UPID start times are). */

const upidStartedAt = (epochMs: number) =>
  formatUpid({ node: 'pve1', pid: 0x1234, pstart: 0x10000, starttime: Math.floor(epochMs / 1000), type: 'qmconfig', id: '101', user: 'root@pam!cp' });
const NEW_TASK = upidStartedAt(T0);

const http = (status: number, message: string) => new ProxmoxError({ kind: 'http', status, message, method: 'GET', path: '/nodes/{node}/tasks/{upid}/status' });
const noSuchTask = () => http(400, 'no such task');

/** 'running', an exit status, or a failed read. */
type Answer = string | Error;
/** A task that has stopped with "OK" once `ms` have passed since T0. */
const endsAt = (ms: number) => (t: number): Answer => (t >= ms ? 'OK' : 'running');

/** A fake Proxmox answering each status read with `answer(ms since T0)`; `reads` holds those times. */
function fakeProxmox(answer: (t: number) => Answer) {
  const reads: number[] = [];
  return {
    reads,
    async status(upid: string): Promise<ProxmoxTaskStatus> {
      const t = Date.now() - T0;
      reads.push(t);
      const a = answer(t);
      if (a instanceof Error) throw a;
      const task = { upid, ...parseUpid(upid) };
      return a === 'running' ? { ...task, status: 'running' } : { ...task, status: 'stopped', exitstatus: a };
    },
  };
}

/** Runs the wait to its end on fake time; resolves with its result or its error. */
async function wait(proxmox: ReturnType<typeof fakeProxmox>, opts: WaitForProxmoxTaskOptions = {}, upid = NEW_TASK): Promise<unknown> {
  const settled = pollProxmoxTask(proxmox, upid, { pollIntervalMs: 500, ...opts }).catch((e: unknown) => e);
  await vi.runAllTimersAsync();
  return settled;
}


useFakeClockFromT0();

describe('pollProxmoxTask: when it reads a task', () => {
  it('reads a new task 25 ms after the wait begins, then waits half the task age between reads, up to the ceiling', async () => {
    const proxmox = fakeProxmox(endsAt(2_000));
    expect(await wait(proxmox)).toEqual({ upid: NEW_TASK, exitstatus: 'OK', warnings: 0 });
    expect(proxmox.reads).toEqual([25, 50, 75, 113, 170, 255, 383, 575, 863, 1295, 1795, 2295]);
  });

  it('sees a 100 ms configuration task done 13 ms after it ended, not at the ceiling', async () => {
    const proxmox = fakeProxmox(endsAt(100));
    await wait(proxmox);
    expect(proxmox.reads).toEqual([25, 50, 75, 113]);
  });

  it('never waits longer than the ceiling (TASK_POLL_INTERVAL_MS)', async () => {
    const proxmox = fakeProxmox(endsAt(60_000));
    await wait(proxmox, { pollIntervalMs: 200 });
    expect(proxmox.reads.slice(0, 8)).toEqual([25, 50, 75, 113, 170, 255, 383, 575]);
    expect(new Set(gaps(proxmox.reads.slice(7)))).toEqual(new Set([200]));
  });

  it('reads at the ceiling from the start when the ceiling is under 25 ms', async () => {
    const proxmox = fakeProxmox(endsAt(35));
    await wait(proxmox, { pollIntervalMs: 10 });
    expect(proxmox.reads).toEqual([10, 20, 30, 40]);
  });

  it('reads a resumed task at once, then paces by its age from the UPID: a task running for a minute is read at the ceiling', async () => {
    const proxmox = fakeProxmox(endsAt(1_200));
    await wait(proxmox, { resumed: true }, upidStartedAt(T0 - 60_000));
    expect(proxmox.reads).toEqual([0, 500, 1_000, 1_500]);
  });

  it('reads a resumed task that started a second ago every half of its age', async () => {
    const proxmox = fakeProxmox(endsAt(3_000));
    await wait(proxmox, { resumed: true, pollIntervalMs: 5_000 }, upidStartedAt(T0 - 1_000));
    expect(proxmox.reads).toEqual([0, 500, 1_250, 2_375, 4_063]);
  });

  it('takes a resumed task whose UPID start is ahead of our clock for a new one', async () => {
    const proxmox = fakeProxmox(endsAt(60));
    await wait(proxmox, { resumed: true }, upidStartedAt(T0 + 30_000));
    expect(proxmox.reads).toEqual([0, 25, 50, 75]);
  });
});

describe('pollProxmoxTask: what it answers', () => {
  it('succeeds on "WARNINGS: N", surfacing the count', async () => {
    expect(await wait(fakeProxmox(() => 'WARNINGS: 2'))).toEqual({ upid: NEW_TASK, exitstatus: 'WARNINGS: 2', warnings: 2 });
  });

  it('throws ProxmoxTaskError with any other exit status', async () => {
    const err = await wait(fakeProxmox(() => 'VM 101 already running'));
    expect(err).toBeInstanceOf(ProxmoxTaskError);
    expect(err).toMatchObject({ upid: NEW_TASK, exitstatus: 'VM 101 already running' });
  });

  it('reports every status it read to onPoll (the activity heartbeats there)', async () => {
    const seen: string[] = [];
    const proxmox = fakeProxmox((t) => (t < 40 ? noSuchTask() : endsAt(100)(t)));
    await wait(proxmox, { onPoll: (s) => seen.push(s.status) });
    expect(proxmox.reads).toEqual([25, 50, 75, 113]);
    expect(seen).toEqual(['running', 'running', 'stopped']);
  });
});

describe('pollProxmoxTask: "no such task"', () => {
  it('is tolerated for the first 5 s of the wait: a new task can take a moment to show up', async () => {
    const proxmox = fakeProxmox((t) => (t < 4_000 ? noSuchTask() : 'OK'));
    expect(await wait(proxmox)).toMatchObject({ exitstatus: 'OK' });
  });

  it('is thrown once the task has stayed unknown past the grace window', async () => {
    const proxmox = fakeProxmox(() => noSuchTask());
    const err = await wait(proxmox);
    expect(err).toBeInstanceOf(ProxmoxError);
    expect((err as ProxmoxError).isNoSuchTask).toBe(true);
    expect(proxmox.reads.at(-2)).toBeLessThan(5_000);
    expect(proxmox.reads.at(-1)).toBeGreaterThanOrEqual(5_000);
  });

  it('has a window the caller can set', async () => {
    const proxmox = fakeProxmox(() => noSuchTask());
    expect(await wait(proxmox, { noSuchTaskGraceMs: 60 })).toBeInstanceOf(ProxmoxError);
    expect(proxmox.reads).toEqual([25, 50, 75]);
  });
});

describe('pollProxmoxTask: failed reads, timeout and abort', () => {
  it('retries transient read failures', async () => {
    const proxmox = fakeProxmox((t) => (t < 300 ? http(503, 'Service Unavailable') : 'OK'));
    expect(await wait(proxmox)).toMatchObject({ exitstatus: 'OK' });
  });

  it('throws any other read failure at once', async () => {
    const proxmox = fakeProxmox(() => http(403, 'Permission check failed'));
    expect(await wait(proxmox)).toMatchObject({ status: 403 });
    expect(proxmox.reads).toEqual([25]);
  });

  it('gives up past its budget with ProxmoxTaskTimeoutError carrying the last status, reading nothing after the deadline', async () => {
    const proxmox = fakeProxmox(() => 'running');
    const err = await wait(proxmox, { timeoutMs: 3_000 });
    expect(err).toBeInstanceOf(ProxmoxTaskTimeoutError);
    expect(err).toMatchObject({ upid: NEW_TASK, lastStatus: 'running' });
    expect(proxmox.reads.at(-1)).toBeLessThan(3_000);
  });

  it('gives up past its budget when every read fails transiently', async () => {
    const proxmox = fakeProxmox(() => http(502, 'Bad Gateway'));
    expect(await wait(proxmox, { timeoutMs: 3_000 })).toBeInstanceOf(ProxmoxTaskTimeoutError);
    expect(proxmox.reads.length).toBeGreaterThan(1);
  });

  it('stops at once on abort, rejecting with the reason and reading no more', async () => {
    const proxmox = fakeProxmox(() => 'running');
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('shutting down')), 100);
    expect(await wait(proxmox, { signal: ac.signal })).toEqual(new Error('shutting down'));
    expect(proxmox.reads).toEqual([25, 50, 75]);
  });
});
