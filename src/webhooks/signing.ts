import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

const SECRET_PREFIX = 'whsec_';

/**
 * A webhook signing secret: `whsec_` and 256 random bits in base64, the Standard Webhooks form
 * (its libraries take it as it is), recognisable by its prefix in secret scanners.
 */
export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/**
 * The `Pvecp-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed
 * with the endpoint's secret (its UTF-8 bytes). The timestamp lets a receiver refuse replays.
 */
export function signWebhook(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/**
 * Every signature header of one delivery: `Pvecp-Signature`, and the Standard Webhooks set
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of
 * "<id>.<timestamp>.<body>">`) keyed with the bytes the secret's base64 names. Secrets made before
 * the Standard Webhooks form are base64url; Node reads both alphabets, so they name the same bytes.
 */
export function signatureHeaders(secret: string, messageId: string, body: string, unixSeconds: number): Record<string, string> {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return {
    'pvecp-signature': signWebhook(secret, body, unixSeconds),
    'webhook-id': messageId,
    'webhook-timestamp': String(unixSeconds),
    'webhook-signature': new Webhook(key, { format: 'raw' }).sign(messageId, new Date(unixSeconds * 1000), body),
  };
}
