import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREATE_STOP_START_DELETE_EVENTS, runningServer, runOperation, stopStartDelete, suiteStack } from '../support/lifecycle';
import { SecretBox } from '../../src/security/secrets';
import { spawnWorkerProcess, startStack, type Stack, type WorkerProcess } from '../support/stack';
import { startReceiver, type ReceivedWebhook } from '../support/webhook-receiver';

/** The receiver's check from docs/api.md, verbatim. */
function verify(secret: string, header: string, rawBody: string, toleranceSeconds = 300) {
  const { t, v1 } = Object.fromEntries(header.split(',').map((part) => part.split('=')));
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex');
  const fresh = Math.abs(Date.now() / 1000 - Number(t)) <= toleranceSeconds;
  return fresh && expected.length === v1?.length && timingSafeEqual(Buffer.from(expected), Buffer.from(v1));
}

const stack = suiteStack(
  {
    env: {
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_INITIAL_MS: '100',
      WEBHOOK_RETRY_WINDOW_SECONDS: '2',
      WEBHOOK_DISABLE_AFTER_SECONDS: '4',
      WEBHOOK_DISPATCH_INTERVAL_MS: '100',
    },
  },
  // Each test's endpoints are its own.
  async (s) => void (await s.api.db.webhookEndpoint.deleteMany()),
);

const register = (body: Record<string, unknown>, token = stack.customer.token) => stack.api.request('POST', '/v1/webhooks', { token, body });
const webhook = (id: string, token = stack.customer.token) => stack.api.request('GET', `/v1/webhooks/${id}`, { token });
const deliveries = async (id: string, query = '', token = stack.customer.token) => (await stack.api.request('GET', `/v1/webhooks/${id}/deliveries${query}`, { token })).body.data as any[];

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const forInstance = (id: string) => (received: ReceivedWebhook[]) => received.filter((r) => r.json.instanceId === id);

