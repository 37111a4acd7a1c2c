import { setTimeout as sleep } from 'node:timers/promises';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { AppError } from '../domain/errors';
import { newId } from '../security/ids';
import { parse } from './http';
import { sequenceSchema } from './openapi';

const POLL_MS = 250;

/** Why a stream ended, in its `event: close`; every reason but `task_ended` and `parked` invites a reconnect with Last-Event-ID. */
export type CloseReason = 'task_ended' | 'parked' | 'max_duration' | 'shutting_down';

export interface StreamDeps {
  db: Db;
  config: Config;
  /** Aborted when the process is stopping: open streams end with reason `shutting_down`. */
  stopping?: AbortSignal;
}

/**
 * Takes one of the token's stream slots, counted in PostgreSQL so the limit holds across API
 * replicas (an advisory lock per token serializes the count). A full house is 429 RATE_LIMITED;
 * Retry-After says when the oldest of the token's streams reaches its maximum duration.
 */
async function acquireStreamLease(deps: StreamDeps, tokenId: string): Promise<string> {
  const { EVENT_STREAMS_PER_TOKEN: limit, EVENT_STREAM_MAX_SECONDS: maxSeconds } = deps.config;
  return deps.db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`event-stream:${tokenId}`}))`;
    const now = new Date();
    await tx.eventStreamLease.deleteMany({ where: { tokenId, expiresAt: { lte: now } } });
    const open = await tx.eventStreamLease.findMany({ where: { tokenId }, orderBy: { startedAt: 'asc' }, select: { startedAt: true } });
    if (open.length >= limit) {
      const oldest = open[0]?.startedAt.getTime() ?? now.getTime();
      throw new AppError('RATE_LIMITED', `At most ${limit} event streams may be open at once for one token.`, {
        retryAfterSeconds: Math.max(1, Math.ceil((oldest + maxSeconds * 1000 - now.getTime()) / 1000)),
      });
    }
    const id = newId('sse');
    await tx.eventStreamLease.create({ data: { id, tokenId, startedAt: now, expiresAt: leaseExpiry(deps.config) } });
    return id;
  });
}

/** A lease is renewed every heartbeat interval and outlives a few missed renewals; one left by a process that died expires soon after. */
const leaseExpiry = (config: Config) => new Date(Date.now() + 3 * config.EVENT_STREAM_HEARTBEAT_SECONDS * 1000);

/** `Last-Event-ID`: the `id:` of the last step the client saw (a bigint, as the step's sequence). */
export const lastEventIdHeader = z.object({ 'Last-Event-ID': sequenceSchema.optional() });

/**
 * Server-sent events for one task: replays its step thread, then follows it by polling the
 * database (any API replica can serve any stream). `Last-Event-ID` resumes after the last step
 * a client saw; a `: ping` comment after each heartbeat interval without an event keeps proxies
 * from cutting a quiet stream. It ends with
 * `event: close` and data `{ reason, … }`: the task ended (`status` is its end), the
 * instance parked for an operator (`rollback_failed`), the stream reached its maximum duration,
 * or the API is shutting down.
 */
export async function streamTaskEvents(deps: StreamDeps, tokenId: string, taskId: string, req: Request, res: Response): Promise<void> {
  const { db, config } = deps;
  // A bad header is the caller's mistake: answered 400 before the stream (and its lease) starts.
  const resumeFrom = parse(lastEventIdHeader, { 'Last-Event-ID': req.header('last-event-id') }, 'Last-Event-ID header')['Last-Event-ID'];
  const leaseId = await acquireStreamLease(deps, tokenId);
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
      const task = await db.task.findUnique({ where: { id: taskId }, select: { status: true, instance: { select: { status: true } } } });
      const steps = await db.taskStep.findMany({ where: { taskId, id: { gt: lastId } }, orderBy: { id: 'asc' } });
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
        await db.eventStreamLease.updateMany({ where: { id: leaseId }, data: { expiresAt: leaseExpiry(config) } });
        nextRenewal = Date.now() + heartbeatMs;
      }
      await sleep(POLL_MS, undefined, { signal: ended.signal }).catch(() => undefined);
    }
  } finally {
    res.off('close', end);
    deps.stopping?.removeEventListener('abort', end);
    await db.eventStreamLease.delete({ where: { id: leaseId } }).catch(() => undefined);
    res.end();
  }
}
