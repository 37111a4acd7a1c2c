import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { startTestApi, type TestApi } from '../support/api';
import { createTestDatabase } from '../support/database';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api?.close();
});

describe('liveness and readiness', () => {
  it('answers /healthz without a token', async () => {
    const res = await api.request('GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('is ready when PostgreSQL and Temporal answer', async () => {
    const res = await api.request('GET', '/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', checks: { database: 'ok', temporal: 'ok' } });
  });

  it('answers 503 naming the database when it is gone, without leaking its address', async () => {
    const doomed = await createTestDatabase();
    await doomed.drop();
    const broken = createDb(doomed.url, 1);
    const degraded = await startTestApi({ deps: { db: broken } });
    try {
      const res = await degraded.request('GET', '/readyz');
      expect(res.status).toBe(503);
      expect(res.body.status).toBe('not_ready');
      expect(res.body.checks.database).not.toBe('ok');
      expect(res.body.checks.temporal).toBe('ok');
      expect(res.text).not.toContain('postgres');
      expect(res.text).not.toContain(new URL(doomed.url).pathname.slice(1));
      // Liveness does not depend on it.
      expect((await degraded.request('GET', '/healthz')).status).toBe(200);
    } finally {
      await degraded.close();
      await broken.$disconnect();
    }
  });

  it('answers 503 naming Temporal when it fails or does not answer in time', async () => {
    const failing = { workflowService: { getSystemInfo: () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.1:7233')) } } as unknown as Client;
    const degraded = await startTestApi({ database: api.database, deps: { temporal: failing } });
    try {
      const res = await degraded.request('GET', '/readyz');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'not_ready', checks: { database: 'ok', temporal: 'failed' } });
      expect(res.text).not.toContain('10.0.0.1');
    } finally {
      await degraded.close();
    }
  });
});

describe('metrics', () => {
  it('serves Prometheus text with request durations labelled by route template', async () => {
    const customer = await api.createCustomer();
    await api.request('GET', `/v1/admin/tenants/${customer.tenantId}`, { token: api.adminToken });
    await api.request('GET', '/v1/admin/tenants/ten_missing', { token: api.adminToken });
    await api.request('GET', '/v1/no/such/route', { token: api.adminToken });

    const res = await api.request('GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(res.text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(res.text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/v1\/admin\/tenants\/:id",status="200"\} [1-9]/);
    // A handler that failed still counts under its template.
    expect(res.text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/v1\/admin\/tenants\/:id",status="404"\} [1-9]/);
    expect(res.text).toMatch(/route="unmatched",status="404"/);
    expect(res.text).not.toContain(customer.tenantId);
    expect(res.text).not.toContain('ten_missing');
    expect(res.text).toContain('process_cpu_seconds_total');
  });
});

describe('OpenAPI', () => {
  it('serves an OpenAPI 3.1 document without a token, listing the paths', async () => {
    const res = await api.request('GET', '/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.schemas.Error).toBeDefined();
    for (const path of [
      '/v1/admin/tenants',
      '/v1/admin/tenants/{id}',
      '/v1/admin/users',
      '/v1/admin/users/{id}/tokens',
      '/v1/admin/plans',
      '/v1/admin/images',
      '/v1/admin/connections',
      '/v1/admin/locations',
      '/v1/admin/ip-pools',
      '/v1/plans',
      '/v1/locations',
      '/v1/images',
      '/healthz',
      '/readyz',
      '/metrics',
      '/openapi.json',
    ]) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
    const createTenant = doc.paths['/v1/admin/tenants'].post;
    expect(Object.keys(createTenant.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '413']));
    expect(createTenant.responses['201'].content['application/json'].schema.properties).toHaveProperty('data');
    expect(doc.paths['/healthz'].get.security).toEqual([]);
    expect(doc.components.schemas.CreateConnection.properties).toHaveProperty('tokenSecret');
    expect(doc.components.schemas.AdminConnection.properties).not.toHaveProperty('tokenSecret');
    expect(doc.components.schemas.CreateTenant.additionalProperties).toBe(false);
  });
});
