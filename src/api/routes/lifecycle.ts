import { Router, type Response } from 'express';
import type { z } from 'zod';
import type { ErrorCode } from '../../domain/errors';
import { providerCallsOf } from '../../services/instances';
import { requestDelete, requestMigration, requestPowerOperation, requestRebuild, requestResize, type OperationAnswer } from '../../services/operations';
import type { Principal } from '../../services/principal';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { parseBody, parseQuery, pathParam, send } from '../http';
import { registerRoute } from '../openapi';
import { rateLimited } from '../rate-limit';
import { requestBootOrder, requestIsoEject, requestIsoMount, requestRescueEnter, requestRescueLeave } from '../../services/boot-media';
import { bootOrderBody, deleteQuery, emptyBody, migrateBody, mountIsoBody, operationMeta, rebuildBody, resizeBody } from '../schemas/lifecycle';
import { adminInstanceView, instanceView } from '../schemas/instances';
import { toAdminInstanceView, toInstanceView } from '../views';

const tags = ['lifecycle'];
const busy = ['NOT_FOUND', 'INVALID_STATE', 'OPERATION_IN_PROGRESS', 'PROVIDER_UNAVAILABLE', 'RATE_LIMITED'] as const;

/** A customer's operation on `/instances/:id<suffix>`: documented, and answered with the server and its task. */
interface LifecycleRoute<B extends z.ZodType = z.ZodType> {
  /** POST unless said otherwise. */
  method?: 'post' | 'delete';
  suffix: string;
  summary: string;
  description?: string;
  /** The documented request body; without one, an empty object is all that is accepted. */
  body?: B;
  /** The documented query; without one, none is read. */
  query?: z.ZodObject;
  /** Error codes besides `busy`, which every operation may answer. */
  errors?: ErrorCode[];
  run(deps: ApiDeps, who: Principal, instanceId: string, body: z.infer<B>, query: Record<string, unknown>): Promise<OperationAnswer>;
}

const route = <B extends z.ZodType>(spec: LifecycleRoute<B>): LifecycleRoute => spec;

const power = (operation: 'start' | 'stop' | 'shutdown' | 'reboot', summary: string) =>
  route({ suffix: `/${operation}`, summary, run: (deps, who, id) => requestPowerOperation(deps, who, id, operation) });

