import type { Router } from 'express';
import { createConnection, listConnections, moveConnectionVmidRange, updateConnection } from '../../services/catalog/connections';
import { principal } from '../auth';
import { adminConnectionView } from '../catalog-views';
import type { ApiDeps } from '../deps';
import { adminCollectionRouter, parseBody, pathParam, send } from '../http';
import { createConnectionRequestSchema, updateConnectionSchema, vmidRangeSchema } from '../schemas/connections';

/** Proxmox VE connections and their VMID ranges, under /v1/admin behind requireAdmin (services/catalog/connections.ts). */
export function adminConnectionsRouter(deps: ApiDeps): Router {
  const router = adminCollectionRouter('/connections', {
    create: [createConnectionRequestSchema, (actorUserId, body) => createConnection(deps, actorUserId, body)],
    list: (page, archived) => listConnections(deps, page, archived),
    update: [updateConnectionSchema, (actorUserId, id, body) => updateConnection(deps, actorUserId, id, body)],
    view: adminConnectionView,
  });

  router.put('/connections/:id/vmid-range', async (req, res) => {
    const range = parseBody(vmidRangeSchema, req);
    const id = pathParam(req, 'id');
    send(res, adminConnectionView(await moveConnectionVmidRange(deps, principal(req).userId, id, range)));
  });

  return router;
}
