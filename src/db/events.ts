import type { InstanceEventData, InstanceEventType } from '../domain/events';
import { newId } from '../domain/ids';
import type { Tx } from './client';
import { createWebhookDeliveries } from './webhooks';

/** Appends one instance event and its webhook deliveries; call it inside the transaction that makes the change it reports. */
export async function appendEvent(tx: Tx, event: { tenantId: string; instanceId: string; type: InstanceEventType; data: InstanceEventData }): Promise<void> {
  const row = await tx.instanceEvent.create({ data: { id: newId('evt'), tenantId: event.tenantId, instanceId: event.instanceId, type: event.type, data: { ...event.data } } });
  await createWebhookDeliveries(tx, { ...row, type: event.type });
}
