import { createHmac, randomBytes } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { retryDelayMs, MAX_RETRY_DELAY_MS } from '../../src/domain/webhooks';
import { postWebhook } from '../../src/webhooks/delivery';
import { webhookTargetPolicy } from '../../src/webhooks/policy';
import { generateWebhookSecret, signatureHeaders, signWebhook } from '../../src/webhooks/signing';
import { checkWebhookUrl, isPublicAddress } from '../../src/webhooks/targets';
import { startReceiver } from '../support/webhook-receiver';

async function until(done: () => boolean) {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('webhook signatures', () => {
  const body = '{"id":"evt_1","type":"instance.created"}';

  it('are HMAC-SHA256 over "<t>.<body>" keyed with the secret, with the timestamp they cover', () => {
    const secret = generateWebhookSecret();
    const header = signWebhook(secret, body, 1_700_000_000);
    expect(header).toBe(`t=1700000000,v1=${createHmac('sha256', secret).update(`1700000000.${body}`).digest('hex')}`);
    expect(signWebhook(secret, body, 1_700_000_001)).not.toBe(header);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it('come in the Standard Webhooks form too, which its library verifies with the secret as it is', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const now = Math.floor(Date.now() / 1000);
    const headers = signatureHeaders(secret, 'evt_1', body, now);
    expect(headers).toMatchObject({ 'pvecp-signature': signWebhook(secret, body, now), 'webhook-id': 'evt_1', 'webhook-timestamp': String(now) });
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    expect(headers['webhook-signature']).toBe(`v1,${createHmac('sha256', key).update(`evt_1.${now}.${body}`).digest('base64')}`);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    // Another body, id, secret or an old timestamp does not verify.
    expect(() => new Webhook(secret).verify(body.replace('evt_1', 'evt_2'), headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'evt_2' })).toThrow(WebhookVerificationError);
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(body, signatureHeaders(secret, 'evt_1', body, now - 600))).toThrow(WebhookVerificationError);
  });

  it('verify for a secret made before the Standard Webhooks form once the receiver writes it in base64', () => {
    const legacy = `whsec_${randomBytes(32).toString('base64url')}`;
    const now = Math.floor(Date.now() / 1000);
    const headers = signatureHeaders(legacy, 'evt_1', body, now);
    expect(headers['pvecp-signature']).toBe(signWebhook(legacy, body, now));
    const standard = `whsec_${Buffer.from(legacy.slice('whsec_'.length), 'base64url').toString('base64')}`;
    expect(new Webhook(standard).verify(body, headers)).toEqual(JSON.parse(body));
  });
});

