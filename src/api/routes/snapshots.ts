import { Router } from 'express';
import { z } from 'zod';
import type { Snapshot } from '../../generated/prisma/client';
import { findSnapshot, listSnapshotsOf, requestSnapshot, requestSnapshotDelete, requestSnapshotRevert } from '../../services/snapshots';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { parse, parseBody, pathParam, send } from '../http';
import { registerRoute } from '../openapi';
import { emptyBody, operationMeta } from '../schemas/lifecycle';
import { instanceView } from '../schemas/instances';
import { createSnapshotBody, snapshotNameSchema, snapshotPathParams, snapshotView } from '../schemas/snapshots';
import { toInstanceView } from '../views';

const tags = ['snapshots'];
const busy = ['NOT_FOUND', 'INVALID_STATE', 'OPERATION_IN_PROGRESS', 'BACKUP_IN_PROGRESS', 'PROVIDER_UNAVAILABLE', 'RATE_LIMITED'] as const;
const item = '/v1/instances/:id/snapshots/:name';

registerRoute({
  method: 'post',
  path: '/v1/instances/:id/snapshots',
  summary: 'Take a snapshot of a server',
  description:
    "Counts against the plan's `snapshotLimit` (0: none). Refused before anything is asked of Proxmox VE when the limit is reached (422 SNAPSHOT_LIMIT_REACHED) or the location's storage cannot snapshot (422 SNAPSHOTS_UNSUPPORTED). The server shows `snapshotting` until the task ends.",
  tags,
  request: { body: createSnapshotBody },
  response: snapshotView,
  meta: operationMeta,
  status: 202,
  errors: [...busy, 'CONFLICT', 'SNAPSHOT_LIMIT_REACHED', 'SNAPSHOTS_UNSUPPORTED'],
});
registerRoute({ method: 'get', path: '/v1/instances/:id/snapshots', summary: "List a server's snapshots, oldest first", tags, response: snapshotView, list: true, meta: z.object({}), errors: ['NOT_FOUND'] });
registerRoute({ method: 'get', path: item, summary: 'Get a snapshot', tags, request: { params: snapshotPathParams }, response: snapshotView, errors: ['NOT_FOUND'] });
registerRoute({ method: 'delete', path: item, summary: 'Delete a snapshot', tags, request: { params: snapshotPathParams }, response: snapshotView, meta: operationMeta, status: 202, errors: [...busy] });
registerRoute({
  method: 'post',
  path: `${item}/rollback`,
  summary: 'Roll a server back to a snapshot',
  description:
    'An operation of the server (status `rolling_back`, its own task, step thread and events): a running server is stopped first and started again after, unless the snapshot holds its RAM (it then resumes where it was). Everything written after the snapshot is lost.',
  tags,
  request: { params: snapshotPathParams },
  response: instanceView,
  meta: operationMeta,
  status: 202,
  errors: [...busy, 'SNAPSHOTS_UNSUPPORTED'],
});

const toSnapshotView = (s: Snapshot): z.infer<typeof snapshotView> => ({ name: s.name, description: s.description, includesMemory: s.vmstate, status: s.status, createdAt: s.createdAt.toISOString() });

const nameOf = (req: Parameters<typeof pathParam>[0]) => parse(z.object({ name: snapshotNameSchema }), { name: pathParam(req, 'name') }, 'path').name;

/** A server's snapshots: customers on their own servers, admins on any. */
export function snapshotsRouter(deps: ApiDeps): Router {
  const router = Router();
  router.post('/instances/:id/snapshots', async (req, res) => {
    const body = parseBody(createSnapshotBody, req);
    const result = await requestSnapshot(deps, principal(req), pathParam(req, 'id'), body);
    send(res, toSnapshotView(result.snapshot), { taskId: result.taskId }, 202);
  });
  router.get('/instances/:id/snapshots', async (req, res) => {
    send(res, (await listSnapshotsOf(deps, principal(req), pathParam(req, 'id'))).map(toSnapshotView));
  });
  router.get('/instances/:id/snapshots/:name', async (req, res) => {
    send(res, toSnapshotView(await findSnapshot(deps, principal(req), pathParam(req, 'id'), nameOf(req))));
  });
  router.delete('/instances/:id/snapshots/:name', async (req, res) => {
    const result = await requestSnapshotDelete(deps, principal(req), pathParam(req, 'id'), nameOf(req));
    send(res, toSnapshotView(result.snapshot), { taskId: result.taskId }, 202);
  });
  router.post('/instances/:id/snapshots/:name/rollback', async (req, res) => {
    parseBody(emptyBody, req);
    const result = await requestSnapshotRevert(deps, principal(req), pathParam(req, 'id'), nameOf(req));
    send(res, toInstanceView(result.instance), { taskId: result.taskId }, 202);
  });
  return router;
}
