import { Router } from 'express';
import { createPlan, listPlans, updatePlan } from '../../services/catalog/plans';
import { principal } from '../auth';
import { adminPlanView } from '../catalog-views';
import type { ApiDeps } from '../deps';
import { adminListHandler, parseBody, pathParam, send } from '../http';
import { createPlanSchema, updatePlanSchema } from '../schemas/plans';

/** Plans, under /v1/admin behind requireAdmin (services/catalog/plans.ts). */
export function adminPlansRouter(deps: ApiDeps): Router {
  const router = Router();

  router.post('/plans', async (req, res) => {
    const body = parseBody(createPlanSchema, req);
    send(res, adminPlanView(await createPlan(deps, principal(req).userId, body)), {}, 201);
  });

  router.get('/plans', adminListHandler((page, archived) => listPlans(deps, page, archived), adminPlanView));

  router.patch('/plans/:id', async (req, res) => {
    const body = parseBody(updatePlanSchema, req);
    const id = pathParam(req, 'id');
    send(res, adminPlanView(await updatePlan(deps, principal(req).userId, id, body)));
  });

  return router;
}
