import { Router } from 'express';
import { addNode, deleteNode, updateNode } from '../../services/catalog/nodes';
import { principal } from '../auth';
import { adminNodeView } from '../catalog-views';
import type { ApiDeps } from '../deps';
import { parseBody, pathParam, send } from '../http';
import { nodeSpecSchema, updateNodeSchema } from '../schemas/nodes';

/** The nodes of a connection, under /v1/admin (the operator's: route-actions.ts) (services/catalog/nodes.ts). */
export function adminNodesRouter(deps: ApiDeps): Router {
  const router = Router();

  router.patch('/connections/:id/nodes/:node', async (req, res) => {
    const body = parseBody(updateNodeSchema, req);
    const connectionId = pathParam(req, 'id');
    const name = pathParam(req, 'node');
    send(res, adminNodeView(await updateNode(deps, principal(req).userId, connectionId, name, body)));
  });

  router.post('/connections/:id/nodes', async (req, res) => {
    const body = parseBody(nodeSpecSchema, req);
    const connectionId = pathParam(req, 'id');
    send(res, adminNodeView(await addNode(deps, principal(req).userId, connectionId, body)), {}, 201);
  });

  router.delete('/connections/:id/nodes/:node', async (req, res) => {
    const connectionId = pathParam(req, 'id');
    const name = pathParam(req, 'node');
    await deleteNode(deps, principal(req).userId, connectionId, name);
    res.status(204).end();
  });

  return router;
}
