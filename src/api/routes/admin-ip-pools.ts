import { Router } from 'express';
import { createIpPool, listIpPools, updateIpPool } from '../../services/catalog/ip-pools';
import { principal } from '../auth';
import { adminIpPoolView } from '../catalog-views';
import type { ApiDeps } from '../deps';
import { adminListHandler, parseBody, pathParam, send } from '../http';
import { createIpPoolSchema, updateIpPoolSchema } from '../schemas/ip-pools';

/** IP pools, under /v1/admin behind requireAdmin (services/catalog/ip-pools.ts). */
export function adminIpPoolsRouter(deps: ApiDeps): Router {
  const router = Router();

  router.post('/ip-pools', async (req, res) => {
    const body = parseBody(createIpPoolSchema, req);
    send(res, adminIpPoolView(await createIpPool(deps, principal(req).userId, body)), {}, 201);
  });

  router.get('/ip-pools', adminListHandler((page, archived) => listIpPools(deps, page, archived), adminIpPoolView));

  router.patch('/ip-pools/:id', async (req, res) => {
    const body = parseBody(updateIpPoolSchema, req);
    const id = pathParam(req, 'id');
    send(res, adminIpPoolView(await updateIpPool(deps, principal(req).userId, id, body)));
  });

  return router;
}
