/**
 * Waiting for one Proxmox task (UPID) to finish by reading its status: what a node's task watcher
 * (task-watcher.ts) hands a task over to when the node's task list cannot show it.
 */
import { abortReason, delay } from './delay';
import { ProxmoxError, ProxmoxTaskError, ProxmoxTaskTimeoutError } from './errors';
import { parseExitStatus, parseUpid } from './upid';
import type { ProxmoxTaskListEntry, ProxmoxTaskStatus } from './tasks';

export interface ProxmoxTaskResult {
  upid: string;
  exitstatus: string;
  /** N from "WARNINGS: N"; 0 for "OK". */
  warnings: number;
}

export interface WaitForProxmoxTaskOptions {
  signal?: AbortSignal;
  /** Ceiling of the delay between status reads; default 500 ms. */
  pollIntervalMs?: number;
  /** Overall budget; default 10 minutes. */
  timeoutMs?: number;
  /** Called with every status read. */
  onPoll?: (status: ProxmoxTaskStatus) => void;
  /**
   * How long one read may take before it is given up and made again at the next look; default
   * READ_TIMEOUT_MS. A read that never answers then delays the wait by this, not by its deadline.
   */
  readTimeoutMs?: number;
  /** How long after the wait began a "no such task" answer is taken for a task not shown yet; default 5 s. */
  noSuchTaskGraceMs?: number;
  /**
   * The task was not started just now (a UPID an earlier attempt recorded, or a task found
   * running): it is read at once, and its age, from the UPID's start time, paces the next reads.
   */
  resumed?: boolean;
}

/** Per-read options: `retries: 0`, since a waiter reads again on its own schedule. */
export interface TaskReadCall {
  signal?: AbortSignal;
  timeoutMs?: number;
  retries?: number;
}

/**
 * Is a task list entry a running task? `source=active` also lists tasks that ended a moment ago,
 * with their exit status and end time; a running one has status "RUNNING" and no end time.
 */
export function listedRunning(entry: ProxmoxTaskListEntry | undefined): boolean {
  return entry !== undefined && entry.endtime === undefined && (entry.status === undefined || entry.status === 'RUNNING');
}

export interface ProxmoxTaskStatusReader {
  status(upid: string, call?: TaskReadCall): Promise<ProxmoxTaskStatus>;
}

/** Proxmox answers a task read in milliseconds; one taking this long is given up (see `readTimeoutMs`). */
export const READ_TIMEOUT_MS = 10_000;

/** The first read of a task just created (most configuration tasks end within tens of ms), and the shortest gap between two reads. */
export const MIN_READ_GAP_MS = 25;

/**
 * The wait before the next read: half the task's age, so that a task is seen done at most half
 * its run time late, within [MIN_READ_GAP_MS, ceiling] (the ceiling bounds the reads of long tasks).
 */
function nextPollDelay(taskAgeMs: number, ceilingMs: number): number {
  return Math.min(ceilingMs, Math.max(MIN_READ_GAP_MS, Math.round(taskAgeMs / 2)));
}

/**
 * Polls `GET /nodes/<node from UPID>/tasks/<upid>/status` until the task stops, first
 * MIN_READ_GAP_MS after the wait began (at once for a `resumed` task), then every half of the
 * task's age, at most every `pollIntervalMs`.
 * - "OK" and "WARNINGS: N" are success (warnings surfaced);
 * - any other exit status throws ProxmoxTaskError carrying the exit text;
 * - "no such task" within `noSuchTaskGraceMs` of the wait's start is tolerated (a new task
 *   can take a moment to show up), later it is thrown;
 * - each read is given up after `readTimeoutMs`; transient read failures are retried until the deadline;
 * - throws ProxmoxTaskTimeoutError past `timeoutMs`, and the signal's reason on abort.
 *
 * `waitStart` is when the wait began: a wait a node's task watcher hands over keeps its deadline
 * and its "no such task" window.
 */
export async function pollProxmoxTask(
  reader: ProxmoxTaskStatusReader,
  upid: string,
  opts: WaitForProxmoxTaskOptions = {},
  waitStart = Date.now(),
): Promise<ProxmoxTaskResult> {
  const parsed = parseUpid(upid);
  const ceilingMs = opts.pollIntervalMs ?? 500;
  const timeoutMs = opts.timeoutMs ?? 600_000;
  const noSuchTaskGraceMs = opts.noSuchTaskGraceMs ?? 5_000;
  const { signal } = opts;
  const deadline = waitStart + timeoutMs;
  // The UPID's start time has second resolution and the node's clock: good enough for a task
  // that ran a while, never used for one just created.
  const taskStart = opts.resumed ? Math.min(waitStart, parsed.starttime * 1000) : waitStart;
  let lastStatus: string | undefined;

  let wait = opts.resumed ? 0 : Math.min(MIN_READ_GAP_MS, ceilingMs);
  for (;;) {
    if (wait > 0) await delay(wait, signal);
    if (signal?.aborted) throw abortReason(signal);
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new ProxmoxTaskTimeoutError(upid, timeoutMs, lastStatus);
    let status: ProxmoxTaskStatus | undefined;
    try {
      status = await reader.status(upid, { signal, timeoutMs: Math.max(1, Math.min(remaining, opts.readTimeoutMs ?? READ_TIMEOUT_MS)), retries: 0 });
    } catch (e) {
      if (signal?.aborted) throw abortReason(signal);
      if (e instanceof ProxmoxError && e.isNoSuchTask && Date.now() - waitStart < noSuchTaskGraceMs) {
        // not shown yet
      } else if (e instanceof ProxmoxError && e.isTransient) {
        // keep polling until the deadline
      } else {
        throw e;
      }
    }
    if (status) {
      lastStatus = status.status;
      opts.onPoll?.(status);
      if (status.status === 'stopped') {
        const exitstatus = String(status.exitstatus ?? 'unknown');
        const { ok, warnings } = parseExitStatus(exitstatus);
        if (!ok) throw new ProxmoxTaskError(upid, exitstatus, parsed.type);
        return { upid, exitstatus, warnings };
      }
    }
    const now = Date.now();
    wait = Math.min(nextPollDelay(now - taskStart, ceilingMs), deadline - now);
  }
}
