/** Webhook rules shared by the API, the activities and the delivery workflow (no I/O here). */

/** Longest wait between two attempts of one delivery. */
export const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;

/** The wait after the `failedAttempts`-th failed attempt in a row: doubling from `initialMs`, at most an hour. */
export function retryDelayMs(failedAttempts: number, initialMs: number): number {
  return Math.min(MAX_RETRY_DELAY_MS, initialMs * 2 ** Math.max(0, Math.min(failedAttempts - 1, 30)));
}

/** An attempt succeeded when the receiver answered 2xx. */
export const isDelivered = (status: number | null) => status !== null && status >= 200 && status < 300;

/**
 * The last error of a delivery, and the reason its endpoint is disabled, when no key of the
 * encryption key ring opens the endpoint's signing secret: nothing can be signed until the key
 * ring changes, so retrying cannot help.
 */
export const SECRET_UNREADABLE_ERROR =
  'SECRET_UNREADABLE: no key of the encryption key ring opens the signing secret; put back the key it was sealed with and enable the endpoint again, or register it again';

/** The settings a delivery workflow runs with, handed to it by whoever starts it. */
export interface WebhookDeliverySettings {
  retryInitialMs: number;
}

export interface DeliverWebhooksInput extends WebhookDeliverySettings {
  endpointId: string;
  instanceId: string;
}
