import { Router } from 'express';
import { OPERATOR } from '../../services/principal';
import { findTask } from '../../services/tasks';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { pathParam, send } from '../http';
import { registerRoute } from '../openapi';
import { adminTaskView, taskView } from '../schemas/instances';
import { toAdminTaskView, toTaskView } from '../views';

registerRoute({ method: 'get', path: '/v1/tasks/:id', summary: 'Get a task and its step thread', tags: ['tasks'], response: taskView, errors: ['NOT_FOUND'] });
registerRoute({
  method: 'get',
  path: '/v1/admin/tasks/:id',
  summary: "Get a task with why it failed in the provider's words",
  tags: ['admin: instances'],
  admin: true,
  response: adminTaskView,
  errors: ['NOT_FOUND'],
});

export function tasksRouter(deps: ApiDeps): Router {
  const router = Router();
  router.get('/tasks/:id', async (req, res) => {
    send(res, toTaskView(await findTask(deps, principal(req), pathParam(req, 'id'))));
  });
  return router;
}

/** Mounted under /v1/admin (the operator's: route-actions.ts). */
export function adminTasksRouter(deps: ApiDeps): Router {
  const router = Router();
  router.get('/tasks/:id', async (req, res) => {
    send(res, toAdminTaskView(await findTask(deps, OPERATOR, pathParam(req, 'id'))));
  });
  return router;
}
