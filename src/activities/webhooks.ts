import { claimNextDelivery, type AttemptOutcome, type ClaimedDelivery } from '../db/webhooks';
import { attemptDelivery } from '../webhooks/delivery';
import type { ActivityDeps } from './deps';

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
    return attemptDelivery(deps, input);
  };
}
