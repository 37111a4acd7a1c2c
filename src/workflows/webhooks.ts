import { continueAsNew, proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { retryDelayMs, type DeliverWebhooksInput } from '../domain/webhooks';
import { bookkeepingOptions, LIVENESS_HEARTBEAT_SECONDS } from './activity-options';

// Database work and one bounded HTTP call per attempt: each attempt gets 30 s (one whose worker
// died is retried after the heartbeat timeout), and infrastructure failures (database away, worker
// lost) retry for as long as it takes; the receiver's failures are answers, handled below with
// their own schedule.
const activities = proxyActivities<Activities>(bookkeepingOptions(1, undefined, LIVENESS_HEARTBEAT_SECONDS));

/** Deliveries handled by one run before it continues as new, keeping its history short. */
const DELIVERIES_PER_RUN = 50;

/**
 * Delivers the pending webhook deliveries of one endpoint for one instance, one at a time, in
 * event order; each is retried with doubling delays until it is delivered or its retry window ends
 * (then it is failed and the next one goes). Ends when none is left or the endpoint is disabled;
 * the dispatcher starts it again when more arrive.
 */
export async function DeliverWebhooks(input: DeliverWebhooksInput): Promise<void> {
  for (let handled = 0; handled < DELIVERIES_PER_RUN; handled++) {
    const claimed = await activities.claimWebhookDelivery({ endpointId: input.endpointId, instanceId: input.instanceId });
    if (!claimed) return;
    const outcome = await deliver(claimed, input.retryInitialMs);
    if (outcome === 'endpoint_disabled') return;
  }
  await continueAsNew<typeof DeliverWebhooks>(input);
}

async function deliver(claimed: { deliveryId: string; attempts: number }, retryInitialMs: number) {
  for (let attempt = claimed.attempts + 1; ; attempt++) {
    const retryDelay = retryDelayMs(attempt - claimed.attempts, retryInitialMs);
    const outcome = await activities.attemptWebhookDelivery({ deliveryId: claimed.deliveryId, attempt, retryDelayMs: retryDelay });
    if (outcome !== 'retry') return outcome;
    await sleep(retryDelay);
  }
}
