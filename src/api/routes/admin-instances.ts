import { Router } from 'express';
import { AppError } from '../../domain/errors';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { parseBody, pathParam, send } from '../http';
import { decideParked, type ParkedDecision } from '../parked';
import { registerRoute } from '../openapi';
import { adminInstanceView, rollbackResolveBody } from '../schemas/instances';
import { toAdminInstanceView } from '../views';
import { findInstance } from '../instance-lookup';
import { recordAudit } from '../../db/audit';

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
    const row = await findInstance(deps.db, { userId: '', role: 'admin', tenantId: null }, id);
    const providerCalls = await deps.db.providerCall.findMany({ where: { instanceId: id }, orderBy: { createdAt: 'asc' } });
    const task = row.tasks[0];
    return toAdminInstanceView(row, providerCalls, task?.workflowId ?? '');
  };

  router.get('/instances/:id', async (req, res) => {
    send(res, await adminView(pathParam(req, 'id')));
  });

  /** Sends the decision to the workflow of the instance's latest task; the workflow accepts it only while parked. Returns the instance's tenant, for the audit row. */
  const decide = async (id: string, decision: ParkedDecision): Promise<string> => {
    const row = await findInstance(deps.db, { userId: '', role: 'admin', tenantId: null }, id);
    const task = row.tasks[0];
    if (row.status !== 'rollback_failed' || !task) {
      throw new AppError('INVALID_STATE', 'Only a server in rollback_failed waits for an operator.', { status: row.status });
    }
    await decideParked(deps, task.workflowId, decision);
    return row.tenantId;
  };

  router.post('/instances/:id/rollback/retry', async (req, res) => {
    const id = pathParam(req, 'id');
    const tenantId = await decide(id, { action: 'retry' });
    await recordAudit(deps.db, { action: 'rollback.retry_requested', actorUserId: principal(req).userId, tenantId, instanceId: id });
    send(res, await adminView(id), {}, 202);
  });

  router.post('/instances/:id/rollback/resolve', async (req, res) => {
    const id = pathParam(req, 'id');
    const { note } = parseBody(rollbackResolveBody, req);
    const tenantId = await decide(id, { action: 'resolve', note });
    await recordAudit(deps.db, { action: 'rollback.resolve_requested', actorUserId: principal(req).userId, tenantId, instanceId: id, details: { note } });
    send(res, await adminView(id), {}, 202);
  });

  return router;
}
