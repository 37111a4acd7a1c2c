import { Router } from 'express';
import { notFound } from '../../domain/errors';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { pathParam, send } from '../http';
import { registerRoute } from '../openapi';
import { adminTaskView, taskView } from '../schemas/instances';
import { toAdminTaskView, toTaskView } from '../views';
import { tenantScope } from '../instance-lookup';

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

const withSteps = { steps: { orderBy: { id: 'asc' } } } as const;

export function tasksRouter(deps: ApiDeps): Router {
  const router = Router();
  router.get('/tasks/:id', async (req, res) => {
    const task = await deps.db.task.findFirst({ where: { id: pathParam(req, 'id'), ...tenantScope(principal(req)) }, include: withSteps });
    if (!task) throw notFound('task');
    send(res, toTaskView(task));
  });
  return router;
}

/** Mounted under /v1/admin behind requireAdmin. */
export function adminTasksRouter(deps: ApiDeps): Router {
  const router = Router();
  router.get('/tasks/:id', async (req, res) => {
    const task = await deps.db.task.findUnique({ where: { id: pathParam(req, 'id') }, include: withSteps });
    if (!task) throw notFound('task');
    send(res, toAdminTaskView(task));
  });
  return router;
}
