/**
 * One task watcher per Proxmox node: every wait on a task of that node is covered by one read of
 * the node's active task list per tick, instead of each wait polling its own task's status.
 */
import { abortReason } from './delay';
import { ProxmoxError, ProxmoxTaskError, ProxmoxTaskTimeoutError } from './errors';
import {
  listedRunning,
  MIN_READ_GAP_MS,
  READ_TIMEOUT_MS,
  pollProxmoxTask,
  type ProxmoxTaskResult,
  type ProxmoxTaskStatusReader,
  type TaskReadCall,
  type WaitForProxmoxTaskOptions,
} from './task-poll';
import { parseExitStatus, parseUpid } from './upid';
import type { ListProxmoxTasksOptions, ProxmoxTaskListEntry, ProxmoxTaskStatus } from './tasks';

export interface ProxmoxTaskListReader extends ProxmoxTaskStatusReader {
  list(node: string, o?: ListProxmoxTasksOptions, call?: TaskReadCall): Promise<ProxmoxTaskListEntry[]>;
}

/**
 * The first look at a task just issued: one list read covers every task of the node, so an early
 * look is cheap, and a quick configuration task (or a simulator's instant one) is seen done at once.
 */
const FIRST_READ_MS = 5;
/** The node's tick ceiling is this fraction of a wait's `pollIntervalMs` (TASK_POLL_INTERVAL_MS: 500 → 50 ms: a long clone or start is seen ~25 ms late on average; measured in bench/README.md). */
const TICK_CEILING_DIVISOR = 10;
/** Ticks come every this fraction of the youngest waiting task's age (then the ceiling bounds them). */
const TICK_AGE_DIVISOR = 8;
/**
 * A task the list shows running is still read directly once its last direct read is this many
 * `pollIntervalMs` old (2 s by default): the list is Proxmox's `active` file, which records a
 * task's end only when the node next updates that file, so the status read bounds how late a
 * lagging list can make us.
 */
const CONFIRM_RUNNING_FACTOR = 4;
/** `source=active` holds the node's running tasks and ~25 recent ones; Proxmox's default limit is 50. */
const ACTIVE_LIST_LIMIT = 1_000;

interface Waiter {
  upid: string;
  opts: WaitForProxmoxTaskOptions;
  waitStart: number;
  deadline: number;
  /** The task's start as far as pacing goes (see pollProxmoxTask). */
  taskStart: number;
  tickCeilingMs: number;
  /** When the next tick should cover this task. */
  nextTickAt: number;
  lastDirectReadAt: number;
  /** A status read of this task is under way: the ticks go on without it. */
  reading: boolean;
  /** The last status reported to onPoll (none yet: the task as its UPID tells it, running). */
  lastSeen?: ProxmoxTaskStatus;
  settle: (outcome: { result: ProxmoxTaskResult } | { error: unknown } | { handOver: true }) => void;
}

function tickDelay(taskAgeMs: number, ceilingMs: number): number {
  return Math.min(ceilingMs, Math.max(MIN_READ_GAP_MS, Math.round(taskAgeMs / TICK_AGE_DIVISOR)));
}

/**
 * Watches the tasks of one node. While tasks wait, each tick reads `GET /nodes/{node}/tasks
 * ?source=active` once; a task the list shows ended (or no longer lists) gets one authoritative
 * status read (`/tasks/{upid}/status`), which settles its wait. Ticks come 5 ms after a
 * registration, then every eighth of the youngest waiting task's age (at least 25 ms apart), at
 * most every `pollIntervalMs / 10`: at most that many list reads per second for the whole node, plus one
 * status read per finished task and one per running task every 4 × `pollIntervalMs`.
 *
 * No read holds up the others: each is given up after the wait's `readTimeoutMs` (the list after
 * the shortest one) and made again on a later tick, and a tick does not wait for the status reads
 * it starts. Every tick tells each wait it is watched (onPoll, with the last status seen), even
 * while its own read is under way or when the list read failed.
 *
 * A task the list cannot show (another user's, past the list's limit) is handed to per-task status
 * polling (pollProxmoxTask), and so is every task of a node whose list was refused or was caught
 * showing a finished task as running: those nodes are polled per task from then on.
 */
