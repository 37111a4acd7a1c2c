import { setTimeout as sleep } from 'node:timers/promises';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { ServiceDeps } from '../services/deps';
import { readTaskProgress, releaseStreamLease, renewStreamLease, takeStreamLease } from '../services/event-streams';
import { parse } from './http';
import { sequenceSchema } from './openapi';

const POLL_MS = 250;

/** Why a stream ended, in its `event: close`; every reason but `task_ended` and `parked` invites a reconnect with Last-Event-ID. */
export type CloseReason = 'task_ended' | 'parked' | 'max_duration' | 'shutting_down' | 'access_lost';

export interface StreamDeps extends Pick<ServiceDeps, 'db' | 'config'> {
  /** Aborted when the process is stopping: open streams end with reason `shutting_down`. */
  stopping?: AbortSignal;
}

/** Asked at every heartbeat: whether the caller may still read the stream (a revoked grant ends it with `access_lost`). */
export type StillAllowed = () => Promise<boolean>;

/** `Last-Event-ID`: the `id:` of the last step the client saw (a bigint, as the step's sequence). */
export const lastEventIdHeader = z.object({ 'Last-Event-ID': sequenceSchema.optional() });

/**
 * Server-sent events for one task: replays its step thread, then follows it by polling the
 * database (any API replica can serve any stream). `Last-Event-ID` resumes after the last step
 * a client saw; a `: ping` comment after each heartbeat interval without an event keeps proxies
 * from cutting a quiet stream. It ends with
 * `event: close` and data `{ reason, … }`: the task ended (`status` is its end), the
 * instance parked for an operator (`rollback_failed`), the stream reached its maximum duration,
 * the API is shutting down, or the caller may no longer read the server (`access_lost`).
 */
export async function streamTaskEvents(deps: StreamDeps, tokenId: string, taskId: string, req: Request, res: Response, stillAllowed: StillAllowed): Promise<void> {
  const { config } = deps;
  // A bad header is the caller's mistake: answered 400 before the stream (and its lease) starts.
  const resumeFrom = parse(lastEventIdHeader, { 'Last-Event-ID': req.header('last-event-id') }, 'Last-Event-ID header')['Last-Event-ID'];
  const leaseId = await takeStreamLease(deps, tokenId);
  const ended = new AbortController();
  const end = () => ended.abort();
  res.on('close', end);
  deps.stopping?.addEventListener('abort', end);
  // A client gone while its lease was taken closed before anyone listened: without this check its
  // stream would poll, and hold the token's slot, until its maximum duration.
  if (res.destroyed) end();
  try {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    const close = (data: { reason: CloseReason; status?: string; instanceStatus?: string }) => res.write(`event: close\ndata: ${JSON.stringify(data)}\n\n`);
    let lastId = resumeFrom === undefined ? -1n : BigInt(resumeFrom);
    const deadline = Date.now() + config.EVENT_STREAM_MAX_SECONDS * 1000;
    const heartbeatMs = config.EVENT_STREAM_HEARTBEAT_SECONDS * 1000;
    let nextPing = Date.now() + heartbeatMs;
    let nextRenewal = nextPing;

    for (;;) {
      if (deps.stopping?.aborted) {
        close({ reason: 'shutting_down' });
        break;
      }
      if (ended.signal.aborted) break;
      const { task, steps } = await readTaskProgress(deps, taskId, lastId);
      for (const step of steps) {
        res.write(`id: ${step.id}\ndata: ${JSON.stringify({ step: step.step, status: step.status, message: step.message })}\n\n`);
        lastId = step.id;
        nextPing = Date.now() + heartbeatMs;
      }
      // The steps were read after the status, so a terminal status means nothing more will come.
      if (!task || task.status === 'succeeded' || task.status === 'failed') {
        close({ reason: 'task_ended', status: task?.status ?? 'unknown' });
        break;
      }
      if (task.instance.status === 'rollback_failed') {
        close({ reason: 'parked', instanceStatus: task.instance.status });
        break;
      }
      if (Date.now() >= deadline) {
        close({ reason: 'max_duration' });
        break;
      }
      if (Date.now() >= nextPing) {
        res.write(': ping\n\n');
        nextPing = Date.now() + heartbeatMs;
      }
      if (Date.now() >= nextRenewal) {
        if (!(await stillAllowed())) {
          close({ reason: 'access_lost' });
          break;
        }
        await renewStreamLease(deps, leaseId);
        nextRenewal = Date.now() + heartbeatMs;
      }
      await sleep(POLL_MS, undefined, { signal: ended.signal }).catch(() => undefined);
    }
  } finally {
    res.off('close', end);
    deps.stopping?.removeEventListener('abort', end);
    await releaseStreamLease(deps, leaseId);
    res.end();
  }
}
