import { claimNextDelivery, recordAttempt, webhookBody, type AttemptOutcome, type ClaimedDelivery } from '../db/webhooks';
import { postWebhook, signWebhook } from '../security/webhooks';
import { webhookTargetPolicy } from '../webhook-policy';
import type { ActivityDeps } from './deps';

/** Longest wait for a receiver's answer; well inside the activity's 30 s attempt. */
const RECEIVER_TIMEOUT_MS = 10_000;

export function createClaimWebhookDeliveryActivity(deps: ActivityDeps) {
  // Converges on retry: it takes whatever delivery is oldest now; taking the same one twice changes nothing.
  return async function claimWebhookDelivery(input: { endpointId: string; instanceId: string }): Promise<ClaimedDelivery | null> {
    return claimNextDelivery(deps.db, input);
  };
}

export function createAttemptWebhookDeliveryActivity(deps: ActivityDeps) {
  // Converges on retry: the attempt number is absolute and a settled delivery is not sent again; a
  // receiver may still get the same event twice (at-least-once, same Pvecp-Event-Id).
  return async function attemptWebhookDelivery(input: { deliveryId: string; attempt: number; retryDelayMs: number }): Promise<AttemptOutcome> {
    const delivery = await deps.db.webhookDelivery.findUnique({ where: { id: input.deliveryId }, include: { endpoint: true } });
    if (!delivery) return 'gone';
    if (delivery.status === 'succeeded') return 'delivered';
    if (delivery.status === 'failed') return 'failed';
    const { endpoint } = delivery;
    if (endpoint.status !== 'enabled') return 'endpoint_disabled';
    const event = await deps.db.instanceEvent.findUniqueOrThrow({ where: { id: delivery.eventId } });
    const body = webhookBody(event);
    const signature = signWebhook(deps.secrets.open(endpoint.secretCipher, endpoint.id), body, Math.floor(Date.now() / 1000));
    const answer = await postWebhook(
      endpoint.url,
      body,
      { 'user-agent': 'pvecp-webhooks/1', 'pvecp-event-id': event.id, 'pvecp-event-type': event.type, 'pvecp-delivery-id': delivery.id, 'pvecp-signature': signature },
      webhookTargetPolicy(deps.config),
      RECEIVER_TIMEOUT_MS,
    );
    return recordAttempt(deps.db, {
      deliveryId: delivery.id,
      endpointId: endpoint.id,
      attempt: input.attempt,
      retryDelayMs: input.retryDelayMs,
      retryWindowMs: deps.config.WEBHOOK_RETRY_WINDOW_SECONDS * 1000,
      status: answer.status,
      error: answer.error,
      disableAfterMs: deps.config.WEBHOOK_DISABLE_AFTER_SECONDS * 1000,
    });
  };
}
