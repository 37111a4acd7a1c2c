import { Router } from 'express';
import type { Prisma } from '../../generated/prisma/client';
import { AppError } from '../../domain/errors';
import { FailureType, rootFailureType } from '../../domain/failure-types';
import { startInstanceReconcile } from '../../temporal/starts';
import type { ReconcileSummary } from '../../workflows/reconcile';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { listHandler, pathParam, send } from '../http';
import { registerRoute } from '../openapi';
import { adminInstanceView } from '../schemas/instances';
import { adminInstanceListItem, adminListInstancesQuery, reconcileSummaryView } from '../schemas/reconcile';
import { instanceInclude, toAdminInstanceView, toInstanceView, type InstanceRow } from '../views';
import { findInstance } from '../instance-lookup';
import { recordAudit } from '../../db/audit';

const tags = ['admin: instances'];
registerRoute({
  method: 'get',
  path: '/v1/admin/instances',
  summary: 'List every tenant’s servers, newest first, by status, tenant, connection or node',
  tags,
  admin: true,
  request: { query: adminListInstancesQuery },
  response: adminInstanceListItem,
  list: true,
});
registerRoute({
  method: 'post',
  path: '/v1/admin/instances/:id/reconcile',
  summary: 'Reconcile one server with Proxmox now (power changed outside, guest lost or found again, a start never confirmed)',
  tags,
  admin: true,
  response: adminInstanceView,
  meta: reconcileSummaryView.pick({ startedLate: true, guests: true }).partial(),
  errors: ['NOT_FOUND', 'PROVIDER_PERMISSION_DENIED', 'PROVIDER_UNAVAILABLE'],
});

const RECONCILE_DEADLINE_MS = 60_000;

/** Operators' views of every server, and a reconcile of one on demand (run as a workflow: the API never calls Proxmox). */
export function adminReconcileRouter(deps: ApiDeps): Router {
  const router = Router();
  const admin = { userId: '', role: 'admin' as const, tenantId: null };

  router.get(
    '/instances',
    listHandler(
      (page, query) => {
        const filters: Prisma.InstanceWhereInput = {
          ...(query.status ? { status: query.status } : {}),
          ...(query.tenantId ? { tenantId: query.tenantId } : {}),
          ...(query.connectionId ? { connectionId: query.connectionId } : {}),
          ...(query.node ? { node: query.node } : {}),
        };
        return deps.db.instance.findMany({ ...page, where: { AND: [page.where, filters] }, include: instanceInclude });
      },
      (row: InstanceRow) => ({ ...toInstanceView(row), tenantId: row.tenantId, provider: { connectionId: row.connectionId, node: row.node, vmid: row.vmid } }),
      adminListInstancesQuery,
    ),
  );

  router.post('/instances/:id/reconcile', async (req, res) => {
    const id = pathParam(req, 'id');
    const instance = await findInstance(deps.db, admin, id);
    let summary: ReconcileSummary;
    try {
      // Starting gets a short deadline of its own, so an unreachable Temporal is told at once.
      const handle = await startInstanceReconcile(deps.temporal, deps.config, { id, connectionId: instance.connectionId });
      summary = await deps.temporal.connection.withDeadline(Date.now() + RECONCILE_DEADLINE_MS, () => handle.result());
    } catch (error) {
      deps.logger.warn({ err: error, instanceId: id }, 'reconcile of one instance did not complete');
      if (rootFailureType(error) === FailureType.ProviderPermissionDenied) {
        throw new AppError('PROVIDER_PERMISSION_DENIED', "Proxmox VE refused the connection's API token a privilege the reconciler needs; see the minimal role in docs/security.md.");
      }
      throw new AppError('PROVIDER_UNAVAILABLE', 'The server could not be reconciled right now; the periodic reconciler will look at it again.');
    }
    await recordAudit(deps.db, { action: 'instance.reconcile_requested', actorUserId: principal(req).userId, tenantId: instance.tenantId, instanceId: id, details: summary.guests as unknown as Prisma.InputJsonValue });
    const row = await findInstance(deps.db, admin, id);
    const providerCalls = await deps.db.providerCall.findMany({ where: { instanceId: id }, orderBy: { createdAt: 'asc' } });
    send(res, toAdminInstanceView(row, providerCalls, row.tasks[0]?.workflowId ?? ''), { startedLate: summary.startedLate, guests: summary.guests });
  });

  return router;
}
