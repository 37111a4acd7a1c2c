import type { InstanceEventData, InstanceEventType } from '../domain/events';
import { newId } from '../security/ids';
import type { Tx } from './client';
import { createWebhookDeliveries, webhookEndpointsFor } from './webhooks';

/**
 * Appends an instance's events, in order, and their webhook deliveries; call it inside the
 * transaction that makes the change they report. The endpoints are looked up once; without any,
 * the events are one insert.
 */
export async function appendEvents(tx: Tx, instance: { tenantId: string; instanceId: string }, events: { type: InstanceEventType; data: InstanceEventData }[]): Promise<void> {
  if (events.length === 0) return;
  const endpoints = await webhookEndpointsFor(tx, instance.tenantId, events.map((event) => event.type));
  const rows = events.map((event) => ({ id: newId('evt'), tenantId: instance.tenantId, instanceId: instance.instanceId, type: event.type, data: { ...event.data } }));
  if (endpoints.length === 0) {
    await tx.instanceEvent.createMany({ data: rows });
    return;
  }
  // One event after the other, each with its deliveries, so deliveries are written in event order.
  for (const data of rows) {
    const row = await tx.instanceEvent.create({ data });
    await createWebhookDeliveries(tx, endpoints, { ...row, type: data.type });
  }
}
