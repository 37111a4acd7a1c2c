import type { Router } from 'express';
import { createPlan, listPlans, updatePlan } from '../../services/catalog/plans';
import { adminPlanView } from '../catalog-views';
import type { ApiDeps } from '../deps';
import { adminCollectionRouter } from '../http';
import { createPlanSchema, updatePlanSchema } from '../schemas/plans';

/** Plans, under /v1/admin (the operator's: route-actions.ts) (services/catalog/plans.ts). */
export const adminPlansRouter = (deps: ApiDeps): Router =>
  adminCollectionRouter('/plans', {
    create: [createPlanSchema, (actorUserId, body) => createPlan(deps, actorUserId, body)],
    list: (page, archived) => listPlans(deps, page, archived),
    update: [updatePlanSchema, (actorUserId, id, body) => updatePlan(deps, actorUserId, id, body)],
    view: adminPlanView,
  });
