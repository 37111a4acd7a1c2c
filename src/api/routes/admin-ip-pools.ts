import type { Router } from 'express';
import { createIpPool, listIpPools, updateIpPool } from '../../services/catalog/ip-pools';
import { adminIpPoolView } from '../catalog-views';
import type { ApiDeps } from '../deps';
import { adminCollectionRouter } from '../http';
import { createIpPoolSchema, updateIpPoolSchema } from '../schemas/ip-pools';

/** IP pools, under /v1/admin (the operator's: route-actions.ts) (services/catalog/ip-pools.ts). */
export const adminIpPoolsRouter = (deps: ApiDeps): Router =>
  adminCollectionRouter('/ip-pools', {
    create: [createIpPoolSchema, (actorUserId, body) => createIpPool(deps, actorUserId, body)],
    list: (page, archived) => listIpPools(deps, page, archived),
    update: [updateIpPoolSchema, (actorUserId, id, body) => updateIpPool(deps, actorUserId, id, body)],
    view: adminIpPoolView,
  });
