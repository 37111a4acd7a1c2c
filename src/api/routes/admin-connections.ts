import type { Router } from 'express';
import { readConnectionHealth } from '../../services/catalog/connection-health';
import { createConnection, listConnections, moveConnectionVmidRange, updateConnection } from '../../services/catalog/connections';
import { principal } from '../auth';
import { adminConnectionDetailView, adminConnectionView } from '../catalog-views';
import type { ApiDeps } from '../deps';
import { adminCollectionRouter, parseBody, pathParam, send } from '../http';
import { createConnectionRequestSchema, updateConnectionSchema, vmidRangeSchema } from '../schemas/connections';

/** Proxmox VE connections, their health and VMID ranges, under /v1/admin (the operator's: route-actions.ts) (services/catalog/connections.ts, connection-health.ts). */
export function adminConnectionsRouter(deps: ApiDeps): Router {
  const router = adminCollectionRouter('/connections', {
    create: [createConnectionRequestSchema, (actorUserId, body) => createConnection(deps, actorUserId, body)],
    list: (page, archived) => listConnections(deps, page, archived),
    update: [updateConnectionSchema, (actorUserId, id, body) => updateConnection(deps, actorUserId, id, body)],
    view: adminConnectionView,
  });

  // Never a 5xx for the cluster's sake: what Proxmox VE does not answer is in `health`.
  router.get('/connections/:id', async (req, res) => {
    const { connection, health } = await readConnectionHealth(deps, pathParam(req, 'id'));
    send(res, adminConnectionDetailView(connection, health));
  });

  router.put('/connections/:id/vmid-range', async (req, res) => {
    const range = parseBody(vmidRangeSchema, req);
    const id = pathParam(req, 'id');
    send(res, adminConnectionView(await moveConnectionVmidRange(deps, principal(req).userId, id, range)));
  });

  return router;
}
