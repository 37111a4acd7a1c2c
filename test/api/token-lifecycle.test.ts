import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAST_USED_RESOLUTION_MS } from '../../src/services/authentication';
import { ensureBootstrapAdmin } from '../../src/db/bootstrap';
import { hashToken } from '../../src/security/secrets';
import { startTestApi, useTestApiWithCustomer } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';

const { api, admin, customer } = useTestApiWithCustomer();

const DAY_MS = 86_400_000;

async function issue(userId: string, body: Record<string, unknown> = {}) {
  const res = await api.request('POST', `/v1/admin/users/${userId}/tokens`, { ...admin, body });
  expect(res.status, res.text).toBe(201);
  return res;
}

const works = async (token: string) => (await api.request('GET', '/v1/plans', { token })).status;

const auditsOf = (action: string, tokenOrUserId: string) =>
  api.db.auditEvent.findMany({ where: { action, details: { path: [action.startsWith('user.') ? 'userId' : 'tokenId'], equals: tokenOrUserId } } });

describe('issuing tokens', () => {
  it('answers the secret once, never cached, with its name and expiry; the list never shows it', async () => {
    const before = Date.now();
    const res = await issue(customer.userId, { name: 'billing panel', expiresInDays: 30 });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { id, token, name, expiresAt } = res.body.data;
    expect(name).toBe('billing panel');
    expect(Date.parse(expiresAt)).toBeGreaterThanOrEqual(before + 30 * DAY_MS);
    expect(Date.parse(expiresAt)).toBeLessThanOrEqual(Date.now() + 30 * DAY_MS);
    expect(await works(token)).toBe(200);

    const list = await api.request('GET', `/v1/admin/users/${customer.userId}/tokens`, admin);
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(token);
    expect(list.text).not.toContain(hashToken(token));
    const listed = list.body.data.find((t: { id: string }) => t.id === id);
    expect(Object.keys(listed).sort()).toEqual(['active', 'bootstrap', 'createdAt', 'expiresAt', 'id', 'lastUsedAt', 'name', 'projectId', 'revokedAt', 'scopes', 'userId']);
    expect(listed).toMatchObject({ name: 'billing panel', active: true, bootstrap: false, revokedAt: null, expiresAt });
    expect(await auditsOf('token.issued', id)).toHaveLength(1);
  });

  it('takes an exact expiry time, and refuses one in the past, one too far away or both kinds at once', async () => {
    const at = new Date(Date.now() + 2 * DAY_MS).toISOString();
    expect((await issue(customer.userId, { expiresAt: at })).body.data.expiresAt).toBe(at);
    const refused: Record<string, unknown>[] = [
      { expiresAt: new Date(Date.now() - 1000).toISOString() },
      { expiresAt: new Date(Date.now() + 3651 * DAY_MS).toISOString() },
      { expiresAt: at, expiresInDays: 2 },
      { expiresInDays: 0 },
      { expiresInDays: 1.5 },
      { name: '' },
      { secret: 'chosen-by-me' },
    ];
    for (const body of refused) {
      const res = await api.request('POST', `/v1/admin/users/${customer.userId}/tokens`, { ...admin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_INPUT');
    }
  });

  it('answers 401 once a token has expired', async () => {
    const { id, token } = (await issue(customer.userId, { expiresInDays: 1 })).body.data;
    expect(await works(token)).toBe(200);
    // Move its expiry into the past, as a day going by would.
    await api.db.apiToken.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1) } });
    const res = await api.request('GET', '/v1/plans', { token });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHENTICATED');
    const listed = (await api.request('GET', `/v1/admin/users/${customer.userId}/tokens`, admin)).body.data.find((t: { id: string }) => t.id === id);
    expect(listed.active).toBe(false);
  });

  it('answers 404 for the tokens of an unknown user', async () => {
    expect((await api.request('GET', '/v1/admin/users/usr_nobody/tokens', admin)).status).toBe(404);
    expect((await api.request('POST', '/v1/admin/users/usr_nobody/tokens', { ...admin, body: {} })).status).toBe(404);
  });
});

