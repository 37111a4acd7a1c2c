/**
 * What an event stream of a task reads and holds: its lease (a slot of the token's limit, counted
 * in PostgreSQL so it holds across API replicas) and the task's steps after the last one sent.
 * The stream itself (server-sent events) is the HTTP layer's: src/api/task-event-stream.ts.
 */
import type { Config } from '../config';
import { lockKey } from '../db/locks';
import { AppError } from '../domain/errors';
import type { TaskStep } from '../generated/prisma/client';
import { newId } from '../security/ids';
import type { ServiceDeps } from './deps';

type Deps = Pick<ServiceDeps, 'db' | 'config'>;

/** A lease is renewed every heartbeat interval and outlives a few missed renewals; one left by a process that died expires soon after. */
const leaseExpiry = (config: Pick<Config, 'EVENT_STREAM_HEARTBEAT_SECONDS'>) => new Date(Date.now() + 3 * config.EVENT_STREAM_HEARTBEAT_SECONDS * 1000);

/**
 * Takes one of the token's stream slots (an advisory lock per token serializes the count). A full
 * house is 429 RATE_LIMITED; Retry-After says when the oldest of the token's streams reaches its
 * maximum duration. Answers the lease's id.
 */
export async function takeStreamLease(deps: Deps, tokenId: string): Promise<string> {
  const { EVENT_STREAMS_PER_TOKEN: limit, EVENT_STREAM_MAX_SECONDS: maxSeconds } = deps.config;
  return deps.db.$transaction(async (tx) => {
    await lockKey(tx, `event-stream:${tokenId}`);
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

export async function renewStreamLease(deps: Deps, leaseId: string): Promise<void> {
  await deps.db.eventStreamLease.updateMany({ where: { id: leaseId }, data: { expiresAt: leaseExpiry(deps.config) } });
}

/** Gives the slot back; a lease already gone (expired and taken over) counts as given back. */
export async function releaseStreamLease(deps: Pick<ServiceDeps, 'db'>, leaseId: string): Promise<void> {
  await deps.db.eventStreamLease.delete({ where: { id: leaseId } }).catch(() => undefined);
}

export interface TaskProgress {
  /** The task's status and its server's (null: the task is gone). */
  task: { status: string; instance: { status: string } } | null;
  /** The steps after `afterStepId`, in order; read after the status, so a task that had ended has sent them all. */
  steps: TaskStep[];
}

export async function readTaskProgress(deps: Pick<ServiceDeps, 'db'>, taskId: string, afterStepId: bigint): Promise<TaskProgress> {
  const task = await deps.db.task.findUnique({ where: { id: taskId }, select: { status: true, instance: { select: { status: true } } } });
  const steps = await deps.db.taskStep.findMany({ where: { taskId, id: { gt: afterStepId } }, orderBy: { id: 'asc' } });
  return { task, steps };
}
