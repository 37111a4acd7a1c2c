/**
 * Webhook endpoints as callers manage them: registration (the signing secret shown once), enable
 * and disable, deliveries and redelivery. How deliveries are made (signing, where they may
 * point, the delivery workflow and its dispatcher) is the feature folder src/webhooks.
 */
import { recordAudit } from '../db/audit';
import type { InstanceEventType } from '../domain/events';
import { AppError, notFound } from '../domain/errors';
import type { Prisma, WebhookDelivery, WebhookEndpoint } from '../generated/prisma/client';
import type { WebhookDeliveryStatus } from '../generated/prisma/enums';
import { newId } from '../security/ids';
import { startDeliveryWorkflow } from '../temporal/starts';
import { webhookTargetPolicy } from '../webhooks/policy';
import { generateWebhookSecret } from '../webhooks/signing';
import { assertPublic, checkWebhookUrl, resolveTarget, WebhookTargetError } from '../webhooks/targets';
import type { ServiceDeps } from './deps';
import type { PageArgs } from '../db/pages';
import type { Principal } from './principal';

/** Customers see their tenant's endpoints only; admins see every endpoint. */
const visibleTo = (who: Principal): Prisma.WebhookEndpointWhereInput => (who.role === 'admin' ? {} : { tenantId: who.tenantId ?? '-' });

const invalidUrl = (reason: string) => new AppError('INVALID_INPUT', 'The request body is invalid.', { fields: { url: reason } });

/** Registers an endpoint; the answer carries its signing secret, which is kept sealed and never shown again. */
export async function createWebhook(
  deps: Pick<ServiceDeps, 'db' | 'config' | 'secrets'>,
  who: Principal,
  body: { url: string; eventTypes: InstanceEventType[]; tenantId?: string },
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  if (body.tenantId !== undefined && who.role !== 'admin') throw new AppError('FORBIDDEN', 'Only administrators choose the tenant of an endpoint.');
  const tenantId = who.role === 'admin' ? (body.tenantId ?? null) : who.tenantId;
  if (tenantId && !(await deps.db.tenant.findUnique({ where: { id: tenantId }, select: { id: true } }))) throw notFound('tenant');
  const policy = webhookTargetPolicy(deps.config);
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
  const endpoint = await deps.db.$transaction(async (tx) => {
    const created = await tx.webhookEndpoint.create({
      data: { id, tenantId, url: body.url, eventTypes: body.eventTypes, secretCipher: deps.secrets.seal(secret, id), createdBy: who.userId },
    });
    await recordAudit(tx, { action: 'webhook.created', actorUserId: who.userId, tenantId, details: { webhookId: id, url: body.url } });
    return created;
  });
  return { endpoint, secret };
}

export function listWebhooks(deps: Pick<ServiceDeps, 'db'>, who: Principal, page: PageArgs, filters: { tenantId?: string }): Promise<WebhookEndpoint[]> {
  return deps.db.webhookEndpoint.findMany({ ...page, where: { AND: [page.where, visibleTo(who), filters.tenantId ? { tenantId: filters.tenantId } : {}] } });
}

export async function findWebhook(deps: Pick<ServiceDeps, 'db'>, who: Principal, id: string): Promise<WebhookEndpoint> {
  const row = await deps.db.webhookEndpoint.findFirst({ where: { id, ...visibleTo(who) } });
  if (!row) throw notFound('webhook');
  return row;
}

/** Enables or disables an endpoint, or changes its event types. Enabling again sends the deliveries kept meanwhile, each with a fresh retry window. */
export function updateWebhook(deps: Pick<ServiceDeps, 'db'>, who: Principal, endpoint: WebhookEndpoint, body: { enabled?: boolean; eventTypes?: InstanceEventType[] }): Promise<WebhookEndpoint> {
  const enabling = body.enabled === true && endpoint.status === 'disabled';
  return deps.db.$transaction(async (tx) => {
    const updated = await tx.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: {
        ...(body.eventTypes ? { eventTypes: body.eventTypes } : {}),
        ...(enabling ? { status: 'enabled', disabledReason: null, disabledAt: null, failingSince: null } : {}),
        ...(body.enabled === false && endpoint.status === 'enabled' ? { status: 'disabled', disabledReason: 'Disabled through the API.', disabledAt: new Date() } : {}),
      },
    });
    if (enabling) await tx.webhookDelivery.updateMany({ where: { endpointId: endpoint.id, status: 'pending' }, data: { nextAttemptAt: null, retryUntil: null } });
    if (body.enabled !== undefined && updated.status !== endpoint.status) {
      await recordAudit(tx, { action: `webhook.${updated.status}`, actorUserId: who.userId, tenantId: endpoint.tenantId, details: { webhookId: endpoint.id } });
    }
    return updated;
  });
}

/** Deletes an endpoint and its deliveries. */
export async function deleteWebhook(deps: Pick<ServiceDeps, 'db'>, who: Principal, id: string): Promise<void> {
  const endpoint = await findWebhook(deps, who, id);
  await deps.db.$transaction(async (tx) => {
    await tx.webhookEndpoint.delete({ where: { id: endpoint.id } });
    await recordAudit(tx, { action: 'webhook.deleted', actorUserId: who.userId, tenantId: endpoint.tenantId, details: { webhookId: endpoint.id, url: endpoint.url } });
  });
}

export function listDeliveries(
  deps: Pick<ServiceDeps, 'db'>,
  endpoint: WebhookEndpoint,
  page: PageArgs,
  filters: { status?: WebhookDeliveryStatus; instanceId?: string },
): Promise<WebhookDelivery[]> {
  return deps.db.webhookDelivery.findMany({
    ...page,
    where: { AND: [page.where, { endpointId: endpoint.id }, filters.status ? { status: filters.status } : {}, filters.instanceId ? { instanceId: filters.instanceId } : {}] },
  });
}

/**
 * Sends a delivered or failed delivery again, with a fresh retry window: its endpoint × server
 * delivery workflow is started now rather than at the dispatcher's next round (which starts it
 * when this start fails).
 */
export async function redeliver(deps: Pick<ServiceDeps, 'db' | 'temporal' | 'config' | 'logger'>, who: Principal, endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
  const endpoint = await findWebhook(deps, who, endpointId);
  if (endpoint.status !== 'enabled') throw new AppError('INVALID_STATE', 'This endpoint is disabled: enable it first.', { status: endpoint.status });
  const reset = await deps.db.webhookDelivery.updateMany({
    where: { id: deliveryId, endpointId: endpoint.id, status: { in: ['succeeded', 'failed'] } },
    data: { status: 'pending', nextAttemptAt: null, retryUntil: null, deliveredAt: null },
  });
  const row = await deps.db.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId: endpoint.id } });
  if (!row) throw notFound('delivery');
  if (reset.count === 0) throw new AppError('INVALID_STATE', 'This delivery is still pending.', { status: row.status });
  await startDeliveryWorkflow(deps.temporal, deps.config, { endpointId: endpoint.id, instanceId: row.instanceId }).catch((error: unknown) =>
    deps.logger.warn({ err: error, endpointId: endpoint.id }, 'delivery workflow start deferred to the dispatcher'),
  );
  return row;
}