describe('lastUsedAt', () => {
  it('is set on first use and written at most once a minute', async () => {
    const { id, token } = (await issue(customer.userId)).body.data;
    expect((await api.db.apiToken.findUniqueOrThrow({ where: { id } })).lastUsedAt).toBeNull();
    expect(await works(token)).toBe(200);
    const first = (await api.db.apiToken.findUniqueOrThrow({ where: { id } })).lastUsedAt;
    expect(first).not.toBeNull();
    await Promise.all(Array.from({ length: 5 }, () => works(token)));
    expect((await api.db.apiToken.findUniqueOrThrow({ where: { id } })).lastUsedAt).toEqual(first);

    // A minute later (its last use moved back), the next request writes it again.
    const older = new Date(Date.now() - LAST_USED_RESOLUTION_MS - 1000);
    await api.db.apiToken.update({ where: { id }, data: { lastUsedAt: older } });
    expect(await works(token)).toBe(200);
    const next = (await api.db.apiToken.findUniqueOrThrow({ where: { id } })).lastUsedAt;
    expect(next!.getTime()).toBeGreaterThan(older.getTime());
    const listed = (await api.request('GET', `/v1/admin/users/${customer.userId}/tokens`, admin)).body.data.find((t: { id: string }) => t.id === id);
    expect(listed.lastUsedAt).toBe(next!.toISOString());
  });

  it('is not touched by a revoked token', async () => {
    const { id, token } = (await issue(customer.userId)).body.data;
    await api.request('POST', `/v1/admin/users/${customer.userId}/tokens/${id}/revoke`, admin);
    expect(await works(token)).toBe(401);
    expect((await api.db.apiToken.findUniqueOrThrow({ where: { id } })).lastUsedAt).toBeNull();
  });
});

describe('revoking a token', () => {
  it('stops that token at once and leaves the user’s others working; revoking again changes nothing', async () => {
    const kept = (await issue(customer.userId)).body.data;
    const { id, token } = (await issue(customer.userId, { name: 'leaked' })).body.data;
    expect(await works(token)).toBe(200);

    const revoked = await api.request('POST', `/v1/admin/users/${customer.userId}/tokens/${id}/revoke`, admin);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({ id, name: 'leaked', active: false });
    expect(Date.parse(revoked.body.data.revokedAt)).not.toBeNaN();
    expect(await works(token)).toBe(401);
    expect(await works(kept.token)).toBe(200);

    const again = await api.request('POST', `/v1/admin/users/${customer.userId}/tokens/${id}/revoke`, admin);
    expect(again.status).toBe(200);
    expect(again.body.data.revokedAt).toBe(revoked.body.data.revokedAt);
    const audits = await auditsOf('token.revoked', id);
    expect(audits).toHaveLength(1);
    expect(audits[0]!.actorUserId).not.toBeNull();
  });

  it('answers 404 for a token of another user or an unknown one, and 403 to customers', async () => {
    const other = await api.createCustomer();
    const { id, token } = (await issue(other.userId)).body.data;
    expect((await api.request('POST', `/v1/admin/users/${customer.userId}/tokens/${id}/revoke`, admin)).status).toBe(404);
    expect((await api.request('POST', `/v1/admin/users/${customer.userId}/tokens/tok_nothing/revoke`, admin)).status).toBe(404);
    expect(await works(token)).toBe(200);
    const forbidden = await api.request('POST', `/v1/admin/users/${other.userId}/tokens/${id}/revoke`, { token: customer.token });
    expect(forbidden.status).toBe(403);
    expect((await api.request('GET', `/v1/admin/users/${other.userId}/tokens`, { token: customer.token })).status).toBe(403);
  });
});

