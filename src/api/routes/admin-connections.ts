import { Router } from 'express';
import { createConnection, listConnections, moveConnectionVmidRange, updateConnection } from '../../services/catalog/connections';
import { principal } from '../auth';
import { adminConnectionView } from '../catalog-views';
import type { ApiDeps } from '../deps';
import { adminListHandler, parseBody, pathParam, send } from '../http';
import { createConnectionRequestSchema, updateConnectionSchema, vmidRangeSchema } from '../schemas/connections';

/** Proxmox VE connections and their VMID ranges, under /v1/admin behind requireAdmin (services/catalog/connections.ts). */
export function adminConnectionsRouter(deps: ApiDeps): Router {
  const router = Router();

  router.post('/connections', async (req, res) => {
    const body = parseBody(createConnectionRequestSchema, req);
    send(res, adminConnectionView(await createConnection(deps, principal(req).userId, body)), {}, 201);
  });

  router.get('/connections', adminListHandler((page, archived) => listConnections(deps, page, archived), adminConnectionView));

  router.patch('/connections/:id', async (req, res) => {
    const body = parseBody(updateConnectionSchema, req);
    const id = pathParam(req, 'id');
    send(res, adminConnectionView(await updateConnection(deps, principal(req).userId, id, body)));
  });

  router.put('/connections/:id/vmid-range', async (req, res) => {
    const range = parseBody(vmidRangeSchema, req);
    const id = pathParam(req, 'id');
    send(res, adminConnectionView(await moveConnectionVmidRange(deps, principal(req).userId, id, range)));
  });

  return router;
}
