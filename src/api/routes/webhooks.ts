import { Router } from 'express';
import { z } from 'zod';
import type { Db } from '../../db/client';
import type { InstanceEventType } from '../../domain/events';
import { AppError, notFound } from '../../domain/errors';
import { newId } from '../../security/ids';
import type { Prisma, WebhookDelivery, WebhookEndpoint } from '../../generated/prisma/client';
import { startDeliveryWorkflow } from '../../temporal/starts';
import { webhookTargetPolicy } from '../../webhooks/policy';
import { generateWebhookSecret } from '../../webhooks/signing';
import { assertPublic, checkWebhookUrl, resolveTarget, WebhookTargetError } from '../../webhooks/targets';
import type { ApiDeps } from '../deps';
import { principal, type Principal } from '../auth';
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
import { recordAudit } from '../../db/audit';

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

/** Customers see their tenant's endpoints only; admins see every endpoint. */
const visibleTo = (who: Principal): Prisma.WebhookEndpointWhereInput => (who.role === 'admin' ? {} : { tenantId: who.tenantId ?? '-' });

async function findEndpoint(db: Db, who: Principal, id: string): Promise<WebhookEndpoint> {
  const row = await db.webhookEndpoint.findFirst({ where: { id, ...visibleTo(who) } });
  if (!row) throw notFound('webhook');
  return row;
}

const invalidUrl = (reason: string) => new AppError('INVALID_INPUT', 'The request body is invalid.', { fields: { url: reason } });

/** Webhook endpoints: registration (secret shown once), enable/disable, deliveries and redelivery. */
export function webhooksRouter(deps: ApiDeps): Router {
  const router = Router();
  const { db } = deps;
  const policy = webhookTargetPolicy(deps.config);

  /** Starts the endpoint × instance delivery workflow now rather than at the dispatcher's next round. */
  const kick = (endpointId: string, instanceId: string) =>
    startDeliveryWorkflow(deps.temporal, deps.config, { endpointId, instanceId }).catch((error: unknown) => deps.logger.warn({ err: error, endpointId }, 'delivery workflow start deferred to the dispatcher'));

  router.post('/webhooks', async (req, res) => {
    const who = principal(req);
    const body = parseBody(createWebhookSchema, req);
    if (body.tenantId !== undefined && who.role !== 'admin') throw new AppError('FORBIDDEN', 'Only administrators choose the tenant of an endpoint.');
    const tenantId = who.role === 'admin' ? (body.tenantId ?? null) : who.tenantId;
    if (tenantId && !(await db.tenant.findUnique({ where: { id: tenantId }, select: { id: true } }))) throw notFound('tenant');
    try {
      const url = checkWebhookUrl(body.url, policy);
      // A name that does not resolve yet is accepted: every delivery checks the addresses it connects to.
      const addresses = await resolveTarget(url).catch(() => []);
      assertPublic(addresses, policy);
    } catch (error) {
      if (error instanceof WebhookTargetError) throw invalidUrl(error.message);
      throw error;
    }
    const id = newId('whk');
    const secret = generateWebhookSecret();
    const row = await db.$transaction(async (tx) => {
      const created = await tx.webhookEndpoint.create({
        data: { id, tenantId, url: body.url, eventTypes: body.eventTypes, secretCipher: deps.secrets.seal(secret, id), createdBy: who.userId },
      });
      await recordAudit(tx, { action: 'webhook.created', actorUserId: who.userId, tenantId, details: { webhookId: id, url: body.url } });
      return created;
    });
    send(res, { ...toWebhookView(row), secret }, {}, 201);
  });

  router.get('/webhooks', (req, res) => {
    const who = principal(req);
    return listHandler(
      (page, query) => db.webhookEndpoint.findMany({ ...page, where: { AND: [page.where, visibleTo(who), query.tenantId ? { tenantId: query.tenantId } : {}] } }),
      toWebhookView,
      webhookListQuery,
    )(req, res);
  });

  router.get('/webhooks/:id', async (req, res) => {
    send(res, toWebhookView(await findEndpoint(db, principal(req), pathParam(req, 'id'))));
  });

  router.patch('/webhooks/:id', async (req, res) => {
    const who = principal(req);
    const endpoint = await findEndpoint(db, who, pathParam(req, 'id'));
    const body = parseBody(updateWebhookSchema, req);
    const enabling = body.enabled === true && endpoint.status === 'disabled';
    const row = await db.$transaction(async (tx) => {
      const updated = await tx.webhookEndpoint.update({
        where: { id: endpoint.id },
        data: {
          ...(body.eventTypes ? { eventTypes: body.eventTypes } : {}),
          ...(enabling ? { status: 'enabled', disabledReason: null, disabledAt: null, failingSince: null } : {}),
          ...(body.enabled === false && endpoint.status === 'enabled' ? { status: 'disabled', disabledReason: 'Disabled through the API.', disabledAt: new Date() } : {}),
        },
      });
      // Deliveries kept while it was disabled go out again, each with a fresh retry window.
      if (enabling) await tx.webhookDelivery.updateMany({ where: { endpointId: endpoint.id, status: 'pending' }, data: { nextAttemptAt: null, retryUntil: null } });
      if (body.enabled !== undefined && updated.status !== endpoint.status) {
        await recordAudit(tx, { action: `webhook.${updated.status}`, actorUserId: who.userId, tenantId: endpoint.tenantId, details: { webhookId: endpoint.id } });
      }
      return updated;
    });
    send(res, toWebhookView(row));
  });

  router.delete('/webhooks/:id', async (req, res) => {
    const who = principal(req);
    const endpoint = await findEndpoint(db, who, pathParam(req, 'id'));
    await db.$transaction(async (tx) => {
      await tx.webhookEndpoint.delete({ where: { id: endpoint.id } });
      await recordAudit(tx, { action: 'webhook.deleted', actorUserId: who.userId, tenantId: endpoint.tenantId, details: { webhookId: endpoint.id, url: endpoint.url } });
    });
    res.status(204).end();
  });

  router.get('/webhooks/:id/deliveries', async (req, res) => {
    const endpoint = await findEndpoint(db, principal(req), pathParam(req, 'id'));
    await listHandler(
      (page, query) =>
        db.webhookDelivery.findMany({
          ...page,
          where: { AND: [page.where, { endpointId: endpoint.id }, query.status ? { status: query.status } : {}, query.instanceId ? { instanceId: query.instanceId } : {}] },
        }),
      toDeliveryView,
      deliveryListQuery,
    )(req, res);
  });

  router.post('/webhooks/:id/deliveries/:deliveryId/redeliver', async (req, res) => {
    const endpoint = await findEndpoint(db, principal(req), pathParam(req, 'id'));
    const deliveryId = pathParam(req, 'deliveryId');
    if (endpoint.status !== 'enabled') throw new AppError('INVALID_STATE', 'This endpoint is disabled: enable it first.', { status: endpoint.status });
    const reset = await db.webhookDelivery.updateMany({
      where: { id: deliveryId, endpointId: endpoint.id, status: { in: ['succeeded', 'failed'] } },
      data: { status: 'pending', nextAttemptAt: null, retryUntil: null, deliveredAt: null },
    });
    const row = await db.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId: endpoint.id } });
    if (!row) throw notFound('delivery');
    if (reset.count === 0) throw new AppError('INVALID_STATE', 'This delivery is still pending.', { status: row.status });
    await kick(endpoint.id, row.instanceId);
    send(res, toDeliveryView(row), {}, 202);
  });

  return router;
}
