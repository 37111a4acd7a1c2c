import { appendBackupEvent } from '../db/guest-data';
import { becameRunning } from '../db/instance-state';
import { commitHoldings } from '../db/reservations';
import { runSql, sqlTransaction } from '../db/client';
import { finishTask, recordStep } from '../db/tasks';
import { Prisma } from '../generated/prisma/client';
import type { InstanceRef } from './context';
import type { ActivityDeps } from './deps';
import { fail, FailureType } from './failures';

/**
 * finalize: the reservations become the instance's for good, all in one transaction; it also
 * ends a rebuild (and reports a server restored from a backup, `instance.restored`). An instance deleted meanwhile is not finalized: the stage fails so the
 * workflow rolls back (the instance row is locked first, so a concurrent delete either lands
 * before this check or sees a running instance).
 * Converges on retry: every update is conditional on the state it moves from.
 */
export function createFinalizeActivity(deps: ActivityDeps) {
  return async function finalizeInstance({ instanceId, taskId }: InstanceRef): Promise<void> {
    await sqlTransaction(deps.db, async (tx) => {
      const [row] = await runSql<{ desiredState: string; restoredFromBackupId: string | null }>(tx, Prisma.sql`
        SELECT "desiredState", "restoredFromBackupId" FROM instances WHERE id = ${instanceId} FOR UPDATE`);
      // Read once the row is locked: a finalize that committed meanwhile is seen.
      const [task] = await runSql<{ status: string }>(tx, Prisma.sql`SELECT status::text AS status FROM tasks WHERE id = ${taskId}`);
      if (task?.status === 'succeeded') return;
      if (row?.desiredState === 'deleted') throw fail(FailureType.DeleteRequested, `instance ${instanceId} was deleted while it was being made`);
      await commitHoldings(tx, instanceId, deps.config.CREDENTIAL_TTL_HOURS * 3_600_000);
      await becameRunning(tx, instanceId);
      // A server restored from a backup as a new server says so, as a restore in place does.
      if (row?.restoredFromBackupId) await appendBackupEvent(tx, instanceId, 'instance.restored', row.restoredFromBackupId);
      await recordStep(tx, { taskId, step: 'finalize > finishing', status: 'success', message: 'The server is ready.', progress: 100 });
      await finishTask(tx, taskId, { status: 'succeeded' });
    });
  };
}