describe('webhooks', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  it("delivers a server's whole life signed and in order, each event after the one before, even when every first attempt fails", async () => {
    receiver.received.length = 0;
    // Every event's first attempt is refused: deliveries of one instance still arrive in event order.
    const attemptsOf = new Map<string, number>();
    receiver.answerWith((request) => {
      const seen = (attemptsOf.get(request.json.id) ?? 0) + 1;
      attemptsOf.set(request.json.id, seen);
      return seen === 1 ? 503 : 204;
    });
    const created = await register({ url: receiver.url });
    expect(created.status).toBe(201);
    const { id: endpointId, secret } = created.body.data;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.body.data).toMatchObject({ tenantId: stack.customer.tenantId, url: receiver.url, eventTypes: [], status: 'enabled', disabledReason: null });

    const instanceId = await runningServer(stack, { hostname: 'hooked' });
    await stopStartDelete(stack, instanceId);

    const feed = (await stack.api.request('GET', `/v1/events?instanceId=${instanceId}`, { token: stack.customer.token })).body.data.reverse();
    expect(feed.map((e: { type: string }) => e.type)).toEqual(CREATE_STOP_START_DELETE_EVENTS);
    const accepted = () => forInstance(instanceId)(receiver.received).filter((r) => (attemptsOf.get(r.json.id) ?? 0) >= 2);
    await receiver.waitFor(() => new Set(accepted().map((r) => r.json.id)).size === feed.length, 'every event delivered');

    const posts = forInstance(instanceId)(receiver.received);
    // Each event was tried, refused, and tried again before the next event's first try.
    expect(posts.map((r) => r.json.id)).toEqual(feed.flatMap((e: { id: string }) => [e.id, e.id]));
    for (const [index, post] of posts.entries()) {
      const event = feed[Math.floor(index / 2)];
      expect(post.json).toEqual({ id: event.id, type: event.type, createdAt: event.createdAt, data: event.data, instanceId, tenantId: stack.customer.tenantId });
      expect(post.headers['pvecp-event-id']).toBe(event.id);
      expect(post.headers['pvecp-event-type']).toBe(event.type);
      expect(post.headers['content-type']).toBe('application/json');
      expect(verify(secret, String(post.headers['pvecp-signature']), post.body)).toBe(true);
      // A body or a secret that differs does not verify.
      expect(verify(secret, String(post.headers['pvecp-signature']), post.body.replace('"instance.', '"instance.x'))).toBe(false);
      expect(verify(`${secret}x`, String(post.headers['pvecp-signature']), post.body)).toBe(false);
      // The Standard Webhooks headers verify with its library, as a receiver would check them.
      expect(post.headers['webhook-id']).toBe(event.id);
      expect(new Webhook(secret).verify(post.body, post.headers as Record<string, string>)).toEqual(post.json);
      expect(() => new Webhook(secret).verify(post.body.replace('"instance.', '"instance.x'), post.headers as Record<string, string>)).toThrow(WebhookVerificationError);
    }

    const listed = await until(
      () => deliveries(endpointId, `?instanceId=${instanceId}`),
      (rows) => rows.length === feed.length && rows.every((d) => d.status === 'succeeded'),
      'every delivery recorded as succeeded',
    );
    expect(listed.map((d) => d.eventId).reverse()).toEqual(feed.map((e: { id: string }) => e.id));
    for (const delivery of listed) {
      expect(delivery).toMatchObject({ attempts: 2, lastResponseCode: 204, lastError: null, nextAttemptAt: null });
      expect(delivery.deliveredAt).not.toBeNull();
    }
  });

  it('sends an event once more than the receiver failed it: two failures then a success are three POSTs with one event id', async () => {
    receiver.received.length = 0;
    receiver.answerWith((_request, index) => (index === 0 ? 500 : index === 1 ? 'drop' : 200));
    const created = await register({ url: receiver.url, eventTypes: ['instance.created'] });
    const endpointId = created.body.data.id;

    const instance = await stack.create({ hostname: 'thrice' });
    const instanceId = instance.body.data.id as string;
    const [delivery] = await until(
      () => deliveries(endpointId),
      (rows) => rows[0]?.status === 'succeeded',
      'the delivery succeeded',
    );
    expect(delivery).toMatchObject({ instanceId, eventType: 'instance.created', status: 'succeeded', attempts: 3, lastResponseCode: 200, lastError: null });
    const posts = forInstance(instanceId)(receiver.received);
    expect(posts).toHaveLength(3);
    expect(new Set(posts.map((p) => p.headers['pvecp-event-id']))).toEqual(new Set([delivery.eventId]));
    // Only the event type it asked for came, although the server went on to run.
    await stack.waitForStatus(instanceId, ['running']);
    expect(posts.every((p) => p.json.type === 'instance.created')).toBe(true);
  });

  it('marks a delivery failed when its retry window ends, and redelivers it on demand; a delivered one can be sent again too', async () => {
    receiver.received.length = 0;
    receiver.answerWith(() => 500);
    const created = await register({ url: receiver.url, eventTypes: ['instance.created'] });
    const endpointId = created.body.data.id;
    const instanceId = (await stack.create({ hostname: 'redeliver' })).body.data.id as string;

    const [failed] = await until(() => deliveries(endpointId), (rows) => rows[0]?.status === 'failed', 'the delivery failed');
    expect(failed).toMatchObject({ instanceId, lastResponseCode: 500, lastError: 'the receiver answered 500', nextAttemptAt: null, deliveredAt: null });
    expect(failed.attempts).toBeGreaterThanOrEqual(3);
    expect(forInstance(instanceId)(receiver.received)).toHaveLength(failed.attempts);
    // The endpoint shows it is failing, and has not failed long enough to be disabled.
    const endpoint = (await webhook(endpointId)).body.data;
    expect(endpoint.status).toBe('enabled');
    expect(endpoint.failingSince).not.toBeNull();

    receiver.answerWith(() => 200);
    const again = await stack.api.request('POST', `/v1/webhooks/${endpointId}/deliveries/${failed.id}/redeliver`, { token: stack.customer.token });
    expect(again.status).toBe(202);
    const [delivered] = await until(() => deliveries(endpointId), (rows) => rows[0]?.status === 'succeeded', 'the redelivery succeeded');
    expect(delivered).toMatchObject({ id: failed.id, attempts: failed.attempts + 1, lastResponseCode: 200, lastError: null });
    expect((await webhook(endpointId)).body.data.failingSince).toBeNull();

    const once = await stack.api.request('POST', `/v1/webhooks/${endpointId}/deliveries/${failed.id}/redeliver`, { token: stack.customer.token });
    expect(once.status).toBe(202);
    await until(() => deliveries(endpointId), (rows) => rows[0]?.status === 'succeeded' && rows[0]?.attempts === failed.attempts + 2, 'the second redelivery');
    const posts = forInstance(instanceId)(receiver.received);
    expect(posts).toHaveLength(failed.attempts + 2);
    expect(new Set(posts.map((p) => p.json.id)).size).toBe(1);

    const unknown = await stack.api.request('POST', `/v1/webhooks/${endpointId}/deliveries/whd_nothere/redeliver`, { token: stack.customer.token });
    expect(unknown.status).toBe(404);
  });

  it('disables an endpoint that has failed for longer than WEBHOOK_DISABLE_AFTER_SECONDS, says why, and delivers again once enabled', async () => {
    receiver.received.length = 0;
    receiver.answerWith(() => 'drop');
    const endpointId = (await register({ url: receiver.url })).body.data.id;
    const instanceId = await runningServer(stack, { hostname: 'unheard' });

    const disabled = await until(
      async () => (await webhook(endpointId)).body.data,
      (row) => row.status === 'disabled',
      'the endpoint disabled',
    );
    expect(disabled.disabledReason).toMatch(/^Deliveries have failed since \d{4}-.*\(last: connection failed: ECONNRESET\)\.$/);
    expect(disabled.disabledAt).not.toBeNull();
    // A disabled endpoint gets no deliveries for new events.
    const before = (await deliveries(endpointId)).length;
    await runOperation(stack, instanceId, 'stop');
    expect(await deliveries(endpointId)).toHaveLength(before);
    const redeliver = await stack.api.request('POST', `/v1/webhooks/${endpointId}/deliveries/${(await deliveries(endpointId))[0].id}/redeliver`, { token: stack.customer.token });
    expect(redeliver.status).toBe(409);
    expect(redeliver.body.error.code).toBe('INVALID_STATE');

    receiver.answerWith(() => 200);
    const enabled = await stack.api.request('PATCH', `/v1/webhooks/${endpointId}`, { token: stack.customer.token, body: { enabled: true } });
    expect(enabled.body.data).toMatchObject({ status: 'enabled', disabledReason: null, disabledAt: null, failingSince: null });
    await runOperation(stack, instanceId, 'start');
    await receiver.waitFor((received) => received.some((r) => r.json.instanceId === instanceId && r.json.type === 'instance.starting'), 'instance.starting delivered');
  });

  it('keeps endpoints to their tenant; an admin endpoint without a tenant hears every tenant', async () => {
    receiver.received.length = 0;
    receiver.answerWith(() => 200);
    const other = await stack.api.createCustomer();
    const mine = (await register({ url: receiver.url, eventTypes: ['instance.created'] })).body.data.id;
    const theirs = (await register({ url: `${receiver.url}?theirs`, eventTypes: ['instance.created'] }, other.token)).body.data.id;
    const everyone = (await register({ url: `${receiver.url}?admin`, eventTypes: ['instance.created'] }, stack.api.adminToken)).body.data;
    expect(everyone.tenantId).toBeNull();

    for (const path of [`/v1/webhooks/${mine}`, `/v1/webhooks/${mine}/deliveries`, `/v1/webhooks/${everyone.id}`]) {
      expect((await stack.api.request('GET', path, { token: other.token })).status, path).toBe(404);
    }
    expect((await stack.api.request('DELETE', `/v1/webhooks/${mine}`, { token: other.token })).status).toBe(404);
    expect((await stack.api.request('GET', '/v1/webhooks', { token: other.token })).body.data.map((w: { id: string }) => w.id)).toEqual([theirs]);
    const forbidden = await register({ url: receiver.url, tenantId: other.tenantId }, stack.customer.token);
    expect(forbidden.status).toBe(403);

    const instanceId = (await stack.create({ hostname: 'tenanted' })).body.data.id as string;
    await receiver.waitFor((received) => forInstance(instanceId)(received).length === 2, 'mine and the admin endpoint got it');
    expect(forInstance(instanceId)(receiver.received).map((r) => r.headers['pvecp-delivery-id'] && r.json.type)).toEqual(['instance.created', 'instance.created']);
    expect(await deliveries(theirs, '', other.token)).toEqual([]);
    expect((await deliveries(everyone.id, '', stack.api.adminToken)).map((d) => d.instanceId)).toEqual([instanceId]);

    expect((await stack.api.request('DELETE', `/v1/webhooks/${mine}`, { token: stack.customer.token })).status).toBe(204);
    expect((await webhook(mine)).status).toBe(404);
  });

  it('cuts off a receiver that trickles its answer at the attempt deadline, and records each such attempt as failed', async () => {
    receiver.received.length = 0;
    receiver.cutOff.length = 0;
    receiver.answerWith(() => 'drip');
    const endpointId = (await register({ url: receiver.url, eventTypes: ['instance.created'] })).body.data.id;
    const instanceId = (await stack.create({ hostname: 'dripped' })).body.data.id as string;

    // Each attempt ends at its 10 s deadline, long before the activity's timeout, so the retry
    // schedule (here a 2 s window) runs its course instead of the attempt hanging.
    const [failed] = await until(() => deliveries(endpointId), (rows) => rows[0]?.status === 'failed', 'the delivery failed', 60_000);
    expect(failed).toMatchObject({ instanceId, lastResponseCode: null, lastError: 'the answer (200) did not finish within 10000 ms', nextAttemptAt: null, deliveredAt: null });
    expect(failed.attempts).toBeGreaterThanOrEqual(2);
    expect(forInstance(instanceId)(receiver.received)).toHaveLength(failed.attempts);
    await until(async () => receiver.cutOff.length, (cut) => cut === failed.attempts, 'every dripping answer cut off by the sender');
  });

  it('shows the secret in the creation answer only, never in a view, a delivery, the audit trail or the database in clear', async () => {
    receiver.answerWith(() => 500);
    const created = await register({ url: receiver.url, eventTypes: ['instance.created'] });
    const { id, secret } = created.body.data;
    await stack.create({ hostname: 'secretive' });
    await until(() => deliveries(id), (rows) => rows[0]?.attempts >= 1, 'an attempt');

    const answers = [
      await webhook(id),
      await stack.api.request('GET', '/v1/webhooks', { token: stack.customer.token }),
      await stack.api.request('GET', '/v1/webhooks', { token: stack.api.adminToken }),
      await stack.api.request('PATCH', `/v1/webhooks/${id}`, { token: stack.customer.token, body: { eventTypes: ['instance.created', 'instance.running'] } }),
      await stack.api.request('GET', `/v1/webhooks/${id}/deliveries`, { token: stack.customer.token }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.text).not.toContain(secret);
      expect(answer.text).not.toContain('secret');
    }
    const row = await stack.api.db.webhookEndpoint.findUniqueOrThrow({ where: { id } });
    expect(row.secretCipher).not.toContain(secret);
    expect(stack.api.deps.secrets.open(row.secretCipher, id)).toBe(secret);
    const audit = await stack.api.db.auditEvent.findMany({ where: { action: { startsWith: 'webhook.' } } });
    expect(audit.length).toBeGreaterThan(0);
    expect(JSON.stringify(audit.map((a) => a.details))).not.toContain(secret);
  });

  it('refuses URLs it cannot deliver to', async () => {
    for (const url of ['not a url', 'ftp://example.com/hook', 'https://user:pass@example.com/hook', 'https://example.com/hook#part']) {
      const res = await register({ url });
      expect(res.status, url).toBe(400);
      expect(res.body.error.code).toBe('INVALID_INPUT');
      expect(res.body.error.details.fields.url, url).toBeTypeOf('string');
    }
    expect((await register({ url: receiver.url, eventTypes: ['instance.exploded'] })).status).toBe(400);
  });
});

