/**
 * Waiting for Proxmox tasks (UPIDs) to finish.
 */
import { abortReason, delay } from './delay';
import { ProxmoxError, ProxmoxTaskError, ProxmoxTaskTimeoutError } from './errors';
import { parseExitStatus, parseUpid } from './upid';
import type { TaskStatus } from './client';

export interface TaskResult {
  upid: string;
  exitstatus: string;
  /** N from "WARNINGS: N"; 0 for "OK". */
  warnings: number;
}

export interface WaitForTaskOptions {
  signal?: AbortSignal;
  /** Delay between polls; default 500 ms. */
  pollIntervalMs?: number;
  /** Overall budget; default 10 minutes. */
  timeoutMs?: number;
  /** Called with every status read. */
  onPoll?: (status: TaskStatus) => void;
  /** How many "no such task" answers to tolerate right after creation; default 5. */
  noSuchTaskRetries?: number;
}

export interface TaskStatusReader {
  taskStatus(upid: string, call?: { signal?: AbortSignal; timeoutMs?: number }): Promise<TaskStatus>;
}

/**
 * Polls `GET /nodes/<node from UPID>/tasks/<upid>/status` until the task stops.
 * - "OK" and "WARNINGS: N" are success (warnings surfaced);
 * - any other exit status throws ProxmoxTaskError carrying the exit text;
 * - a brief "no such task" right after creation is tolerated;
 * - transient read failures are retried until the deadline;
 * - throws ProxmoxTaskTimeoutError past `timeoutMs`, and the signal's reason on abort.
 */
export async function waitForTask(client: TaskStatusReader, upid: string, opts: WaitForTaskOptions = {}): Promise<TaskResult> {
  const parsed = parseUpid(upid);
  const pollIntervalMs = opts.pollIntervalMs ?? 500;
  const timeoutMs = opts.timeoutMs ?? 600_000;
  const noSuchTaskRetries = opts.noSuchTaskRetries ?? 5;
  const { signal } = opts;
  const deadline = Date.now() + timeoutMs;
  let noSuchTask = 0;
  let lastStatus: string | undefined;

  for (;;) {
    if (signal?.aborted) throw abortReason(signal);
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new ProxmoxTaskTimeoutError(upid, timeoutMs, lastStatus);
    let status: TaskStatus | undefined;
    try {
      status = await client.taskStatus(upid, { signal, timeoutMs: Math.max(1, remaining) });
    } catch (e) {
      if (signal?.aborted) throw abortReason(signal);
      if (e instanceof ProxmoxError && e.isNoSuchTask && noSuchTask < noSuchTaskRetries) {
        noSuchTask++;
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
    const wait = Math.min(pollIntervalMs, deadline - Date.now());
    if (wait > 0) await delay(wait, signal);
  }
}