export class ProxmoxTaskWatcher {
  private readonly waiters = new Map<string, Waiter>();
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private ticking = false;
  /** Set for good once the list was refused or lagged behind a task's end. */
  private listUntrusted = false;
  /** Tasks a status read found stopped, and when: a later list still showing one running lags. */
  private readonly endedAt = new Map<string, number>();

  constructor(
    private readonly reader: ProxmoxTaskListReader,
    private readonly node: string,
  ) {}

  /** How many waits it covers now. */
  get size(): number {
    return this.waiters.size;
  }

  wait(upid: string, opts: WaitForProxmoxTaskOptions = {}): Promise<ProxmoxTaskResult> {
    const waitStart = Date.now();
    if (this.listUntrusted) return pollProxmoxTask(this.reader, upid, opts, waitStart);
    const { signal } = opts;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const parsed = parseUpid(upid);
    const pollIntervalMs = opts.pollIntervalMs ?? 500;
    const timeoutMs = opts.timeoutMs ?? 600_000;
    return new Promise<ProxmoxTaskResult>((resolve, reject) => {
      const waiter: Waiter = {
        upid,
        opts,
        waitStart,
        deadline: waitStart + timeoutMs,
        taskStart: opts.resumed ? Math.min(waitStart, parsed.starttime * 1000) : waitStart,
        tickCeilingMs: Math.max(1, Math.round(pollIntervalMs / TICK_CEILING_DIVISOR)),
        nextTickAt: waitStart + (opts.resumed ? 0 : Math.min(FIRST_READ_MS, pollIntervalMs)),
        lastDirectReadAt: waitStart,
        reading: false,
        settle: (outcome) => {
          if (this.waiters.get(upid) !== waiter) return;
          this.waiters.delete(upid);
          clearTimeout(deadlineTimer);
          signal?.removeEventListener('abort', onAbort);
          if ('result' in outcome) resolve(outcome.result);
          else if ('error' in outcome) reject(outcome.error);
          else resolve(pollProxmoxTask(this.reader, upid, opts, waitStart));
          this.schedule();
        },
      };
      const onAbort = (): void => waiter.settle({ error: abortReason(signal as AbortSignal) });
      const deadlineTimer = setTimeout(
        () => waiter.settle({ error: new ProxmoxTaskTimeoutError(upid, timeoutMs, waiter.lastSeen?.status) }),
        timeoutMs,
      );
      signal?.addEventListener('abort', onAbort, { once: true });
      // Two waits on one task: the later one takes over (the earlier is handed to per-task polling).
      this.waiters.get(upid)?.settle({ handOver: true });
      this.waiters.set(upid, waiter);
      this.schedule();
    });
  }

  /** Sets the timer for the earliest tick a waiter needs; none when nothing waits. */
  private schedule(): void {
    if (this.ticking) return;
    let at = Infinity;
    for (const w of this.waiters.values()) at = Math.min(at, w.nextTickAt);
    if (at === this.timerAt) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = at;
    if (at === Infinity) return;
    this.timer = setTimeout(() => void this.tick(), Math.max(0, at - Date.now()));
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    this.timerAt = Infinity;
    this.ticking = true;
    try {
      await this.readAndSettle();
    } finally {
      this.ticking = false;
      this.schedule();
    }
  }

