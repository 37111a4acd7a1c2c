import { Router } from 'express';
import { z } from 'zod';
import { AppError } from '../../domain/errors';
import { createInstance } from '../../services/create-instance';
import { revealCredential } from '../../services/credentials';
import { decideOnServer } from '../../services/access';
import { findInstance, listInstances } from '../../services/instances';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { listHandler, parse, parseBody, pathParam, send } from '../http';
import { registerReads, registerRoute } from '../openapi';
import { createInstanceBody, createInstanceHeaders, createInstanceMeta, idempotencyKeyHeader, instanceView, listInstancesQuery, revealView } from '../schemas/instances';
import { toInstanceView } from '../views';
import { lastEventIdHeader, streamTaskEvents } from '../task-event-stream';

const tags = ['instances'];
registerRoute({
  method: 'post',
  path: '/v1/instances',
  summary: 'Create a server',
  description:
    'Commits every reservation, then starts provisioning. Replays of an Idempotency-Key answer 200 with the same server; a key is kept for IDEMPOTENCY_KEY_TTL_HOURS (24 h) and forgotten when the create answers 503. ' +
    "With `backupId` instead of `imageId` the new server is restored from one of your backups (404 NOT_FOUND for a backup you do not have): it is reserved and built like any other server, its disk written from the backup's archive instead of an image, in the backup's location, beside the server the backup was made of, which is not touched. " +
    "It gets its own addresses, login and name, keeps the original's image, and reports `instance.restored` (`data.backupId`) when it runs; a failed restore rolls back like a failed create, and the backup stays.",
  tags,
  request: { body: createInstanceBody, headers: createInstanceHeaders },
  response: instanceView,
  meta: createInstanceMeta,
  status: 202,
  alsoStatuses: [200],
  errors: [
    'CONFLICT',
    'QUOTA_EXCEEDED',
    'PROJECT_QUOTA_EXCEEDED',
    'PROJECT_PLAN_NOT_ALLOWED',
    'PROJECT_IMAGE_NOT_ALLOWED',
    'PROJECT_LOCATION_NOT_ALLOWED',
    'IMAGE_SSH_KEY_REQUIRED',
    'IMAGE_LOGIN_METHOD_UNSUPPORTED',
    'UNSUPPORTED',
    'RATE_LIMITED',
    'CAPACITY_UNAVAILABLE',
    'PROVIDER_UNAVAILABLE',
    'FORBIDDEN',
    'NOT_FOUND',
    'BACKUP_NOT_RESTORABLE',
    'PLAN_DISK_TOO_SMALL',
  ],
});
registerReads({ path: '/v1/instances', tags, view: instanceView, query: listInstancesQuery, listSummary: 'List servers, newest first', itemSummary: 'Get a server' });
registerRoute({
  method: 'get',
  path: '/v1/instances/:id/events',
  summary: "Stream the current task's steps (server-sent events)",
  description:
    'Each step is an event whose `id` is its sequence and whose data is `{ step, status, message }`; send `Last-Event-ID` to resume after the last step seen. ' +
    'Ends with `event: close`, data `{ reason }`: `task_ended` (with the task\'s `status`), `parked` (the server waits for an operator), ' +
    '`max_duration` (EVENT_STREAM_MAX_SECONDS), `shutting_down` or `access_lost` (the caller may no longer read the server, e.g. its grant was revoked); after `max_duration` and `shutting_down`, reconnect with Last-Event-ID. `: ping` comments keep it alive. ' +
    'At most EVENT_STREAMS_PER_TOKEN streams per token are open at once (429 RATE_LIMITED beyond).',
  tags,
  request: { headers: lastEventIdHeader },
  contentType: 'text/event-stream',
  errors: ['NOT_FOUND'],
});
registerRoute({
  method: 'post',
  path: '/v1/instances/:id/credentials/reveal',
  summary: 'Reveal the login credential, once',
  description: 'Only while the server is running or stopped (otherwise 409 INVALID_STATE, e.g. during a rebuild), within the reveal window.',
  tags,
  response: revealView,
  errors: ['NOT_FOUND', 'INVALID_STATE', 'CREDENTIAL_ALREADY_REVEALED', 'CREDENTIAL_EXPIRED', 'FORBIDDEN'],
});

export function instancesRouter(deps: ApiDeps): Router {
  const router = Router();

  router.post('/instances', async (req, res) => {
    const key = req.header('idempotency-key');
    // Parsed as a one-field object so that details.fields names the header.
    const idempotencyKey = key === undefined ? undefined : parse(z.object({ 'Idempotency-Key': idempotencyKeyHeader }), { 'Idempotency-Key': key }, 'Idempotency-Key header')['Idempotency-Key'];
    const body = parseBody(createInstanceBody, req);
    const result = await createInstance(deps, principal(req), body, idempotencyKey);
    const meta = result.replay ? { taskId: result.taskId, idempotent_replay: true } : { taskId: result.taskId };
    send(res, toInstanceView(result.instance), meta, result.replay ? 200 : 202);
  });

  router.get('/instances', (req, res) => listHandler((page, query) => listInstances(deps, principal(req), page, query), toInstanceView, listInstancesQuery)(req, res));

  router.get('/instances/:id', async (req, res) => {
    send(res, toInstanceView(await findInstance(deps, principal(req), pathParam(req, 'id'))));
  });

  router.get('/instances/:id/events', async (req, res) => {
    const instance = await findInstance(deps, principal(req), pathParam(req, 'id'));
    const task = instance.tasks[0];
    if (!task) throw new AppError('NOT_FOUND', 'This server has no task to follow.');
    const who = principal(req);
    const stillAllowed = async () => (await decideOnServer(deps, who, 'server.read', instance.id)).allowed;
    await streamTaskEvents(deps, who.tokenId, task.id, req, res, stillAllowed);
  });

  router.post('/instances/:id/credentials/reveal', async (req, res) => {
    send(res, await revealCredential(deps, principal(req), pathParam(req, 'id')));
  });

  return router;
}
