import type { InstanceEventType } from '../domain/events';
import { isDelivered } from '../domain/webhooks';
import { Prisma, type InstanceEvent } from '../generated/prisma/client';
import { runSql, type Db, type Queryable } from './client';

/**
 * Whether endpoint `w` (webhook_endpoints under that alias) gets an event of a tenant's instance:
 * it is enabled, it is the tenant's own or the admins' for every tenant, and it asked for no
 * types (every type) or for the event's. Both ways of writing deliveries (createWebhookDeliveries
 * and the one-statement moves of db/instance-state) match endpoints by it; `tenantId` and `type`
 * are values or columns of the statement.
 */
export function endpointWantsEvent(event: { tenantId: string | Prisma.Sql; type: string | Prisma.Sql }): Prisma.Sql {
  return Prisma.sql`w.status = 'enabled' AND (w."tenantId" IS NULL OR w."tenantId" = ${event.tenantId})
    AND (cardinality(w."eventTypes") = 0 OR ${event.type} = ANY (w."eventTypes"))`;
}

/** Whether any endpoint gets any of `types` of a tenant's instance. */
export async function anyEndpointWants(tx: Queryable, tenantId: string, types: InstanceEventType[]): Promise<boolean> {
  const [row] = await runSql<{ wanted: boolean }>(tx, Prisma.sql`
    SELECT EXISTS (SELECT 1 FROM webhook_endpoints w, unnest(${types}::text[]) AS event(type)
      WHERE ${endpointWantsEvent({ tenantId, type: Prisma.sql`event.type` })}) AS wanted`);
  return row?.wanted ?? false;
}

/**
 * One pending delivery per endpoint that gets the event. Called by appendEvents, in the event's
 * transaction, so an event committed is an event that will be delivered.
 */
export async function createWebhookDeliveries(tx: Queryable, event: { id: string; seq: bigint; tenantId: string; instanceId: string; type: InstanceEventType }): Promise<void> {
  await runSql(tx, Prisma.sql`
    INSERT INTO webhook_deliveries (id, "endpointId", "eventId", "eventType", "eventSeq", "instanceId", "createdAt")
    SELECT new_id('whd'), w.id, ${event.id}, ${event.type}, ${event.seq}, ${event.instanceId}, ${new Date()}
    FROM webhook_endpoints w WHERE ${endpointWantsEvent(event)}
    ON CONFLICT DO NOTHING`);
}

/** The JSON body a receiver gets; its bytes are what the signature covers. `secretData` joins the event's data in this body only (a `user.invited` link). */
export function webhookBody(event: InstanceEvent, secretData: Record<string, unknown> = {}): string {
  const data = { ...(event.data as Prisma.JsonObject), ...secretData };
  return JSON.stringify({ id: event.id, type: event.type, createdAt: event.createdAt.toISOString(), data, instanceId: event.instanceId, tenantId: event.tenantId });
}

export interface ClaimedDelivery {
  deliveryId: string;
  /** Attempts made so far (a redelivered one keeps counting). */
  attempts: number;
}

/**
 * The oldest pending delivery (in event order) of an endpoint for an instance, now held by the
 * caller's workflow; null when there is none or the endpoint is disabled or gone.
 */
export async function claimNextDelivery(db: Db, o: { endpointId: string; instanceId: string }): Promise<ClaimedDelivery | null> {
  const endpoint = await db.webhookEndpoint.findUnique({ where: { id: o.endpointId }, select: { status: true } });
  if (endpoint?.status !== 'enabled') return null;
  const next = await db.webhookDelivery.findFirst({ where: { endpointId: o.endpointId, instanceId: o.instanceId, status: 'pending' }, orderBy: { eventSeq: 'asc' } });
  if (!next) return null;
  await db.webhookDelivery.update({ where: { id: next.id }, data: { nextAttemptAt: new Date() } });
  return { deliveryId: next.id, attempts: next.attempts };
}

export type AttemptOutcome = 'delivered' | 'retry' | 'failed' | 'gone' | 'endpoint_disabled';

/**
 * Records one attempt's answer: the delivery succeeds, waits `retryDelayMs` for its next attempt,
 * or fails when that would end after its retry window (which the first attempt opens). A failure
 * starts or continues the endpoint's failing streak; a streak older than `disableAfterMs` disables
 * the endpoint, which says why. A success ends the streak. A `hopeless` attempt (one no retry can
 * mend) fails the delivery at once and disables the endpoint with its error as the reason.
 */
export async function recordAttempt(
  db: Db,
  o: {
    deliveryId: string;
    endpointId: string;
    attempt: number;
    retryDelayMs: number;
    retryWindowMs: number;
    status: number | null;
    error: string | null;
    disableAfterMs: number;
    hopeless?: boolean;
  },
): Promise<AttemptOutcome> {
  const delivered = isDelivered(o.status);
  const now = new Date();
  const lastError = delivered ? null : (o.error ?? `the receiver answered ${o.status}`);
  return db.$transaction(async (tx) => {
    const row = await tx.webhookDelivery.findUnique({ where: { id: o.deliveryId }, select: { retryUntil: true } });
    // Null at the first attempt, after a redelivery, and when the endpoint was enabled again.
    const retryUntil = row?.retryUntil ?? new Date(now.getTime() + o.retryWindowMs);
    const next = new Date(now.getTime() + o.retryDelayMs);
    const retryAt = !o.hopeless && next <= retryUntil ? next : null;
    const written = await tx.webhookDelivery.updateMany({
      where: { id: o.deliveryId, status: 'pending' },
      data: {
        attempts: o.attempt,
        lastResponseCode: o.status,
        lastError,
        lastAttemptAt: now,
        retryUntil,
        status: delivered ? 'succeeded' : retryAt ? 'pending' : 'failed',
        nextAttemptAt: delivered ? null : retryAt,
        deliveredAt: delivered ? now : null,
      },
    });
    if (written.count === 0) return 'gone';
    if (delivered) {
      await tx.webhookEndpoint.updateMany({ where: { id: o.endpointId, failingSince: { not: null } }, data: { failingSince: null } });
      return 'delivered';
    }
    const [streak] = await tx.$queryRaw<{ failingSince: Date; status: string }[]>`
      UPDATE webhook_endpoints SET "failingSince" = COALESCE("failingSince", ${now}) WHERE id = ${o.endpointId} RETURNING "failingSince", status::text`;
    if (streak?.status === 'enabled' && (o.hopeless || now.getTime() - streak.failingSince.getTime() >= o.disableAfterMs)) {
      const disabledReason = o.hopeless ? `${lastError}.` : `Deliveries have failed since ${streak.failingSince.toISOString()} (last: ${lastError}).`;
      await tx.webhookEndpoint.update({ where: { id: o.endpointId }, data: { status: 'disabled', disabledAt: now, disabledReason } });
      return 'endpoint_disabled';
    }
    return retryAt ? 'retry' : 'failed';
  });
}

/** Groups (endpoint × instance) with pending deliveries that no delivery workflow holds (none attempted or scheduled since `staleBefore`). */
export function unheldDeliveryGroups(db: Db, staleBefore: Date, limit = 500): Promise<{ endpointId: string; instanceId: string }[]> {
  return db.$queryRaw<{ endpointId: string; instanceId: string }[]>`
    SELECT d."endpointId", d."instanceId"
    FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d."endpointId"
    WHERE d.status = 'pending' AND e.status = 'enabled'
    GROUP BY d."endpointId", d."instanceId"
    HAVING bool_and(d."nextAttemptAt" IS NULL OR d."nextAttemptAt" < ${staleBefore})
    LIMIT ${limit}`;
}
