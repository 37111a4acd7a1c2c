import { Router } from 'express';
import { readProviderSide } from '../../services/instances';
import { decideParkedRollback } from '../../services/parked-rollbacks';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { parseBody, pathParam, send } from '../http';
import { registerRoute } from '../openapi';
import { adminInstanceView, rollbackResolveBody } from '../schemas/instances';
import { toAdminInstanceView } from '../views';

const tags = ['admin: instances'];
registerRoute({ method: 'get', path: '/v1/admin/instances/:id', summary: 'Get a server with its provider coordinates', tags, admin: true, response: adminInstanceView, errors: ['NOT_FOUND'] });
registerRoute({
  method: 'post',
  path: '/v1/admin/instances/:id/rollback/retry',
  summary: 'Update retryRollback: try removing the guest again (409 INVALID_STATE unless parked)',
  tags,
  admin: true,
  response: adminInstanceView,
  status: 202,
  errors: ['NOT_FOUND', 'INVALID_STATE', 'PROVIDER_UNAVAILABLE'],
});
registerRoute({
  method: 'post',
  path: '/v1/admin/instances/:id/rollback/resolve',
  summary: 'Update resolveRollback: the guest was removed by hand; release everything (409 INVALID_STATE unless parked)',
  tags,
  admin: true,
  request: { body: rollbackResolveBody },
  response: adminInstanceView,
  status: 202,
  errors: ['NOT_FOUND', 'INVALID_STATE', 'PROVIDER_UNAVAILABLE'],
});

export function adminInstancesRouter(deps: ApiDeps): Router {
  const router = Router();

  const adminView = async (id: string) => {
    const { instance, providerCalls } = await readProviderSide(deps, id);
    return toAdminInstanceView(instance, providerCalls, instance.tasks[0]?.workflowId ?? '');
  };

  router.get('/instances/:id', async (req, res) => {
    send(res, await adminView(pathParam(req, 'id')));
  });

  router.post('/instances/:id/rollback/retry', async (req, res) => {
    const id = pathParam(req, 'id');
    await decideParkedRollback(deps, principal(req), id, { action: 'retry' });
    send(res, await adminView(id), {}, 202);
  });

  router.post('/instances/:id/rollback/resolve', async (req, res) => {
    const id = pathParam(req, 'id');
    const { note } = parseBody(rollbackResolveBody, req);
    await decideParkedRollback(deps, principal(req), id, { action: 'resolve', note });
    send(res, await adminView(id), {}, 202);
  });

  return router;
}