describe('webhooks without private targets allowed', () => {
  let refusing: Stack;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
    refusing = await startStack({ worker: false, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' } });
  });
  afterAll(async () => {
    await refusing?.close();
    await receiver.close();
  });

  it('refuses loopback, link-local, private and other special-purpose targets, by address or by the name resolving to one', async () => {
    for (const url of [
      receiver.url,
      `http://localhost:${receiver.port}/`,
      'http://[::1]/',
      'http://169.254.169.254/latest/meta-data',
      'https://10.1.2.3/',
      'https://192.168.0.10/',
      'http://[::ffff:127.0.0.1]/',
      'https://198.18.0.1/',
      'https://[64:ff9b::7f00:1]/',
      'https://[2002:7f00:1::1]/',
      'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
    ]) {
      const res = await refusing.api.request('POST', '/v1/webhooks', { token: refusing.customer.token, body: { url } });
      expect(res.status, url).toBe(400);
      expect(res.body.error.details.fields.url).toBe('must not point at a loopback, link-local, private or other special-purpose address');
    }
    expect(receiver.received).toHaveLength(0);
  });
});

describe('webhooks written with their events', () => {
  let quiet: Stack;
  let worker: WorkerProcess | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const lines: string[] = [];
  beforeAll(async () => {
    receiver = await startReceiver((_request, index) => (index < 2 ? 500 : 200));
    quiet = await startStack({ worker: false, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_INITIAL_MS: '100', WEBHOOK_DISPATCH_INTERVAL_MS: '100' } });
  });
  afterAll(async () => {
    await worker?.kill();
    await quiet?.close();
    await receiver.close();
  });

  it('wait for a worker when none runs, go out once one does, and never reach its logs with the secret, even at trace level', async () => {
    const created = await quiet.api.request('POST', '/v1/webhooks', { token: quiet.customer.token, body: { url: receiver.url } });
    const { id, secret } = created.body.data;
    const instanceId = (await quiet.create({ hostname: 'logged' })).body.data.id as string;
    const list = async () => (await quiet.api.request('GET', `/v1/webhooks/${id}/deliveries`, { token: quiet.customer.token })).body.data as any[];
    // No worker: the API's events already have their deliveries, waiting.
    expect((await list()).map((d) => [d.eventType, d.status, d.attempts]).reverse()).toEqual([
      ['instance.created', 'pending', 0],
      ['instance.scheduled', 'pending', 0],
    ]);
    expect(receiver.received).toHaveLength(0);

    worker = spawnWorkerProcess({ ...quiet.api.config, LOG_LEVEL: 'trace' }, 'pipe');
    worker.child.stdout?.on('data', (chunk: Buffer) => lines.push(chunk.toString('utf8')));
    await quiet.waitForStatus(instanceId, ['running']);
    await until(list, (rows) => rows.length === 3 && rows.every((d) => d.status === 'succeeded'), 'every delivery succeeded');
    expect(receiver.received.map((r) => r.json.type)).toEqual(['instance.created', 'instance.created', 'instance.created', 'instance.scheduled', 'instance.running']);

    const log = lines.join('');
    expect(log).toContain('attemptWebhookDelivery');
    expect(log).not.toContain(secret);
    expect(log).not.toContain(secret.slice('whsec_'.length));
  });

  it('fail visibly, once, when no key of the ring opens the secret: SECRET_UNREADABLE, the endpoint disabled, one log line, no retry', async () => {
    receiver.answerWith(() => 200);
    const created = await quiet.api.request('POST', '/v1/webhooks', { token: quiet.customer.token, body: { url: receiver.url, eventTypes: ['instance.created', 'instance.scheduled'] } });
    const { id, secret } = created.body.data;
    // The key its secret was sealed with has left the ring.
    const removedKey = new SecretBox({ keys: [{ id: 'removed', key: randomBytes(32).toString('base64') }], writeKeyId: 'removed' });
    await quiet.api.db.webhookEndpoint.update({ where: { id }, data: { secretCipher: removedKey.seal(secret, id) } });
    const logged = lines.length;

    const instanceId = (await quiet.create({ hostname: 'unsigned' })).body.data.id as string;
    const list = async () => (await quiet.api.request('GET', `/v1/webhooks/${id}/deliveries`, { token: quiet.customer.token })).body.data as any[];
    await until(list, (rows) => rows.some((d) => d.status === 'failed'), 'the delivery failed');
    await quiet.waitForStatus(instanceId, ['running']);
    // Later events wait for the endpoint, nothing is retried.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const [scheduled, failed] = await list();
    expect(failed).toMatchObject({ eventType: 'instance.created', status: 'failed', attempts: 1, lastResponseCode: null, nextAttemptAt: null, deliveredAt: null });
    expect(failed.lastError).toMatch(/^SECRET_UNREADABLE: no key of the encryption key ring opens the signing secret/);
    expect(scheduled).toMatchObject({ eventType: 'instance.scheduled', status: 'pending', attempts: 0 });
    const endpoint = (await quiet.api.request('GET', `/v1/webhooks/${id}`, { token: quiet.customer.token })).body.data;
    expect(endpoint).toMatchObject({ status: 'disabled', disabledReason: `${failed.lastError}.` });
    expect(receiver.received.filter((r) => r.json.instanceId === instanceId && [failed.id, scheduled.id].includes(r.headers['pvecp-delivery-id']))).toEqual([]);
    const said = lines.slice(logged).join('').split('\n').filter((line) => line.includes('signing secret cannot be opened'));
    expect(said).toHaveLength(1);
    expect(JSON.parse(said[0]!)).toMatchObject({ endpointId: id, deliveryId: failed.id, reason: expect.stringContaining('"removed"') });
    expect(said[0]).not.toContain(secret.slice('whsec_'.length));

    // The key is back: enabled again, the waiting delivery goes out, and the failed one on demand.
    await quiet.api.db.webhookEndpoint.update({ where: { id }, data: { secretCipher: quiet.api.deps.secrets.seal(secret, id) } });
    await quiet.api.request('PATCH', `/v1/webhooks/${id}`, { token: quiet.customer.token, body: { enabled: true } });
    expect((await quiet.api.request('POST', `/v1/webhooks/${id}/deliveries/${failed.id}/redeliver`, { token: quiet.customer.token })).status).toBe(202);
    await until(list, (rows) => rows.every((d) => d.status === 'succeeded'), 'both delivered');
  });
});
