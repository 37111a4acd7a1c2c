import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBootstrapAdmin } from '../../src/db/bootstrap';
import { hashToken } from '../../src/security/secrets';
import { useTestApiWithCustomer } from '../support/api';

const { api, admin, customer } = useTestApiWithCustomer();

const quota = { instances: 5, vcpus: 10, memoryMiB: 8192, diskGiB: 100 };

describe('authentication and roles', () => {
  it('answers 401 UNAUTHENTICATED without a token, with a wrong one and with a malformed header', async () => {
    const variants: Record<string, string>[] = [{}, { authorization: 'Bearer pvecp_wrongwrongwrongwrongwrong' }, { authorization: 'Basic YWxhZGRpbjpvcGVuc2VzYW1l' }, { authorization: 'Bearer short' }];
    for (const headers of variants) {
      const res = await api.request('GET', '/v1/plans', { headers });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHENTICATED');
    }
    const admin401 = await api.request('GET', '/v1/admin/tenants');
    expect(admin401.status).toBe(401);
  });

  it('answers 403 FORBIDDEN to a customer on every admin route', async () => {
    const routes: [string, string][] = [
      ['GET', '/v1/admin/tenants'],
      ['POST', '/v1/admin/tenants'],
      ['GET', `/v1/admin/tenants/${customer.tenantId}`],
      ['GET', '/v1/admin/users'],
      ['POST', '/v1/admin/users'],
      ['POST', `/v1/admin/users/${customer.userId}/tokens`],
      ['GET', '/v1/admin/plans'],
      ['POST', '/v1/admin/connections'],
      ['GET', '/v1/admin/ip-pools'],
    ];
    for (const [method, path] of routes) {
      const res = await api.request(method, path, { token: customer.token, body: method === 'POST' ? {} : undefined });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
  });

  it('makes the bootstrap admin token idempotently', async () => {
    const before = await api.db.apiToken.count();
    const again = await ensureBootstrapAdmin(api.db, api.adminToken);
    expect(again).toMatchObject({ configured: true, created: false });
    expect(await api.db.apiToken.count()).toBe(before);
    const admins = await api.db.user.findMany({ where: { role: 'admin' } });
    expect(admins).toHaveLength(1);
    expect(await ensureBootstrapAdmin(api.db, undefined)).toEqual({ configured: false, created: false });
    await expect(ensureBootstrapAdmin(api.db, 'has spaces in it, not a token')).rejects.toThrow(/BOOTSTRAP_ADMIN_TOKEN/);
  });

  it('reinstates a revoked bootstrap token and refuses one that belongs to a customer', async () => {
    const row = await api.db.apiToken.findUniqueOrThrow({ where: { tokenHash: hashToken(api.adminToken) } });
    await api.db.apiToken.update({ where: { id: row.id }, data: { revokedAt: new Date() } });
    expect((await api.request('GET', '/v1/admin/tenants', admin)).status).toBe(401);
    await ensureBootstrapAdmin(api.db, api.adminToken);
    expect((await api.request('GET', '/v1/admin/tenants', admin)).status).toBe(200);
    await expect(ensureBootstrapAdmin(api.db, customer.token)).rejects.toThrow(/not an administrator/);
  });
});

describe('tenants', () => {
  it('creates, reads and lists a tenant', async () => {
    const created = await api.request('POST', '/v1/admin/tenants', { ...admin, body: { name: 'Acme Hosting', quota } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Acme Hosting', quota });
    expect(created.body.data.id).toMatch(/^ten_[a-z0-9]+$/);
    expect(created.body.meta).toEqual({});

    const read = await api.request('GET', `/v1/admin/tenants/${created.body.data.id}`, admin);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: created.body.data.id, quota, usage: { instances: 0, vcpus: 0, memoryMiB: 0, diskGiB: 0 } });

    const list = await api.request('GET', '/v1/admin/tenants', admin);
    expect(list.status).toBe(200);
    expect(list.body.data.map((t: { id: string }) => t.id)).toContain(created.body.data.id);
  });

  it('answers 404 NOT_FOUND for an unknown tenant', async () => {
    const res = await api.request('GET', '/v1/admin/tenants/ten_doesnotexist', admin);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('rejects unknown fields and bad values with 400 INVALID_INPUT naming each field', async () => {
    const unknown = await api.request('POST', '/v1/admin/tenants', { ...admin, body: { name: 'x', quota, plan: 'gold', quotaExtra: 1 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('INVALID_INPUT');
    expect(unknown.body.error.details.fields).toMatchObject({ plan: 'unknown field', quotaExtra: 'unknown field' });

    const nested = await api.request('POST', '/v1/admin/tenants', { ...admin, body: { name: 'x', quota: { ...quota, gpus: 1 } } });
    expect(nested.body.error.details.fields).toMatchObject({ 'quota.gpus': 'unknown field' });

    const bad = await api.request('POST', '/v1/admin/tenants', { ...admin, body: { name: '', quota: { instances: -1, vcpus: 1.5, memoryMiB: '1', diskGiB: 1 } } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.details.fields).sort()).toEqual(['name', 'quota.instances', 'quota.memoryMiB', 'quota.vcpus']);
  });

  it('answers 400 for a body that is not JSON and 413 for one over 64 KiB', async () => {
    const malformed = await api.request('POST', '/v1/admin/tenants', { ...admin, rawBody: '{"name": ' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('INVALID_INPUT');

    const large = await api.request('POST', '/v1/admin/tenants', { ...admin, body: { name: 'x'.repeat(70 * 1024), quota } });
    expect(large.status).toBe(413);
    expect(large.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('pages through tenants newest first with an opaque cursor', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await api.request('POST', '/v1/admin/tenants', { ...admin, body: { name: `paged-${i}`, quota } });
      ids.push(res.body.data.id);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await api.request('GET', `/v1/admin/tenants?limit=2${cursor ? `&cursor=${cursor}` : ''}`, admin);
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.data.map((t: { id: string }) => t.id));
      cursor = res.body.meta.nextCursor;
      pages++;
    } while (cursor && pages < 20);
    expect(new Set(seen).size).toBe(seen.length);
    const total = await api.db.tenant.count();
    expect(seen).toHaveLength(total);
    // Newest first: the five just made come first, in reverse order of creation.
    expect(seen.slice(0, 5)).toEqual([...ids].reverse());

    for (const query of ['limit=0', 'limit=201', 'limit=abc', 'cursor=not-a-cursor', 'sort=name']) {
      const res = await api.request('GET', `/v1/admin/tenants?${query}`, admin);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe('INVALID_INPUT');
    }
  });
});

describe('users and tokens', () => {
  let tenantId: string;
  beforeAll(async () => {
    tenantId = (await api.request('POST', '/v1/admin/tenants', { ...admin, body: { name: 'users-tenant', quota } })).body.data.id;
  });

  it('creates a customer in a tenant and an admin in none', async () => {
    const customerRes = await api.request('POST', '/v1/admin/users', { ...admin, body: { tenantId, email: 'Alice@Example.com', role: 'customer' } });
    expect(customerRes.status).toBe(201);
    expect(customerRes.body.data).toMatchObject({ tenantId, email: 'alice@example.com', role: 'customer' });
    expect(customerRes.body.data.id).toMatch(/^usr_/);

    const adminRes = await api.request('POST', '/v1/admin/users', { ...admin, body: { email: 'ops@example.com', role: 'admin' } });
    expect(adminRes.status).toBe(201);
    expect(adminRes.body.data).toMatchObject({ tenantId: null, role: 'admin' });

    const read = await api.request('GET', `/v1/admin/users/${customerRes.body.data.id}`, admin);
    expect(read.body.data).toEqual(customerRes.body.data);

    const list = await api.request('GET', `/v1/admin/users?tenantId=${tenantId}`, admin);
    expect(list.body.data).toEqual([customerRes.body.data]);
  });

  it('validates the role rules, the email and the tenant reference', async () => {
    const noTenant = await api.request('POST', '/v1/admin/users', { ...admin, body: { email: 'c1@example.com', role: 'customer' } });
    expect(noTenant.status).toBe(400);
    expect(noTenant.body.error.details.fields).toHaveProperty('tenantId');

    const adminWithTenant = await api.request('POST', '/v1/admin/users', { ...admin, body: { tenantId, email: 'a1@example.com', role: 'admin' } });
    expect(adminWithTenant.status).toBe(400);
    expect(adminWithTenant.body.error.details.fields).toHaveProperty('tenantId');

    const missingTenant = await api.request('POST', '/v1/admin/users', { ...admin, body: { tenantId: 'ten_missing', email: 'c2@example.com', role: 'customer' } });
    expect(missingTenant.status).toBe(400);
    expect(missingTenant.body.error.details.fields).toEqual({ tenantId: 'no such tenant' });

    const badValues = await api.request('POST', '/v1/admin/users', { ...admin, body: { tenantId, email: 'not-an-email', role: 'root' } });
    expect(badValues.status).toBe(400);
    expect(Object.keys(badValues.body.error.details.fields).sort()).toEqual(['email', 'role']);
  });

  it('answers 409 CONFLICT for an email already in use (case-insensitively)', async () => {
    await api.request('POST', '/v1/admin/users', { ...admin, body: { tenantId, email: 'dup@example.com', role: 'customer' } });
    const dup = await api.request('POST', '/v1/admin/users', { ...admin, body: { tenantId, email: 'DUP@example.com', role: 'customer' } });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('CONFLICT');
  });

  it('shows a new token once, stores only its digest, and the token works', async () => {
    const user = (await api.request('POST', '/v1/admin/users', { ...admin, body: { tenantId, email: 'bob@example.com', role: 'customer' } })).body.data;
    const issued = await api.request('POST', `/v1/admin/users/${user.id}/tokens`, admin);
    expect(issued.status).toBe(201);
    expect(issued.headers.get('cache-control')).toBe('no-store');
    const { id, token } = issued.body.data as { id: string; token: string };
    expect(id).toMatch(/^tok_/);
    expect(token.length).toBeGreaterThanOrEqual(32);

    const row = await api.db.apiToken.findUniqueOrThrow({ where: { id } });
    expect(row.tokenHash).toBe(hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);

    // Nothing shows it again.
    for (const path of [`/v1/admin/users/${user.id}`, '/v1/admin/users', `/v1/admin/tenants/${tenantId}`]) {
      expect((await api.request('GET', path, admin)).text).not.toContain(token);
    }

    // It authenticates as that customer: catalog yes, admin no.
    expect((await api.request('GET', '/v1/plans', { token })).status).toBe(200);
    expect((await api.request('GET', '/v1/admin/tenants', { token })).status).toBe(403);

    // A second token is a different secret; both work.
    const second = (await api.request('POST', `/v1/admin/users/${user.id}/tokens`, admin)).body.data.token;
    expect(second).not.toBe(token);
    expect((await api.request('GET', '/v1/images', { token: second })).status).toBe(200);
  });

  it('answers 404 for tokens of an unknown user and 400 for a bad body on token creation', async () => {
    const missing = await api.request('POST', '/v1/admin/users/usr_missing/tokens', admin);
    expect(missing.status).toBe(404);
    const extra = await api.request('POST', `/v1/admin/users/${customer.userId}/tokens`, { ...admin, body: { expiresAt: 'never', scope: 'all' } });
    expect(extra.status).toBe(400);
    expect(extra.body.error.details.fields).toEqual({ expiresAt: 'Invalid ISO datetime', scope: 'unknown field' });
  });
});
