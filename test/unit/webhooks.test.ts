import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { retryDelayMs, MAX_RETRY_DELAY_MS } from '../../src/domain/webhooks';
import { postWebhook } from '../../src/webhooks/delivery';
import { webhookTargetPolicy } from '../../src/webhooks/policy';
import { generateWebhookSecret, signWebhook } from '../../src/webhooks/signing';
import { checkWebhookUrl, isPrivateAddress } from '../../src/webhooks/targets';
import { startReceiver } from '../support/webhook-receiver';

describe('webhook signatures', () => {
  it('are HMAC-SHA256 over "<t>.<body>" keyed with the secret, with the timestamp they cover', () => {
    const secret = generateWebhookSecret();
    const body = '{"id":"evt_1","type":"instance.created"}';
    const header = signWebhook(secret, body, 1_700_000_000);
    expect(header).toBe(`t=1700000000,v1=${createHmac('sha256', secret).update(`1700000000.${body}`).digest('hex')}`);
    expect(signWebhook(secret, body, 1_700_000_001)).not.toBe(header);
    expect(generateWebhookSecret()).not.toBe(secret);
  });
});

describe('webhook targets', () => {
  it('tells private addresses from public ones, IPv4-mapped IPv6 included', () => {
    for (const address of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'not-an-ip']) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8', '172.32.0.1']) {
      expect(isPrivateAddress(address), address).toBe(false);
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
      expect(refused).toEqual({ status: null, error: 'target refused: must not point at a loopback, link-local or private address' });
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

  it('retry after doubling delays, capped at an hour', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 10_000))).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect(retryDelayMs(40, 10_000)).toBe(MAX_RETRY_DELAY_MS);
  });
});
