import { lookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { SECRET_UNREADABLE_ERROR } from '../domain/webhooks';
import type { Logger } from '../logger';
import { recordAttempt, webhookBody, type AttemptOutcome } from '../db/webhooks';
import type { SecretBox } from '../security/secrets';
import { webhookTargetPolicy, type TargetPolicy } from './policy';
import { signWebhook } from './signing';
import { assertPublic, bareHost, checkWebhookUrl, WebhookTargetError } from './targets';

/** Longest wait for a receiver's answer; well inside the delivery activity's 30 s attempt. */
const RECEIVER_TIMEOUT_MS = 10_000;

/**
 * One attempt of one delivery: the event's body, signed with the endpoint's secret, POSTed to the
 * endpoint, and the answer recorded. A delivery that is settled, gone or whose endpoint is
 * disabled is not sent. A secret no key of the ring opens fails the delivery without a retry and
 * disables the endpoint (SECRET_UNREADABLE).
 */
export async function attemptDelivery(
  deps: { db: Db; secrets: SecretBox; config: Config; logger: Logger },
  input: { deliveryId: string; attempt: number; retryDelayMs: number },
): Promise<AttemptOutcome> {
  const delivery = await deps.db.webhookDelivery.findUnique({ where: { id: input.deliveryId }, include: { endpoint: true } });
  if (!delivery) return 'gone';
  if (delivery.status === 'succeeded') return 'delivered';
  if (delivery.status === 'failed') return 'failed';
  const { endpoint } = delivery;
  if (endpoint.status !== 'enabled') return 'endpoint_disabled';
  const event = await deps.db.instanceEvent.findUniqueOrThrow({ where: { id: delivery.eventId } });
  const body = webhookBody(event);
  const recorded = {
    deliveryId: delivery.id,
    endpointId: endpoint.id,
    attempt: input.attempt,
    retryDelayMs: input.retryDelayMs,
    retryWindowMs: deps.config.WEBHOOK_RETRY_WINDOW_SECONDS * 1000,
    disableAfterMs: deps.config.WEBHOOK_DISABLE_AFTER_SECONDS * 1000,
  };
  let secret: string;
  try {
    secret = deps.secrets.open(endpoint.secretCipher, endpoint.id);
  } catch (error) {
    // Logged once: the endpoint is disabled with it, so none of its later deliveries is attempted.
    // The reason names a key id at most, never key material.
    deps.logger.error({ endpointId: endpoint.id, deliveryId: delivery.id, reason: (error as Error).message }, 'webhook endpoint disabled: its signing secret cannot be opened');
    return recordAttempt(deps.db, { ...recorded, status: null, error: SECRET_UNREADABLE_ERROR, hopeless: true });
  }
  const signature = signWebhook(secret, body, Math.floor(Date.now() / 1000));
  const answer = await postWebhook(
    endpoint.url,
    body,
    { 'user-agent': 'pvecp-webhooks/1', 'pvecp-event-id': event.id, 'pvecp-event-type': event.type, 'pvecp-delivery-id': delivery.id, 'pvecp-signature': signature },
    webhookTargetPolicy(deps.config),
    RECEIVER_TIMEOUT_MS,
  );
  return recordAttempt(deps.db, { ...recorded, status: answer.status, error: answer.error });
}

/**
 * A DNS lookup for the delivery's connection that refuses private addresses: the address checked
 * is the address connected to, so a name that resolves differently later (DNS rebinding) cannot
 * slip past a check made earlier.
 */
function guardedLookup(policy: TargetPolicy): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, found) => {
      if (error) return callback(error, '', 0);
      const addresses = found as unknown as LookupAddress[];
      try {
        assertPublic(
          addresses.map((a) => a.address),
          policy,
        );
      } catch (refusal) {
        return callback(refusal as NodeJS.ErrnoException, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };
}

export interface WebhookResponse {
  /** The HTTP status; null when no answer came (the error says why). */
  status: number | null;
  error: string | null;
}

const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * POSTs one webhook body. Never throws for the receiver's sake: a refusal of the target, a
 * connection error or a timeout is an answer without a status. Redirects are not followed.
 */
export function postWebhook(rawUrl: string, body: string, headers: Record<string, string>, policy: TargetPolicy, timeoutMs: number): Promise<WebhookResponse> {
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = checkWebhookUrl(rawUrl, policy);
      const host = bareHost(url);
      // An IP literal is connected to without a lookup: check it here.
      if (isIP(host)) assertPublic([host], policy);
    } catch (error) {
      return resolve({ status: null, error: describe(error) });
    }
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup(policy),
        timeout: timeoutMs,
        agent: false,
      },
      (response) => {
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) response.destroy();
        });
        const done = () => resolve({ status: response.statusCode ?? null, error: null });
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      },
    );
    request.on('timeout', () => request.destroy(new WebhookTargetError(`no answer within ${timeoutMs} ms`)));
    request.on('error', (error) => resolve({ status: null, error: describe(error) }));
    request.end(body);
  });
}

/** A short, secret-free reason for a failed attempt (the URL and headers are never part of it). */
function describe(error: unknown): string {
  if (error instanceof WebhookTargetError) return `target refused: ${error.message}`;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code) return `connection failed: ${code}`;
  return 'connection failed';
}