  /**
   * One list read per tick, bounded by the shortest `readTimeoutMs` of the waits it serves; the
   * status reads it calls for run on their own, so a slow one holds up only its own task.
   */
  private async readAndSettle(): Promise<void> {
    const covered = [...this.waiters.values()];
    const listStart = Date.now();
    const timeoutMs = Math.min(...covered.map((w) => w.opts.readTimeoutMs ?? READ_TIMEOUT_MS));
    let entries: Map<string, ProxmoxTaskListEntry>;
    try {
      const list = await this.reader.list(this.node, { source: 'active', limit: ACTIVE_LIST_LIMIT }, { timeoutMs, retries: 0 });
      entries = new Map(list.map((e) => [e.upid, e]));
    } catch (e) {
      // A transient failure is retried next tick, each wait told it is still watched; any other (a refused list) ends list watching here.
      if (!(e instanceof ProxmoxError && e.isTransient)) return this.distrustList();
      for (const w of covered) if (this.waiters.get(w.upid) === w) this.report(w, this.lastSeenOf(w));
      return this.paceAfterTick(covered);
    }
    for (const [upid, endedAt] of this.endedAt) {
      if (endedAt >= listStart) continue;
      if (listedRunning(entries.get(upid))) return this.distrustList();
      this.endedAt.delete(upid);
    }
    for (const w of covered) this.check(w, entries.get(w.upid));
    this.paceAfterTick(covered);
  }

  private distrustList(): void {
    this.listUntrusted = true;
    for (const w of [...this.waiters.values()]) w.settle({ handOver: true });
  }

  private paceAfterTick(covered: Waiter[]): void {
    const now = Date.now();
    for (const w of covered) w.nextTickAt = now + tickDelay(now - w.taskStart, w.tickCeilingMs);
  }

  /** One tick's look at one task: the list's word while it runs, a status read once it ended. */
  private check(w: Waiter, entry: ProxmoxTaskListEntry | undefined): void {
    if (this.waiters.get(w.upid) !== w) return;
    if (w.reading) return this.report(w, this.lastSeenOf(w));
    const runningInList = listedRunning(entry);
    const started = Date.now();
    if (runningInList && started - w.lastDirectReadAt < CONFIRM_RUNNING_FACTOR * (w.opts.pollIntervalMs ?? 500)) {
      return this.report(w, this.listedStatus(w));
    }
    w.lastDirectReadAt = started;
    w.reading = true;
    void this.readStatus(w, entry, runningInList).finally(() => {
      w.reading = false;
    });
  }

  private async readStatus(w: Waiter, entry: ProxmoxTaskListEntry | undefined, runningInList: boolean): Promise<void> {
    const started = Date.now();
    let status: ProxmoxTaskStatus;
    try {
      const timeoutMs = Math.max(1, Math.min(w.deadline - started, w.opts.readTimeoutMs ?? READ_TIMEOUT_MS));
      status = await this.reader.status(w.upid, { signal: w.opts.signal, timeoutMs, retries: 0 });
    } catch (e) {
      if (this.waiters.get(w.upid) !== w) return;
      const notShownYet = e instanceof ProxmoxError && e.isNoSuchTask && Date.now() - w.waitStart < (w.opts.noSuchTaskGraceMs ?? 5_000);
      if (!notShownYet && !(e instanceof ProxmoxError && e.isTransient)) return w.settle({ error: e });
      if (runningInList) this.report(w, this.listedStatus(w));
      return;
    }
    if (this.waiters.get(w.upid) !== w) return;
    this.report(w, status);
    if (status.status === 'stopped') {
      this.endedAt.set(w.upid, Date.now());
      const exitstatus = String(status.exitstatus ?? 'unknown');
      const { ok, warnings } = parseExitStatus(exitstatus);
      w.settle(ok ? { result: { upid: w.upid, exitstatus, warnings } } : { error: new ProxmoxTaskError(w.upid, exitstatus, parseUpid(w.upid).type) });
    } else if (!entry) {
      // Running, yet missing from a list read after it began: this list cannot show it.
      w.settle({ handOver: true });
    }
  }

  private lastSeenOf(w: Waiter): ProxmoxTaskStatus {
    return w.lastSeen ?? this.listedStatus(w);
  }

  private listedStatus(w: Waiter): ProxmoxTaskStatus {
    return { upid: w.upid, ...parseUpid(w.upid), status: 'running' };
  }

  /** Hands the status to the wait's onPoll; one that throws ends that wait (as with pollProxmoxTask), not the tick. */
  private report(w: Waiter, status: ProxmoxTaskStatus): void {
    w.lastSeen = status;
    try {
      w.opts.onPoll?.(status);
    } catch (e) {
      w.settle({ error: e });
    }
  }
}
