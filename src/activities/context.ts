import { Context } from '@temporalio/activity';
import type { Db } from '../db/client';
import { readStageInstance, type StageInstance, type StageRelations } from '../db/stage-reads';
import { fail, FailureType } from './failures';

export interface InstanceRef {
  instanceId: string;
  taskId: string;
}

/** Relations a stage may ask loadInstance for besides the connection; all come in the same statement. */
export type InstanceRelations = StageRelations;

export type LoadedInstance<R extends InstanceRelations = Record<never, never>> = StageInstance<R>;

/** The addresses with their pools (gateway, DNS, bridge), for the stages that write the network. */
export const WITH_ADDRESSES = { addresses: { include: { pool: true } } } as const satisfies InstanceRelations;

/**
 * An instance with its Proxmox connection (every stage talks to Proxmox) and the relations the
 * stage names, read fresh on every attempt, in one statement.
 */
export async function loadInstance<const R extends InstanceRelations = Record<never, never>>(db: Db, instanceId: string, relations?: R): Promise<LoadedInstance<R>> {
  const instance = await readStageInstance(db, instanceId, relations);
  if (!instance) throw fail(FailureType.InconsistentState, `instance ${instanceId} does not exist`);
  return instance;
}

/** The guest's coordinates; every stage after scheduling needs them. */
export function placement(instance: Pick<LoadedInstance, 'id' | 'node' | 'vmid'>): { node: string; vmid: number } {
  if (!instance.node || instance.vmid === null) {
    throw fail(FailureType.InconsistentState, `instance ${instance.id} has no node or VMID`);
  }
  return { node: instance.node, vmid: instance.vmid };
}

/** Heartbeat when running inside an activity (tests may call activity functions directly). */
export function heartbeat(details?: unknown): void {
  heartbeatOfThisActivity()(details);
}

/**
 * A heartbeat bound to the activity running now. Callbacks that run later from shared machinery
 * (the per-node task watcher's timer) carry another async context, where `heartbeat()` would
 * find another activity, or none, and this one would time out.
 */
export function heartbeatOfThisActivity(): (details?: unknown) => void {
  let context: Context | undefined;
  try {
    context = Context.current();
  } catch {
    // Not inside an activity (tests may call activity functions directly): nothing to tell the server.
    return () => undefined;
  }
  return (details) => context.heartbeat(details);
}

/**
 * `activity` heartbeating on a timer (three beats per heartbeat timeout) while it runs: a worker
 * that dies mid-attempt stops beating, and the server retries the attempt elsewhere once the
 * heartbeat timeout has passed instead of waiting out the attempt's whole start-to-close timeout.
 * Without a heartbeat timeout (or outside an activity) it just runs.
 */
export function whileHeartbeating<A extends unknown[], R>(activity: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    let context: Context | undefined;
    try {
      context = Context.current();
    } catch {
      return activity(...args);
    }
    const timeoutMs = context.info.heartbeatTimeoutMs;
    if (!timeoutMs) return activity(...args);
    const beat = () => context.heartbeat();
    beat();
    const timer = setInterval(beat, Math.max(100, Math.floor(timeoutMs / 3)));
    try {
      return await activity(...args);
    } finally {
      clearInterval(timer);
    }
  };
}

export function cancellationSignal(): AbortSignal | undefined {
  try {
    return Context.current().cancellationSignal;
  } catch {
    return undefined;
  }
}

/** This activity's attempt number (1 outside an activity, e.g. when tests call it directly). */
export function activityAttempt(): number {
  try {
    return Context.current().info.attempt;
  } catch {
    return 1;
  }
}
