import { becameRunning } from '../db/instance-state';
import { finishTask, recordStep } from '../db/tasks';
import type { InstanceRef } from './context';
import type { ActivityDeps } from './deps';
import { fail, FailureType } from './failures';

/**
 * finalize: the reservations become the instance's for good, all in one transaction; it also
 * ends a rebuild. An instance deleted meanwhile is not finalized: the stage fails so the
 * workflow rolls back (the instance row is locked first, so a concurrent delete either lands
 * before this check or sees a running instance).
 * Converges on retry: every update is conditional on the state it moves from.
 */
export function createFinalizeActivity(deps: ActivityDeps) {
  return async function finalizeInstance({ instanceId, taskId }: InstanceRef): Promise<void> {
    const ttlMs = deps.config.CREDENTIAL_TTL_HOURS * 3_600_000;
    await deps.db.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<{ desiredState: string }[]>`SELECT "desiredState" FROM instances WHERE id = ${instanceId} FOR UPDATE`;
      const task = await tx.task.findUnique({ where: { id: taskId }, select: { status: true } });
      if (task?.status === 'succeeded') return;
      if (row?.desiredState === 'deleted') throw fail(FailureType.DeleteRequested, `instance ${instanceId} was deleted while it was being made`);
      // Every holding moves on in one statement; the reveal window starts when the server is usable.
      const now = new Date();
      await tx.$executeRaw`
        WITH vmid AS (UPDATE vmid_reservations SET state = 'assigned', "updatedAt" = ${now} WHERE "instanceId" = ${instanceId} AND state = 'reserved'),
        addresses AS (UPDATE ip_addresses SET state = 'assigned', "updatedAt" = ${now} WHERE "instanceId" = ${instanceId} AND state = 'reserved'),
        capacity AS (UPDATE node_allocations SET state = 'allocated', "updatedAt" = ${now} WHERE "instanceId" = ${instanceId} AND state = 'reserved'),
        volume AS (UPDATE volumes SET status = 'ready', "updatedAt" = ${now} WHERE "instanceId" = ${instanceId} AND status = 'pending')
        UPDATE credentials SET "expiresAt" = ${new Date(now.getTime() + ttlMs)} WHERE "instanceId" = ${instanceId} AND "revealedAt" IS NULL`;
      await becameRunning(tx, instanceId);
      await recordStep(tx, { taskId, step: 'finalize > finishing', status: 'success', message: 'The server is ready.', progress: 100 });
      await finishTask(tx, taskId, { status: 'succeeded' });
    });
  };
}
