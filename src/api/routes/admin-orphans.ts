import { Router } from 'express';
import type { z } from 'zod';
import { AppError, notFound } from '../../domain/errors';
import type { OrphanGuest } from '../../generated/prisma/client';
import { startDestroyOrphan } from '../../temporal/starts';
import { destroyOrphanWorkflowId } from '../../temporal/workflow-ids';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { listHandler, pathParam, send } from '../http';
import { registerRoute } from '../openapi';
import { listOrphansQuery, orphanView } from '../schemas/reconcile';
import { recordAudit, type PlatformAuditAction } from '../../db/audit';

const tags = ['admin: orphans'];
registerRoute({
  method: 'get',
  path: '/v1/admin/orphans',
  summary: 'List guests that carry our ownership marker but have no live server, newest first',
  tags,
  admin: true,
  request: { query: listOrphansQuery },
  response: orphanView,
  list: true,
});
registerRoute({
  method: 'post',
  path: '/v1/admin/orphans/:id/destroy',
  summary: 'Stop and destroy an orphan guest, confirmed against Proxmox (only while it still carries the same marker and has no live server)',
  tags,
  admin: true,
  response: orphanView,
  status: 202,
  errors: ['NOT_FOUND', 'INVALID_STATE', 'PROVIDER_UNAVAILABLE'],
});
registerRoute({
  method: 'post',
  path: '/v1/admin/orphans/:id/forget',
  summary: 'Leave an orphan guest alone: the record closes and the reconciler does not list that guest again',
  tags,
  admin: true,
  response: orphanView,
  errors: ['NOT_FOUND', 'INVALID_STATE', 'OPERATION_IN_PROGRESS'],
});

export function toOrphanView(row: OrphanGuest): z.infer<typeof orphanView> {
  return {
    id: row.id,
    connectionId: row.connectionId,
    node: row.node,
    vmid: row.vmid,
    name: row.name,
    ownerInstanceId: row.ownerInstanceId,
    reason: row.reason as z.infer<typeof orphanView>['reason'],
    status: row.status,
    workflowId: row.workflowId,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
  };
}

/** Orphan guests found by the reconciler, and the two things an operator can decide about one. */
export function adminOrphansRouter(deps: ApiDeps): Router {
  const router = Router();
  const { db } = deps;

  router.get(
    '/orphans',
    listHandler(
      (page, query) =>
        db.orphanGuest.findMany({ ...page, where: { AND: [page.where, { ...(query.status ? { status: query.status } : {}), ...(query.connectionId ? { connectionId: query.connectionId } : {}) }] } }),
      toOrphanView,
      listOrphansQuery,
    ),
  );

  /** Moves an open orphan on under its row lock; the answer says what it was when it could not. */
  const transition = (id: string, decide: (row: OrphanGuest) => Partial<OrphanGuest> | null, action: PlatformAuditAction, actorUserId: string) =>
    db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM orphan_guests WHERE id = ${id} FOR UPDATE`;
      const row = await tx.orphanGuest.findUnique({ where: { id } });
      if (!row) throw notFound('orphan');
      const change = decide(row);
      if (!change) return { row, changed: false };
      const updated = await tx.orphanGuest.update({ where: { id }, data: change });
      await recordAudit(tx, { action, actorUserId, details: { orphanId: id, connectionId: row.connectionId, vmid: row.vmid, ownerInstanceId: row.ownerInstanceId } });
      return { row: updated, changed: true };
    });

  const notOpen = (row: OrphanGuest) => new AppError('INVALID_STATE', `This orphan is ${row.status}.`, { status: row.status });

  router.post('/orphans/:id/destroy', async (req, res) => {
    const id = pathParam(req, 'id');
    const workflowId = destroyOrphanWorkflowId(id);
    const { row, changed } = await transition(
      id,
      (row) => {
        if (row.status === 'destroying') return null;
        if (row.status !== 'open') throw notOpen(row);
        return { status: 'destroying', workflowId, lastError: null };
      },
      'orphan.destroy_requested',
      principal(req).userId,
    );
    if (changed) {
      try {
        await startDestroyOrphan(deps.temporal, deps.config, id);
      } catch (error) {
        deps.logger.error({ err: error, orphanId: id }, 'could not start the orphan destroy');
        await db.orphanGuest.updateMany({ where: { id, status: 'destroying' }, data: { status: 'open', workflowId: null } });
        throw new AppError('PROVIDER_UNAVAILABLE', 'The service that removes guests is unavailable; nothing was changed. Please try again.');
      }
    }
    send(res, toOrphanView(row), {}, 202);
  });

  router.post('/orphans/:id/forget', async (req, res) => {
    const { row } = await transition(
      pathParam(req, 'id'),
      (row) => {
        if (row.status === 'destroying') throw new AppError('OPERATION_IN_PROGRESS', 'This orphan is being destroyed.', { status: row.status });
        if (row.status !== 'open') throw notOpen(row);
        return { status: 'forgotten', openKey: null, resolvedAt: new Date(), resolvedBy: principal(req).userId };
      },
      'orphan.forgotten',
      principal(req).userId,
    );
    send(res, toOrphanView(row));
  });

  return router;
}
