import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server';
import { startTestApi, type TestApi, type TestCustomer } from '../support/api';

const LIMITS = { RATE_LIMIT_READS_PER_MINUTE: '4', RATE_LIMIT_OPERATIONS_PER_MINUTE: '2' };

/** The limits count per minute of the clock: start a sequence early enough in one that it cannot straddle two. */
async function atStartOfAMinute(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 10_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

let api: TestApi;
let customer: TestCustomer;
beforeAll(async () => {
  api = await startTestApi({ env: LIMITS });
  customer = await api.createCustomer();
});
afterAll(async () => {
  await api?.close();
});

describe('per-token rate limits', () => {
  it('refuses reads past RATE_LIMIT_READS_PER_MINUTE with 429 and Retry-After; writes and other tokens are not counted', async () => {
    const token = (await api.request('POST', `/v1/admin/users/${customer.userId}/tokens`, { token: api.adminToken })).body.data.token as string;
    await atStartOfAMinute();
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await api.request('GET', '/v1/plans', { token })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    const refused = await api.request('GET', '/v1/instances', { token });
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // A lifecycle request is counted as an operation, not a read; another token of the same user reads on.
    expect((await api.request('POST', '/v1/instances/inst_missing/start', { token, body: {} })).status).toBe(404);
    expect((await api.request('GET', '/v1/plans', { token: customer.token })).status).toBe(200);
  });

  it('refuses lifecycle operations past RATE_LIMIT_OPERATIONS_PER_MINUTE, whatever their answer would have been', async () => {
    const token = (await api.request('POST', `/v1/admin/users/${customer.userId}/tokens`, { token: api.adminToken })).body.data.token as string;
    await atStartOfAMinute();
    const statuses = [];
    for (const path of ['/start', '/stop', '/reboot']) statuses.push((await api.request('POST', `/v1/instances/inst_missing${path}`, { token, body: {} })).status);
    expect(statuses).toEqual([404, 404, 429]);
    expect((await api.request('DELETE', '/v1/instances/inst_missing', { token })).headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('Cache-Control', () => {
  it('is no-store on every authenticated answer: a new token, a reveal, a list, an error', async () => {
    const issued = await api.request('POST', `/v1/admin/users/${customer.userId}/tokens`, { token: api.adminToken });
    expect(issued.status).toBe(201);
    expect(issued.headers.get('cache-control')).toBe('no-store');
    const reveal = await api.request('POST', '/v1/instances/inst_missing/credentials/reveal', { token: customer.token });
    expect(reveal.status).toBe(404);
    expect(reveal.headers.get('cache-control')).toBe('no-store');
    expect((await api.request('GET', '/v1/plans', { token: customer.token })).headers.get('cache-control')).toBe('no-store');
    expect((await api.request('GET', '/v1/plans')).headers.get('cache-control')).toBe('no-store');
  });
});

describe('/metrics', () => {
  const metricsToken = `metrics_${randomBytes(16).toString('hex')}`;

  it('is on the API port in development, and off it in production unless METRICS_TOKEN guards it', async () => {
    expect((await api.request('GET', '/metrics')).status).toBe(200);

    const production = await startTestApi({ database: api.database, env: { NODE_ENV: 'production' } });
    const guarded = await startTestApi({ database: api.database, env: { NODE_ENV: 'production', METRICS_TOKEN: metricsToken } });
    try {
      expect((await production.request('GET', '/metrics')).status).toBe(404);
      expect((await guarded.request('GET', '/metrics')).status).toBe(401);
      expect((await guarded.request('GET', '/metrics', { token: `${metricsToken}x` })).status).toBe(401);
      // An API token is not the metrics token.
      expect((await guarded.request('GET', '/metrics', { token: api.adminToken })).status).toBe(401);
      const scraped = await guarded.request('GET', '/metrics', { token: metricsToken });
      expect(scraped.status).toBe(200);
      expect(scraped.text).toContain('process_cpu_seconds_total');
    } finally {
      await production.close();
      await guarded.close();
    }
  });

  it('with METRICS_PORT, is served on that port only', async () => {
    const server = await startServer({ ...api.config, PORT: 0, METRICS_PORT: 0 });
    try {
      expect((await fetch(`http://127.0.0.1:${server.port}/metrics`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(200);
      const scraped = await fetch(`http://127.0.0.1:${server.metricsPort}/metrics`);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('process_cpu_seconds_total');
    } finally {
      await server.close();
    }
  });
});

describe('bind address', () => {
  const addressOf = (server: Server | undefined) => (server?.address() as AddressInfo | null)?.address;

  it('listens on loopback only unless HOST is set, the metrics listener likewise', async () => {
    expect(api.config.HOST).toBe('127.0.0.1');
    const server = await startServer({ ...api.config, PORT: 0, METRICS_PORT: 0 });
    try {
      expect(addressOf(server.server)).toBe('127.0.0.1');
      expect(addressOf(server.metricsServer ?? undefined)).toBe('127.0.0.1');
    } finally {
      await server.close();
    }
  });

  it('binds the API to HOST and the metrics listener to METRICS_HOST, and nothing else answers', async () => {
    const server = await startServer({ ...api.config, HOST: '127.0.0.2', METRICS_HOST: '127.0.0.3', PORT: 0, METRICS_PORT: 0 });
    try {
      expect(addressOf(server.server)).toBe('127.0.0.2');
      expect(addressOf(server.metricsServer ?? undefined)).toBe('127.0.0.3');
      expect((await fetch(`http://127.0.0.2:${server.port}/healthz`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.3:${server.metricsPort}/metrics`)).status).toBe(200);
      await expect(fetch(`http://127.0.0.1:${server.port}/healthz`)).rejects.toThrow();
    } finally {
      await server.close();
    }
  });
});
