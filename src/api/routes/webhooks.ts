import { Router } from 'express';
import { z } from 'zod';
import type { InstanceEventType } from '../../domain/events';
import type { WebhookDelivery, WebhookEndpoint } from '../../generated/prisma/client';
import { createWebhook, deleteWebhook, findWebhook, listDeliveries, listWebhooks, redeliver, updateWebhook } from '../../services/webhooks';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { listHandler, parseBody, pathParam, send } from '../http';
import { registerReads, registerRoute, registry } from '../openapi';
import { instanceEventSchema } from '../schemas/events';
import {
  createdWebhookView,
  createWebhookSchema,
  deliveryListQuery,
  updateWebhookSchema,
  webhookDeliveryView,
  webhookListQuery,
  webhookView,
} from '../schemas/webhooks';

const tags = ['webhooks'];
registerRoute({
  method: 'post',
  path: '/v1/webhooks',
  summary: "Register an endpoint for the caller's instance events (admins: every tenant's, or one tenant's); the answer shows its signing secret, once",
  tags,
  request: { body: createWebhookSchema },
  response: createdWebhookView,
  status: 201,
  errors: ['FORBIDDEN', 'NOT_FOUND'],
});
registerReads({
  path: '/v1/webhooks',
  tags,
  view: webhookView,
  query: webhookListQuery,
  listSummary: "The caller's endpoints, newest first (admins: every endpoint)",
  itemSummary: 'One endpoint, with its status and why it was disabled',
});
registerRoute({
  method: 'patch',
  path: '/v1/webhooks/:id',
  summary: 'Enable or disable an endpoint, or change the event types it receives',
  tags,
  request: { body: updateWebhookSchema },
  response: webhookView,
  errors: ['NOT_FOUND'],
});
registerRoute({ method: 'delete', path: '/v1/webhooks/:id', summary: 'Remove an endpoint and its deliveries', tags, status: 204, errors: ['NOT_FOUND'] });
registerRoute({
  method: 'get',
  path: '/v1/webhooks/:id/deliveries',
  summary: "An endpoint's deliveries, newest first: status, attempts, last response, next attempt",
  tags,
  request: { query: deliveryListQuery },
  response: webhookDeliveryView,
  list: true,
  errors: ['NOT_FOUND'],
});
registerRoute({
  method: 'post',
  path: '/v1/webhooks/:id/deliveries/:deliveryId/redeliver',
  summary: 'Send a delivered or failed delivery again, with a fresh retry window',
  tags,
  response: webhookDeliveryView,
  status: 202,
  errors: ['NOT_FOUND', 'INVALID_STATE'],
});

registry.registerWebhook({
  method: 'post',
  path: 'instanceEvent',
  summary: 'What a registered endpoint receives: one instance event per POST, at least once, in event order per instance',
  description:
    'Verify `Pvecp-Signature` (`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` keyed with the endpoint secret), deduplicate by `Pvecp-Event-Id`, answer 2xx. Anything else, or no answer within 10 s, is retried with doubling delays.',
  tags,
  request: {
    headers: z.object({
      'Pvecp-Signature': z.string(),
      'Pvecp-Event-Id': z.string(),
      'Pvecp-Event-Type': z.string(),
      'Pvecp-Delivery-Id': z.string(),
    }),
    body: { content: { 'application/json': { schema: instanceEventSchema } } },
  },
  responses: { '200': { description: 'Any 2xx: delivered.' } },
});

const iso = (date: Date | null) => date?.toISOString() ?? null;

function toWebhookView(row: WebhookEndpoint): z.infer<typeof webhookView> {
  return {
    id: row.id,
    tenantId: row.tenantId,
    url: row.url,
    eventTypes: row.eventTypes as InstanceEventType[],
    status: row.status,
    disabledReason: row.disabledReason,
    disabledAt: iso(row.disabledAt),
    failingSince: iso(row.failingSince),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toDeliveryView(row: WebhookDelivery): z.infer<typeof webhookDeliveryView> {
  return {
    id: row.id,
    eventId: row.eventId,
    eventType: row.eventType as InstanceEventType,
    instanceId: row.instanceId,
    status: row.status,
    attempts: row.attempts,
    lastResponseCode: row.lastResponseCode,
    lastError: row.lastError,
    lastAttemptAt: iso(row.lastAttemptAt),
    nextAttemptAt: row.status === 'pending' ? iso(row.nextAttemptAt) : null,
    deliveredAt: iso(row.deliveredAt),
    createdAt: row.createdAt.toISOString(),
  };
}

/** Webhook endpoints: registration (secret shown once), enable/disable, deliveries and redelivery. */
export function webhooksRouter(deps: ApiDeps): Router {
  const router = Router();

  router.post('/webhooks', async (req, res) => {
    const who = principal(req);
    const { endpoint, secret } = await createWebhook(deps, who, parseBody(createWebhookSchema, req));
    send(res, { ...toWebhookView(endpoint), secret }, {}, 201);
  });

  router.get('/webhooks', (req, res) => {
    const who = principal(req);
    return listHandler((page, query) => listWebhooks(deps, who, page, query), toWebhookView, webhookListQuery)(req, res);
  });

  router.get('/webhooks/:id', async (req, res) => {
    send(res, toWebhookView(await findWebhook(deps, principal(req), pathParam(req, 'id'))));
  });

  router.patch('/webhooks/:id', async (req, res) => {
    const who = principal(req);
    const endpoint = await findWebhook(deps, who, pathParam(req, 'id'));
    send(res, toWebhookView(await updateWebhook(deps, who, endpoint, parseBody(updateWebhookSchema, req))));
  });

  router.delete('/webhooks/:id', async (req, res) => {
    await deleteWebhook(deps, principal(req), pathParam(req, 'id'));
    res.status(204).end();
  });

  router.get('/webhooks/:id/deliveries', async (req, res) => {
    const endpoint = await findWebhook(deps, principal(req), pathParam(req, 'id'));
    await listHandler((page, query) => listDeliveries(deps, endpoint, page, query), toDeliveryView, deliveryListQuery)(req, res);
  });

  router.post('/webhooks/:id/deliveries/:deliveryId/redeliver', async (req, res) => {
    send(res, toDeliveryView(await redeliver(deps, principal(req), pathParam(req, 'id'), pathParam(req, 'deliveryId'))), {}, 202);
  });

  return router;
}
