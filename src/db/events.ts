import type { InstanceEventData, InstanceEventType } from '../domain/events';
import { Prisma } from '../generated/prisma/client';
import { newId } from '../security/ids';
import { runSql, type Queryable } from './client';
import { anyEndpointWants, createWebhookDeliveries } from './webhooks';

/**
 * Appends an instance's events, in order, and their webhook deliveries; call it inside the
 * transaction that makes the change they report (Prisma's or our own). Without an endpoint that
 * gets any of them, the events are one insert.
 */
export async function appendEvents(tx: Queryable, instance: { tenantId: string; instanceId: string }, events: { type: InstanceEventType; data: InstanceEventData }[]): Promise<void> {
  if (events.length === 0) return;
  const now = new Date();
  const rows = events.map((event) => Prisma.sql`(${newId('evt')}, ${instance.tenantId}, ${instance.instanceId}, ${event.type}, CAST(${JSON.stringify(event.data)} AS jsonb), ${now})`);
  const insert = (values: Prisma.Sql[]) =>
    runSql<{ id: string; seq: bigint; type: InstanceEventType }>(
      tx,
      Prisma.sql`INSERT INTO instance_events (id, "tenantId", "instanceId", type, data, "createdAt") VALUES ${Prisma.join(values)} RETURNING id, seq, type`,
    );
  if (!(await anyEndpointWants(tx, instance.tenantId, events.map((event) => event.type)))) {
    await insert(rows);
    return;
  }
  // One event after the other, each with its deliveries, so deliveries are written in event order.
  for (const values of rows) {
    const [row] = await insert([values]);
    if (row) await createWebhookDeliveries(tx, { ...row, ...instance });
  }
}