describe('webhook targets', () => {
  // Each IANA special-purpose range (and the private ones) with addresses inside it.
  it.each([
    ['0.0.0.0/8 "this" network', ['0.0.0.0', '0.1.2.3']],
    ['10.0.0.0/8 private', ['10.0.0.1', '10.255.255.255']],
    ['100.64.0.0/10 carrier-grade NAT', ['100.64.0.1', '100.127.255.254']],
    ['127.0.0.0/8 loopback', ['127.0.0.1', '127.53.0.1']],
    ['169.254.0.0/16 link-local, cloud metadata', ['169.254.169.254']],
    ['172.16.0.0/12 private', ['172.16.5.4', '172.31.255.255']],
    ['192.0.0.0/24 IETF protocol assignments', ['192.0.0.8', '192.0.0.170']],
    ['192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24 documentation', ['192.0.2.1', '198.51.100.7', '203.0.113.9']],
    ['192.88.99.0/24 6to4 relay anycast', ['192.88.99.1']],
    ['192.168.0.0/16 private', ['192.168.1.1']],
    ['198.18.0.0/15 benchmarking', ['198.18.0.1', '198.19.255.255']],
    ['224.0.0.0/4 multicast', ['224.0.0.251', '239.255.255.250']],
    ['240.0.0.0/4 reserved, broadcast', ['240.0.0.1', '255.255.255.255']],
    ['::/128 unspecified, ::1/128 loopback', ['::', '::1']],
    ['::ffff:0:0/96 IPv4-mapped, judged by their IPv4', ['::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::ffff:198.18.0.1']],
    ['::ffff:0:0:0/96 IPv4-translated, ::/96 IPv4-compatible', ['::ffff:0:7f00:1', '::7f00:1']],
    ['64:ff9b::/96 NAT64', ['64:ff9b::7f00:1', '64:ff9b::808:808']],
    ['64:ff9b:1::/48 local-use NAT64', ['64:ff9b:1::a00:1']],
    ['100::/64 discard-only', ['100::1']],
    ['2001::/32 Teredo', ['2001:0:4136:e378:8000:63bf:3fff:fdd2']],
    ['2001::/23 IETF protocol assignments (benchmarking, ORCHID, …)', ['2001:2::1', '2001:10::1', '2001:20::1']],
    ['2001:db8::/32 and 3fff::/20 documentation', ['2001:db8::1', '3fff::1']],
    ['2002::/16 6to4', ['2002:7f00:1::1', '2002:808:808::1']],
    ['5f00::/16 segment routing', ['5f00::1']],
    ['fc00::/7 unique local', ['fc00::1', 'fd00::1']],
    ['fe80::/10 link-local, fec0::/10 site-local', ['fe80::1', 'fe80::1%eth0', 'fec0::1']],
    ['ff00::/8 multicast', ['ff02::1', 'ff05::1:3']],
    ['outside 2000::/3 global unicast', ['4000::1', 'e000::1']],
    ['not an address', ['not-an-ip', '', '127.1']],
  ])('refuse %s', (_range, addresses) => {
    for (const address of addresses) expect(isPublicAddress(address), address).toBe(false);
  });

  it('reach public addresses, IPv4-mapped ones included', () => {
    for (const address of ['1.1.1.1', '8.8.8.8', '93.184.216.34', '172.32.0.1', '100.128.0.1', '198.20.0.1', '192.0.1.1', '2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001::1', '::ffff:8.8.8.8']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it('must be https in production; http is allowed elsewhere', () => {
    const production = webhookTargetPolicy({ NODE_ENV: 'production', WEBHOOK_ALLOW_PRIVATE_TARGETS: false });
    expect(() => checkWebhookUrl('http://hooks.example.com/pvecp', production)).toThrow('must be https');
    expect(checkWebhookUrl('https://hooks.example.com/pvecp', production).hostname).toBe('hooks.example.com');
    const development = webhookTargetPolicy({ NODE_ENV: 'development', WEBHOOK_ALLOW_PRIVATE_TARGETS: false });
    expect(checkWebhookUrl('http://hooks.example.com/pvecp', development).protocol).toBe('http:');
    expect(() => checkWebhookUrl('gopher://hooks.example.com/', development)).toThrow('must be http or https');
  });

  it('are checked again at delivery, on the addresses connected to: a name resolving to loopback is refused without a request', async () => {
    const receiver = await startReceiver();
    try {
      const refused = await postWebhook(`http://localhost:${receiver.port}/hook`, '{}', {}, { allowHttp: true, allowPrivate: false }, 2_000);
      expect(refused).toEqual({ status: null, error: 'target refused: must not point at a loopback, link-local, private or other special-purpose address' });
      const literal = await postWebhook(receiver.url, '{}', {}, { allowHttp: true, allowPrivate: false }, 2_000);
      expect(literal.status).toBeNull();
      expect(receiver.received).toHaveLength(0);
      // Allowed, the same name gets through.
      const allowed = await postWebhook(`http://localhost:${receiver.port}/hook`, '{}', {}, { allowHttp: true, allowPrivate: true }, 2_000);
      expect(allowed).toEqual({ status: 200, error: null });
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('are cut off at the deadline when the answer trickles in or never ends, and the attempt fails', async () => {
    const receiver = await startReceiver((_request, index) => (index === 0 ? 'drip' : 'stall'));
    const open = { allowHttp: true, allowPrivate: true };
    try {
      expect(await postWebhook(receiver.url, '{}', {}, open, 1_500)).toEqual({ status: null, error: 'the answer (200) did not finish within 1500 ms' });
      expect(await postWebhook(receiver.url, '{}', {}, open, 1_500)).toEqual({ status: null, error: 'the answer (200) did not finish within 1500 ms' });
      await until(() => receiver.cutOff.length === 2);
      expect(receiver.cutOff.sort()).toEqual([0, 1]);
    } finally {
      await receiver.close();
    }
  });

  it('count an answer cut off after its status as failed, not delivered', async () => {
    const receiver = await startReceiver(() => 'stall');
    try {
      const posted = postWebhook(receiver.url, '{}', {}, { allowHttp: true, allowPrivate: true }, 10_000);
      await until(() => receiver.received.length === 1);
      await receiver.close();
      expect(await posted).toEqual({ status: null, error: 'the answer (200) was cut off' });
    } finally {
      await receiver.close();
    }
  });

  it('retry after doubling delays, capped at an hour', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 10_000))).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect(retryDelayMs(40, 10_000)).toBe(MAX_RETRY_DELAY_MS);
  });
});
