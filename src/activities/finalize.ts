import { finishTask, recordStep } from '../db/tasks';
import type { InstanceRef } from './context';
import type { ActivityDeps } from './deps';

/**
 * finalize: the reservations become the instance's for good, all in one transaction.
 * Converges on retry: every update is conditional on the state it moves from.
 */
export function createFinalizeActivity(deps: ActivityDeps) {
  return async function finalizeInstance({ instanceId, taskId }: InstanceRef): Promise<void> {
    const ttlMs = deps.config.CREDENTIAL_TTL_HOURS * 3_600_000;
    await deps.db.$transaction(async (tx) => {
      await tx.vmidReservation.updateMany({ where: { instanceId, state: 'reserved' }, data: { state: 'assigned' } });
      await tx.ipAddress.updateMany({ where: { instanceId, state: 'reserved' }, data: { state: 'assigned' } });
      await tx.nodeAllocation.updateMany({ where: { instanceId, state: 'reserved' }, data: { state: 'allocated' } });
      await tx.volume.updateMany({ where: { instanceId, status: 'pending' }, data: { status: 'ready' } });
      // The reveal window starts when the server is usable.
      await tx.credential.updateMany({ where: { instanceId, revealedAt: null }, data: { expiresAt: new Date(Date.now() + ttlMs) } });
      await tx.instance.updateMany({
        where: { id: instanceId, status: 'provisioning' },
        data: { status: 'running', desiredState: 'running', failureCode: null, failureMessage: null },
      });
      await recordStep(tx, { taskId, step: 'finalize > finishing', status: 'success', message: 'The server is ready.', progress: 100 });
      await finishTask(tx, taskId, { status: 'succeeded' });
    });
  };
}
