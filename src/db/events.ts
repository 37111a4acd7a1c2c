import type { InstanceEventData, InstanceEventType } from '../domain/events';
import { newId } from '../security/ids';
import type { Tx } from './client';
import { anyEndpointWants, createWebhookDeliveries } from './webhooks';

/**
 * Appends an instance's events, in order, and their webhook deliveries; call it inside the
 * transaction that makes the change they report. Without an endpoint that gets any of them, the
 * events are one insert.
 */
export async function appendEvents(tx: Tx, instance: { tenantId: string; instanceId: string }, events: { type: InstanceEventType; data: InstanceEventData }[]): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map((event) => ({ id: newId('evt'), tenantId: instance.tenantId, instanceId: instance.instanceId, type: event.type, data: { ...event.data } }));
  if (!(await anyEndpointWants(tx, instance.tenantId, events.map((event) => event.type)))) {
    await tx.instanceEvent.createMany({ data: rows });
    return;
  }
  // One event after the other, each with its deliveries, so deliveries are written in event order.
  for (const data of rows) {
    const row = await tx.instanceEvent.create({ data });
    await createWebhookDeliveries(tx, { ...row, type: data.type });
  }
}
