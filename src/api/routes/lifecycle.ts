import { Router, type Response } from 'express';
import type { ApiDeps } from '../app';
import { principal } from '../auth';
import { parseBody, pathParam, send } from '../http';
import { registerRoute } from '../openapi';
import { requestDelete, requestMigration, requestPowerOperation, requestRebuild, requestResize, type OperationAnswer } from '../operations';
import { emptyBody, migrateBody, operationMeta, rebuildBody, resizeBody } from '../schemas/lifecycle';
import { adminInstanceView, instanceView } from '../schemas/instances';
import { toAdminInstanceView, toInstanceView } from '../views';

const tags = ['lifecycle'];
const POWER = {
  start: 'Power a stopped server on',
  stop: 'Power a running server off (forced)',
  shutdown: 'Shut a running server down (ACPI; forced stop after the timeout)',
  reboot: 'Restart a running server',
} as const;
const busy = ['NOT_FOUND', 'INVALID_STATE', 'OPERATION_IN_PROGRESS', 'PROVIDER_UNAVAILABLE'] as const;

for (const [operation, summary] of Object.entries(POWER)) {
  registerRoute({ method: 'post', path: `/v1/instances/:id/${operation}`, summary, tags, response: instanceView, meta: operationMeta, status: 202, errors: [...busy] });
}
registerRoute({
  method: 'post',
  path: '/v1/instances/:id/resize',
  summary: 'Move a stopped server to another plan',
  description: 'CPU and memory follow the plan; the disk only grows. Growth is charged to the quota and the host first; what shrinks is refunded when the resize is done.',
  tags,
  request: { body: resizeBody },
  response: instanceView,
  meta: operationMeta,
  status: 202,
  errors: [...busy, 'QUOTA_EXCEEDED', 'UNSUPPORTED', 'CAPACITY_UNAVAILABLE'],
});
registerRoute({
  method: 'post',
  path: '/v1/instances/:id/rebuild',
  summary: 'Replace the disk with a fresh one from an image',
  description: 'Keeps the name, addresses and host; the old disk and credential are destroyed and a new credential is made (reveal it once). Defaults to the current image.',
  tags,
  request: { body: rebuildBody },
  response: instanceView,
  meta: operationMeta,
  status: 202,
  errors: [...busy, 'IMAGE_SSH_KEY_REQUIRED', 'IMAGE_LOGIN_METHOD_UNSUPPORTED', 'UNSUPPORTED'],
});
registerRoute({
  method: 'delete',
  path: '/v1/instances/:id',
  summary: 'Delete a server',
  description:
    'Idempotent. Stops and destroys the guest, then releases its ID, addresses, capacity and quota; the server stays readable as `deleted`. ' +
    'A server still being created is cancelled. Deleting a deleted server answers 200 with it and its last task; one being deleted answers 202 with the running task.',
  tags,
  response: instanceView,
  meta: operationMeta,
  status: 202,
  errors: [...busy],
});
registerRoute({
  method: 'post',
  path: '/v1/admin/instances/:id/migrate',
  summary: 'Move a server to another node of its cluster',
  description: 'Online when it runs, offline when stopped. Capacity is reserved on the target first and released on the source once the guest has moved.',
  tags: ['admin: instances'],
  admin: true,
  request: { body: migrateBody },
  response: adminInstanceView,
  meta: operationMeta,
  status: 202,
  errors: [...busy, 'CAPACITY_UNAVAILABLE'],
});

const reply = (res: Response, result: OperationAnswer) => send(res, toInstanceView(result.instance), { taskId: result.taskId }, result.httpStatus);

/** Lifecycle operations on a server: customers on their own, admins on any. */
export function lifecycleRouter(deps: ApiDeps): Router {
  const router = Router();
  for (const operation of Object.keys(POWER) as (keyof typeof POWER)[]) {
    router.post(`/instances/:id/${operation}`, async (req, res) => {
      parseBody(emptyBody, req);
      reply(res, await requestPowerOperation(deps, principal(req), pathParam(req, 'id'), operation));
    });
  }
  router.post('/instances/:id/resize', async (req, res) => {
    const { planId } = parseBody(resizeBody, req);
    reply(res, await requestResize(deps, principal(req), pathParam(req, 'id'), planId));
  });
  router.post('/instances/:id/rebuild', async (req, res) => {
    const { imageId } = parseBody(rebuildBody, req);
    reply(res, await requestRebuild(deps, principal(req), pathParam(req, 'id'), imageId));
  });
  router.delete('/instances/:id', async (req, res) => {
    parseBody(emptyBody, req);
    reply(res, await requestDelete(deps, principal(req), pathParam(req, 'id')));
  });
  return router;
}

/** Operator-only lifecycle operations (mounted under /v1/admin). */
export function adminLifecycleRouter(deps: ApiDeps): Router {
  const router = Router();
  router.post('/instances/:id/migrate', async (req, res) => {
    const { node } = parseBody(migrateBody, req);
    const result = await requestMigration(deps, principal(req), pathParam(req, 'id'), node);
    const operations = await deps.db.providerOperation.findMany({ where: { instanceId: result.instance.id }, orderBy: { createdAt: 'asc' } });
    send(res, toAdminInstanceView(result.instance, operations, result.instance.tasks[0]?.workflowId ?? ''), { taskId: result.taskId }, result.httpStatus);
  });
  return router;
}
