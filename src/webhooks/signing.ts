import { createHmac, randomBytes } from 'node:crypto';

/** A webhook signing secret: 256 random bits, recognisable by its prefix in secret scanners. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * The `Pvecp-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed
 * with the endpoint's secret (its UTF-8 bytes). The timestamp lets a receiver refuse replays.
 */
export function signWebhook(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}
