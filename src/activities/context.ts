import { Context } from '@temporalio/activity';
import type { Db } from '../db/client';
import { fail, FailureType } from './failures';

export interface InstanceRef {
  instanceId: string;
  taskId: string;
}

/** Everything a provisioning step needs to know about its instance, read fresh on every attempt. */
export async function loadInstance(db: Db, instanceId: string) {
  const instance = await db.instance.findUnique({
    where: { id: instanceId },
    include: {
      plan: true,
      image: { include: { templates: true } },
      connection: true,
      location: { include: { ipPools: true } },
      addresses: { include: { pool: true } },
      vmidReservation: true,
      volumes: true,
    },
  });
  if (!instance) throw fail(FailureType.InconsistentState, `instance ${instanceId} does not exist`);
  return instance;
}

export type LoadedInstance = Awaited<ReturnType<typeof loadInstance>>;

/** The guest's coordinates; every stage after scheduling needs them. */
export function placement(instance: LoadedInstance): { node: string; vmid: number } {
  if (!instance.node || instance.vmid === null) {
    throw fail(FailureType.InconsistentState, `instance ${instance.id} has no node or VMID`);
  }
  return { node: instance.node, vmid: instance.vmid };
}

/** Heartbeat when running inside an activity (tests may call activity functions directly). */
export function heartbeat(details?: unknown): void {
  try {
    Context.current().heartbeat(details);
  } catch {
    // Not inside an activity: nothing to tell the server.
  }
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