describe('disabling a user', () => {
  it('stops every token of the user at once and gives back the valid ones on enable', async () => {
    const user = await api.createCustomer();
    const second = (await issue(user.userId)).body.data;
    const revoked = (await issue(user.userId)).body.data;
    await api.request('POST', `/v1/admin/users/${user.userId}/tokens/${revoked.id}/revoke`, admin);

    const disabled = await api.request('POST', `/v1/admin/users/${user.userId}/disable`, admin);
    expect(disabled.status).toBe(200);
    expect(Date.parse(disabled.body.data.disabledAt)).not.toBeNaN();
    for (const token of [user.token, second.token, revoked.token]) expect(await works(token)).toBe(401);
    const list = (await api.request('GET', `/v1/admin/users/${user.userId}/tokens`, admin)).body.data;
    expect(list.every((t: { active: boolean }) => !t.active)).toBe(true);
    // A token issued while disabled does not work either.
    const issuedWhileDisabled = (await issue(user.userId)).body.data;
    expect(await works(issuedWhileDisabled.token)).toBe(401);

    const again = await api.request('POST', `/v1/admin/users/${user.userId}/disable`, admin);
    expect(again.body.data.disabledAt).toBe(disabled.body.data.disabledAt);

    const enabled = await api.request('POST', `/v1/admin/users/${user.userId}/enable`, admin);
    expect(enabled.status).toBe(200);
    expect(enabled.body.data.disabledAt).toBeNull();
    expect(await works(user.token)).toBe(200);
    expect(await works(second.token)).toBe(200);
    expect(await works(issuedWhileDisabled.token)).toBe(200);
    expect(await works(revoked.token)).toBe(401);

    expect(await auditsOf('user.disabled', user.userId)).toHaveLength(1);
    expect(await auditsOf('user.enabled', user.userId)).toHaveLength(1);
    expect((await api.request('GET', `/v1/admin/users/${user.userId}`, admin)).body.data.disabledAt).toBeNull();
  });

  it('refuses an administrator disabling themselves, and answers 404 for an unknown user', async () => {
    const bootstrap = await api.db.apiToken.findUniqueOrThrow({ where: { tokenHash: hashToken(admin.token) } });
    const self = await api.request('POST', `/v1/admin/users/${bootstrap.userId}/disable`, admin);
    expect(self.status).toBe(409);
    expect(self.body.error.code).toBe('INVALID_STATE');
    expect(await works(admin.token)).toBe(200);
    expect((await api.request('POST', '/v1/admin/users/usr_nobody/disable', admin)).status).toBe(404);
    expect((await api.request('POST', '/v1/admin/users/usr_nobody/enable', admin)).status).toBe(404);
  });

  it('lets a second administrator disable the first; restarting with the bootstrap token enables it again', async () => {
    const second = await api.request('POST', '/v1/admin/users', { ...admin, body: { email: `admin-${Date.now()}@example.com`, role: 'admin' } });
    const secondToken = (await issue(second.body.data.id)).body.data.token;
    const bootstrap = await api.db.apiToken.findUniqueOrThrow({ where: { tokenHash: hashToken(admin.token) } });
    expect((await api.request('POST', `/v1/admin/users/${bootstrap.userId}/disable`, { token: secondToken })).status).toBe(200);
    expect(await works(admin.token)).toBe(401);
    // The environment is the source of truth for the bootstrap administrator.
    await ensureBootstrapAdmin(api.db, admin.token);
    expect(await works(admin.token)).toBe(200);
  });
});

describe('rotating BOOTSTRAP_ADMIN_TOKEN', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('a restart with token B revokes token A; B works, A answers 401, other admin tokens stay', async () => {
    const first = await startTestApi({ database });
    // A second replica with the same environment leaves the token alone.
    const replica = await startTestApi({ database });
    expect(replica.adminToken).toBe(first.adminToken);
    await replica.close();
    expect((await first.request('GET', '/v1/admin/tenants', { token: first.adminToken })).status).toBe(200);
    const tokenA = first.adminToken;
    const adminA = await first.db.apiToken.findUniqueOrThrow({ where: { tokenHash: hashToken(tokenA) } });
    const issued = await first.request('POST', `/v1/admin/users/${adminA.userId}/tokens`, { token: tokenA, body: { name: 'ops laptop' } });
    expect(issued.status).toBe(201);
    await first.close();

    const second = await startTestApi({ database, env: { BOOTSTRAP_ADMIN_TOKEN: `admin_${randomBytes(24).toString('base64url')}` } });
    try {
      const tokenB = second.adminToken;
      expect(tokenB).not.toBe(tokenA);
      expect((await second.request('GET', '/v1/admin/tenants', { token: tokenA })).status).toBe(401);
      expect((await second.request('GET', '/v1/admin/tenants', { token: tokenB })).status).toBe(200);
      expect((await second.request('GET', '/v1/admin/tenants', { token: issued.body.data.token })).status).toBe(200);

      const tokens = (await second.request('GET', `/v1/admin/users/${adminA.userId}/tokens`, { token: tokenB })).body.data;
      expect(tokens.find((t: { id: string }) => t.id === adminA.id)).toMatchObject({ bootstrap: true, active: false, name: 'BOOTSTRAP_ADMIN_TOKEN' });
      expect(tokens.filter((t: { bootstrap: boolean; active: boolean }) => t.bootstrap && t.active)).toHaveLength(1);
      const audit = await second.db.auditEvent.findMany({ where: { action: 'token.revoked', details: { path: ['tokenId'], equals: adminA.id } } });
      expect(audit).toHaveLength(1);
      expect(audit[0]!.details).toMatchObject({ reason: 'bootstrap token replaced' });
    } finally {
      await second.close();
    }
  });
});