const ROUTES: LifecycleRoute[] = [
  power('start', 'Power a stopped server on'),
  power('stop', 'Power a running server off (forced)'),
  power('shutdown', 'Shut a running server down (ACPI; forced stop after the timeout)'),
  power('reboot', 'Restart a running server'),
  route({
    suffix: '/resize',
    summary: 'Move a stopped server to another plan',
    description:
      "CPU and memory follow the plan; the disk only grows. Growth is charged to the project's and the tenant's quota and the host first; what shrinks is refunded when the resize is done. The plan must be one the server's project allows.",
    body: resizeBody,
    errors: ['QUOTA_EXCEEDED', 'PROJECT_QUOTA_EXCEEDED', 'PROJECT_PLAN_NOT_ALLOWED', 'UNSUPPORTED', 'CAPACITY_UNAVAILABLE', 'IN_RESCUE'],
    run: (deps, who, id, { planId }) => requestResize(deps, who, id, planId),
  }),
  route({
    suffix: '/rebuild',
    summary: 'Replace the disk with a fresh one from an image',
    description:
      "Keeps the name, addresses and host; the old disk and credential are destroyed and a new credential is made (reveal it once). Defaults to the current image (another image must be one the server's project allows), and to the SSH keys the server has unless `sshKeys` or `sshKeyIds` name new ones.",
    body: rebuildBody,
    errors: ['IMAGE_SSH_KEY_REQUIRED', 'IMAGE_LOGIN_METHOD_UNSUPPORTED', 'PROJECT_IMAGE_NOT_ALLOWED', 'UNSUPPORTED', 'IN_RESCUE'],
    run: (deps, who, id, body) => requestRebuild(deps, who, id, body),
  }),
  route({
    suffix: '/iso',
    summary: 'Mount an ISO in the CD-ROM drive',
    description:
      "An ISO of `GET /v1/isos` that is ready on the server's host: another tenant's, another location's or node's, or one still downloading is 422 ISO_NOT_AVAILABLE with nothing changed. The drive changes at once, on a running server too; it boots from it after `boot-order` `{first: \"cdrom\"}` and a reboot.",
    body: mountIsoBody,
    errors: ['ISO_NOT_AVAILABLE', 'IN_RESCUE'],
    run: (deps, who, id, { isoId }) => requestIsoMount(deps, who, id, isoId),
  }),
  route({ method: 'delete', suffix: '/iso', summary: 'Eject the ISO from the CD-ROM drive', description: 'At once, on a running server too; with the CD-ROM first, the next boot goes on to the disk.', errors: ['IN_RESCUE'], run: (deps, who, id) => requestIsoEject(deps, who, id) }),
  route({
    suffix: '/boot-order',
    summary: 'Choose what the server boots from first',
    description: 'Pending until the next start or reboot (Proxmox VE applies a running guest\'s boot order when it restarts). The CD-ROM first needs an ISO mounted (409 INVALID_STATE).',
    body: bootOrderBody,
    errors: ['IN_RESCUE'],
    run: (deps, who, id, { first }) => requestBootOrder(deps, who, id, first),
  }),
  route({
    suffix: '/rescue',
    summary: 'Boot the server into the rescue system',
    description:
      "Mounts the location's rescue ISO first in the boot order, hands a fresh rescue password to it (reveal it once with `POST …/rescue/reveal`) and reboots (a stopped server is started). The disk stays attached. The server shows `rescue` while it runs in it; power operations keep working; resize, rebuild, restore, rollback, migrate and ISO or boot-order changes answer 409 IN_RESCUE until `DELETE …/rescue`.",
    errors: ['RESCUE_UNAVAILABLE', 'IN_RESCUE'],
    run: (deps, who, id) => requestRescueEnter(deps, who, id),
  }),
  route({
    method: 'delete',
    suffix: '/rescue',
    summary: 'Leave rescue mode',
    description: 'Ejects the rescue system, puts the disk first and reboots into it (a stopped server stays stopped). The rescue password stops being revealable.',
    run: (deps, who, id) => requestRescueLeave(deps, who, id),
  }),
  route({
    method: 'delete',
    suffix: '',
    summary: 'Delete a server',
    description:
      'Idempotent. Stops and destroys the guest, then releases its ID, addresses, capacity and quota; the server stays readable as `deleted`. ' +
      'A server still being created is cancelled. Deleting a deleted server answers 200 with it and its last task; one being deleted answers 202 with the running task. ' +
      'Its backups are deleted too unless `?keepBackups=true` (protected and external backups are always kept).',
    query: deleteQuery,
    run: (deps, who, id, _body, query) => requestDelete(deps, who, id, query.keepBackups === 'true'),
  }),
];

for (const { method = 'post', suffix, summary, description, body, query, errors = [] } of ROUTES) {
  const alsoStatuses = method === 'delete' ? [200] : [];
  registerRoute({ method, path: `/v1/instances/:id${suffix}`, summary, description, tags, request: { ...(body ? { body } : {}), ...(query ? { query } : {}) }, response: instanceView, meta: operationMeta, status: 202, alsoStatuses, errors: [...busy, ...errors] });

}
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
  for (const { method = 'post', suffix, body, query, run } of ROUTES) {
    router[method](`/instances/:id${suffix}`, async (req, res) => {
      const parsed = parseBody(body ?? emptyBody, req);
      reply(res, await run(deps, principal(req), pathParam(req, 'id'), parsed, query ? parseQuery(query, req) : {}));
    });
  }
  return router;
}

/** Operator-only lifecycle operations (mounted under /v1/admin). */
export function adminLifecycleRouter(deps: ApiDeps): Router {
  const router = Router();
  router.post('/instances/:id/migrate', rateLimited(deps, 'operation'), async (req, res) => {
    const { node } = parseBody(migrateBody, req);
    const result = await requestMigration(deps, principal(req), pathParam(req, 'id'), node);
    const providerCalls = await providerCallsOf(deps, result.instance.id);
    send(res, toAdminInstanceView(result.instance, providerCalls, result.instance.tasks[0]?.workflowId ?? ''), { taskId: result.taskId }, result.httpStatus);
  });
  return router;
}
