import { Router } from 'express';
import { notFound } from '../../domain/errors';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { pathParam, send } from '../http';
import { registerRoute } from '../openapi';
import { taskView } from '../schemas/instances';
import { toTaskView } from '../views';
import { tenantScope } from '../instance-lookup';

registerRoute({ method: 'get', path: '/v1/tasks/:id', summary: 'Get a task and its step thread', tags: ['tasks'], response: taskView, errors: ['NOT_FOUND'] });

export function tasksRouter(deps: ApiDeps): Router {
  const router = Router();
  router.get('/tasks/:id', async (req, res) => {
    const task = await deps.db.task.findFirst({
      where: { id: pathParam(req, 'id'), ...tenantScope(principal(req)) },
      include: { steps: { orderBy: { id: 'asc' } } },
    });
    if (!task) throw notFound('task');
    send(res, toTaskView(task));
  });
  return router;
}
