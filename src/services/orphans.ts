import { recordAudit, type PlatformAuditAction } from '../db/audit';
import { lockRow } from '../db/locks';
import { AppError, notFound } from '../domain/errors';
import type { OrphanGuest } from '../generated/prisma/client';
import type { OrphanStatus } from '../generated/prisma/enums';
import { startDestroyOrphan } from '../temporal/starts';
import { destroyOrphanWorkflowId } from '../temporal/workflow-ids';
import type { ServiceDeps } from './deps';
import type { PageArgs } from '../db/pages';
import type { Principal } from './principal';

/** One page of the guests the reconciler found with our marker and no live server, newest first. */
export function listOrphans(deps: Pick<ServiceDeps, 'db'>, page: PageArgs, filters: { status?: OrphanStatus; connectionId?: string }): Promise<OrphanGuest[]> {
  return deps.db.orphanGuest.findMany({
    ...page,
    where: { AND: [page.where, { ...(filters.status ? { status: filters.status } : {}), ...(filters.connectionId ? { connectionId: filters.connectionId } : {}) }] },
  });
}

/** Moves an open orphan on under its row lock; the answer says what it was when it could not. */
function transition(deps: Pick<ServiceDeps, 'db'>, id: string, decide: (row: OrphanGuest) => Partial<OrphanGuest> | null, action: PlatformAuditAction, actorUserId: string) {
  return deps.db.$transaction(async (tx) => {
    await lockRow(tx, 'orphan_guests', id);
    const row = await tx.orphanGuest.findUnique({ where: { id } });
    if (!row) throw notFound('orphan');
    const change = decide(row);
    if (!change) return { row, changed: false };
    const updated = await tx.orphanGuest.update({ where: { id }, data: change });
    await recordAudit(tx, { action, actorUserId, details: { orphanId: id, connectionId: row.connectionId, vmid: row.vmid, ownerInstanceId: row.ownerInstanceId } });
    return { row: updated, changed: true };
  });
}

const notOpen = (row: OrphanGuest) => new AppError('INVALID_STATE', `This orphan is ${row.status}.`, { status: row.status });

/**
 * An operator's destroy of an orphan guest: the record is `destroying` and its workflow
 * (DestroyOrphan) started; one already being destroyed is answered as it is. When the workflow
 * cannot start, the record is open again.
 */
export async function destroyOrphan(deps: Pick<ServiceDeps, 'db' | 'temporal' | 'config' | 'logger'>, who: Principal, id: string): Promise<OrphanGuest> {
  const workflowId = destroyOrphanWorkflowId(id);
  const { row, changed } = await transition(
    deps,
    id,
    (row) => {
      if (row.status === 'destroying') return null;
      if (row.status !== 'open') throw notOpen(row);
      return { status: 'destroying', workflowId, lastError: null };
    },
    'orphan.destroy_requested',
    who.userId,
  );
  if (changed) {
    try {
      await startDestroyOrphan(deps.temporal, deps.config, id);
    } catch (error) {
      deps.logger.error({ err: error, orphanId: id }, 'could not start the orphan destroy');
      await deps.db.orphanGuest.updateMany({ where: { id, status: 'destroying' }, data: { status: 'open', workflowId: null } });
      throw new AppError('PROVIDER_UNAVAILABLE', 'The service that removes guests is unavailable; nothing was changed. Please try again.');
    }
  }
  return row;
}

/** An operator leaves an orphan guest alone: the record closes and the reconciler does not list that guest again. */
export async function forgetOrphan(deps: Pick<ServiceDeps, 'db'>, who: Principal, id: string): Promise<OrphanGuest> {
  const { row } = await transition(
    deps,
    id,
    (row) => {
      if (row.status === 'destroying') throw new AppError('OPERATION_IN_PROGRESS', 'This orphan is being destroyed.', { status: row.status });
      if (row.status !== 'open') throw notOpen(row);
      return { status: 'forgotten', openKey: null, resolvedAt: new Date(), resolvedBy: who.userId };
    },
    'orphan.forgotten',
    who.userId,
  );
  return row;
}
