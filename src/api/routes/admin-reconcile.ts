import { Router } from 'express';
import { listEveryInstance, readProviderSide, type InstanceRow } from '../../services/instances';
import { reconcileInstance } from '../../services/reconcile';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { listHandler, pathParam, send } from '../http';
import { registerRoute } from '../openapi';
import { adminInstanceView } from '../schemas/instances';
import { adminInstanceListItem, adminListInstancesQuery, reconcileSummaryView } from '../schemas/reconcile';
import { toAdminInstanceView, toInstanceView } from '../views';

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
  summary: 'Reconcile one server with Proxmox now (power changed outside, guest lost or found again, a start never confirmed, its firewall changed outside)',
  tags,
  admin: true,
  response: adminInstanceView,
  meta: reconcileSummaryView.pick({ startedLate: true, guests: true, firewalls: true }).partial(),
  errors: ['NOT_FOUND', 'PROVIDER_PERMISSION_DENIED', 'PROVIDER_UNAVAILABLE'],
});

/** Operators' views of every server, and a reconcile of one on demand (run as a workflow: the API never calls Proxmox). */
export function adminReconcileRouter(deps: ApiDeps): Router {
  const router = Router();

  router.get(
    '/instances',
    listHandler(
      (page, query) => listEveryInstance(deps, page, query),
      (row: InstanceRow) => ({ ...toInstanceView(row), tenantId: row.tenantId, provider: { connectionId: row.connectionId, node: row.node, vmid: row.vmid } }),
      adminListInstancesQuery,
    ),
  );

  router.post('/instances/:id/reconcile', async (req, res) => {
    const id = pathParam(req, 'id');
    const summary = await reconcileInstance(deps, principal(req), id);
    const { instance, providerCalls } = await readProviderSide(deps, id);
    send(res, toAdminInstanceView(instance, providerCalls, instance.tasks[0]?.workflowId ?? ''), { startedLate: summary.startedLate, guests: summary.guests, ...(summary.firewalls ? { firewalls: summary.firewalls } : {}) });
  });

  return router;
}
