import { Router } from 'express';
import type { z } from 'zod';
import type { OrphanGuest } from '../../generated/prisma/client';
import { destroyOrphan, forgetOrphan, listOrphans } from '../../services/orphans';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { listHandler, pathParam, send } from '../http';
import { registerRoute } from '../openapi';
import { listOrphansQuery, orphanView } from '../schemas/reconcile';

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

function toOrphanView(row: OrphanGuest): z.infer<typeof orphanView> {
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
  router.get('/orphans', listHandler((page, query) => listOrphans(deps, page, query), toOrphanView, listOrphansQuery));
  router.post('/orphans/:id/destroy', async (req, res) => {
    send(res, toOrphanView(await destroyOrphan(deps, principal(req), pathParam(req, 'id'))), {}, 202);
  });
  router.post('/orphans/:id/forget', async (req, res) => {
    send(res, toOrphanView(await forgetOrphan(deps, principal(req), pathParam(req, 'id'))));
  });
  return router;
}
