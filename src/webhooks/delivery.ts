import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Config } from '../config';
import type { InstanceEvent } from '../generated/prisma/client';
import type { Db } from '../db/client';
import { SECRET_UNREADABLE_ERROR } from '../domain/webhooks';
import type { Logger } from '../logger';
import { recordAttempt, webhookBody, type AttemptOutcome } from '../db/webhooks';
import type { SecretBox } from '../security/secrets';
import { webhookTargetPolicy, type TargetPolicy } from './policy';
import { signatureHeaders } from './signing';
import { assertPublic, bareHost, checkWebhookUrl, guardedLookup, WebhookTargetError } from './targets';

/** Longest an attempt's POST may take, answer included; well inside the delivery activity's 30 s attempt. */
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
  const body = webhookBody(event, await secretDataOf(deps, event));
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
  const answer = await postWebhook(
    endpoint.url,
    body,
    {
      'user-agent': 'pvecp-webhooks/1',
      'pvecp-event-id': event.id,
      'pvecp-event-type': event.type,
      'pvecp-delivery-id': delivery.id,
      // The event id is the Standard Webhooks message id: the same for every attempt, like Pvecp-Event-Id.
      ...signatureHeaders(secret, event.id, body, Math.floor(Date.now() / 1000)),
    },
    webhookTargetPolicy(deps.config),
    RECEIVER_TIMEOUT_MS,
  );
  return recordAttempt(deps.db, { ...recorded, status: answer.status, error: answer.error });
}

/**
 * What a receiver gets besides the stored event: a `user.invited` webhook carries the invitation's
 * link, null once it was accepted or revoked (the sealed link is erased then).
 */
async function secretDataOf(deps: { db: Db; secrets: SecretBox }, event: InstanceEvent): Promise<Record<string, unknown>> {
  if (event.type !== 'user.invited') return {};
  const invite = await deps.db.userInvite.findUnique({ where: { id: event.instanceId }, select: { id: true, linkCipher: true } });
  return { url: invite?.linkCipher ? deps.secrets.open(invite.linkCipher, invite.id) : null };
}

export interface WebhookResponse {
  /** The HTTP status; null when no answer came (the error says why). */
  status: number | null;
  error: string | null;
}

const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * POSTs one webhook body. Never throws for the receiver's sake: a refusal of the target, a
 * connection error or a missed deadline is an answer without a status. Redirects are not followed.
 * The whole attempt, from the lookup to the answer's last byte, ends within `timeoutMs`: a
 * receiver that trickles its answer, or never finishes it, is cut off, so an attempt cannot hold
 * the worker past its activity's timeout. Only an answer read to its end (or to
 * MAX_RESPONSE_BYTES) counts.
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
    let answeredStatus: number | undefined;
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup(policy),
        agent: false,
      },
      (response) => {
        answeredStatus = response.statusCode;
        const answered = { status: response.statusCode ?? null, error: null };
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) settle(answered);
        });
        response.on('end', () => settle(answered));
        const cutOff = () => settle({ status: null, error: `the answer (${response.statusCode}) was cut off` });
        response.on('close', cutOff);
        response.on('error', cutOff);
      },
    );
    const deadline = setTimeout(
      () => settle({ status: null, error: answeredStatus === undefined ? `no answer within ${timeoutMs} ms` : `the answer (${answeredStatus}) did not finish within ${timeoutMs} ms` }),
      timeoutMs,
    );
    // The first outcome wins; whatever the connection does after it is ignored.
    function settle(outcome: WebhookResponse) {
      clearTimeout(deadline);
      resolve(outcome);
      request.destroy();
    }
    request.on('error', (error) => settle({ status: null, error: describe(error) }));
    // A 101 nobody asked for hands over the socket: it is closed, and the attempt failed.
    request.on('upgrade', (_response, socket) => {
      socket.destroy();
      settle({ status: null, error: 'the receiver switched protocols instead of answering' });
    });
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
