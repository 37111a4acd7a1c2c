/**
 * A tenant owner invites someone by email with a role: the link is shown once and carried by the
 * `user.invited` webhook, never logged; it makes the user once, and not when expired or revoked.
 * The audit trail names who acted, by which token or session, from which address, and pages
 * through its filters without a secret in any row.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger';
import { operate, runningServer, suiteStack } from '../support/lifecycle';
import { newPassword, setPassword, signIn, signInAnswer } from '../support/sessions';
import { startReceiver } from '../support/webhook-receiver';

const apiLog: string[] = [];
const stack = suiteStack({
  env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_INITIAL_MS: '100', WEBHOOK_DISPATCH_INTERVAL_MS: '100', LOG_LEVEL: 'trace' },
  deps: {
    logger: createLogger(
      'api',
      'trace',
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          apiLog.push(chunk.toString('utf8'));
          done();
        },
      }),
    ),
  },
});

const owner = () => stack.customer.token;
const invite = (body: Record<string, unknown>, token = owner()) => stack.api.request('POST', '/v1/invitations', { token, body });
const accept = (token: string, password: string, address = '198.51.100.7') =>
  stack.api.request('POST', '/v1/invitations/accept', { body: { token, password }, headers: { 'x-forwarded-for': address } });
const tokenOf = (url: string) => url.split('#')[1] as string;
const email = (who: string) => `${who}-${Math.random().toString(36).slice(2)}@example.com`;
const audit = async (query: string, token = owner()) => {
  const res = await stack.api.request('GET', `/v1/audit${query}`, { token });
  expect(res.status, res.text).toBe(200);
  return res.body as { data: any[]; meta: { nextCursor?: string } };
};

describe('invitations', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
    const hook = await stack.api.request('POST', '/v1/webhooks', { token: owner(), body: { url: receiver.url, eventTypes: ['user.invited', 'user.joined'] } });
    expect(hook.status, hook.text).toBe(201);
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('makes the user once, with the role, who then signs in; the webhook carries the link and no log line does', async () => {
    const address = email('member');
    const created = await invite({ email: address, role: 'member', expiresInHours: 2 });
    expect(created.status, created.text).toBe(201);
    const { url, id } = created.body.data;
    expect(url).toMatch(/\/invite#[A-Za-z0-9_-]{16,}$/);
    expect(created.body.data).toMatchObject({ email: address, role: 'member', status: 'pending', userId: null, acceptedAt: null });
    expect(Date.parse(created.body.data.expiresAt) - Date.parse(created.body.data.createdAt)).toBeCloseTo(2 * 3_600_000, -4);

    const listed = await stack.api.request('GET', '/v1/invitations', { token: owner() });
    expect(listed.body.data[0]).toMatchObject({ id, status: 'pending' });
    expect(listed.text).not.toContain(tokenOf(url));

    await receiver.waitFor(() => receiver.received.some((r) => r.json.type === 'user.invited' && r.json.instanceId === id), 'user.invited delivered');
    const invited = receiver.received.find((r) => r.json.type === 'user.invited' && r.json.instanceId === id);
    expect(invited?.json).toMatchObject({ tenantId: stack.customer.tenantId, data: { status: 'pending', url, invitation: { id, email: address, role: 'member' } } });
    // The feed keeps the event without its link.
    const feed = await stack.api.request('GET', '/v1/events?type=user.invited', { token: owner() });
    expect(feed.body.data.map((e: any) => e.instanceId)).toContain(id);
    expect(feed.text).not.toContain(tokenOf(url));

    const password = newPassword();
    const accepted = await accept(tokenOf(url), password);
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.data).toEqual({ email: address });
    const again = await accept(tokenOf(url), newPassword());
    const unknown = await accept('x'.repeat(43), newPassword());
    expect(again.status).toBe(410);
    expect(again.body.error).toEqual(unknown.body.error);
    expect(again.body.error.code).toBe('INVITE_INVALID');

    const session = await signIn(stack.api, address, password);
    const me = await stack.api.request('GET', '/v1/account', { headers: session.headers() });
    expect(me.body.data.user).toMatchObject({ email: address, tenantRole: 'member', tenantId: stack.customer.tenantId });
    const after = (await stack.api.request('GET', '/v1/invitations', { token: owner() })).body.data.find((i: any) => i.id === id);
    expect(after).toMatchObject({ status: 'accepted', userId: me.body.data.user.id });

    await receiver.waitFor(() => receiver.received.some((r) => r.json.type === 'user.joined' && r.json.instanceId === id), 'user.joined delivered');
    const trail = (await audit(`?action=user.created&userId=${me.body.data.user.id}`)).data;
    expect(trail).toEqual([expect.objectContaining({ address: '198.51.100.7', actor: expect.objectContaining({ userId: me.body.data.user.id, via: null }) })]);
    expect(apiLog.join('')).not.toContain(tokenOf(url));
    expect(apiLog.join('')).not.toContain(password);
  });

  it('refuses an expired or a revoked link with the same answer as an unknown one', async () => {
    const expired = await invite({ email: email('late'), role: 'viewer' });
    await stack.api.db.userInvite.update({ where: { id: expired.body.data.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const revoked = await invite({ email: email('gone'), role: 'viewer' });
    const revoke = await stack.api.request('DELETE', `/v1/invitations/${revoked.body.data.id}`, { token: owner() });
    expect(revoke.body.data).toMatchObject({ status: 'revoked' });
    expect((await stack.api.request('DELETE', `/v1/invitations/${revoked.body.data.id}`, { token: owner() })).body.error).toMatchObject({ code: 'INVALID_STATE' });
    for (const made of [expired, revoked]) {
      const res = await accept(tokenOf(made.body.data.url), newPassword());
      expect(res.status).toBe(410);
      expect(res.body.error.code).toBe('INVITE_INVALID');
    }
    const statuses = (await stack.api.request('GET', '/v1/invitations', { token: owner() })).body.data.map((i: any) => [i.id, i.status]);
    expect(statuses).toEqual(expect.arrayContaining([[expired.body.data.id, 'expired'], [revoked.body.data.id, 'revoked']]));
    expect(await stack.api.db.userInvite.findUniqueOrThrow({ where: { id: revoked.body.data.id } })).toMatchObject({ linkCipher: null });
  });

  it('is for owners only, and refuses a taken email or a too long expiry', async () => {
    const member = await stack.api.request('POST', '/v1/users', { token: owner(), body: { email: email('m'), role: 'member' } });
    const memberToken = (await stack.api.request('POST', `/v1/admin/users/${member.body.data.id}/tokens`, { token: stack.api.adminToken, body: {} })).body.data.token;
    const refused = await invite({ email: email('x'), role: 'owner' }, memberToken);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('Only a tenant owner may do this.');
    expect((await invite({ email: member.body.data.email, role: 'viewer' })).body.error).toMatchObject({ code: 'CONFLICT', details: { fields: { email: 'already in use' } } });
    expect((await invite({ email: email('y'), role: 'viewer', expiresInHours: 721 })).body.error.details.fields).toHaveProperty('expiresInHours');
  });
});

describe("an owner managing the tenant's users", () => {
  it("changes a member's role (a viewer keeps read of what was shared), disables them, but never themselves", async () => {
    const serverId = await runningServer(stack, { hostname: 'managed-1' });
    const made = await stack.api.request('POST', '/v1/users', { token: owner(), body: { email: email('managed'), role: 'member' } });
    const id = made.body.data.id as string;
    const token = (await stack.api.request('POST', `/v1/admin/users/${id}/tokens`, { token: stack.api.adminToken, body: {} })).body.data.token as string;
    await stack.api.request('POST', `/v1/instances/${serverId}/grants`, { token: owner(), body: { userId: id, permissions: ['power'] } });

    const changed = await stack.api.request('PATCH', `/v1/users/${id}`, { token: owner(), body: { role: 'viewer' } });
    expect(changed.body.data).toMatchObject({ id, tenantRole: 'viewer' });
    const reboot = await operate(stack, serverId, 'reboot', undefined, token);
    expect(reboot.body.error.message).toMatch(/Viewers read only/);
    expect((await stack.api.request('GET', `/v1/instances/${serverId}/grants`, { token: owner() })).body.data).toEqual([expect.objectContaining({ userId: id, permissions: ['read'] })]);

    const self = await stack.api.request('PATCH', `/v1/users/${stack.customer.userId}`, { token: owner(), body: { role: 'viewer' } });
    expect(self.body.error).toMatchObject({ code: 'INVALID_STATE' });
    expect((await stack.api.request('PATCH', `/v1/users/${id}`, { token, body: { role: 'owner' } })).status).toBe(403);
    const stranger = await stack.api.createCustomer();
    expect((await stack.api.request('PATCH', `/v1/users/${id}`, { token: stranger.token, body: { disabled: true } })).status).toBe(404);

    expect((await stack.api.request('PATCH', `/v1/users/${id}`, { token: owner(), body: { disabled: true } })).body.data.disabledAt).not.toBeNull();
    expect((await stack.api.request('GET', '/v1/account', { token })).status).toBe(401);
    const trail = (await audit(`?action=user.role_changed`)).data.find((e) => e.details.userId === id);
    expect(trail).toMatchObject({ details: { tenantRole: 'viewer' }, actor: { userId: stack.customer.userId, via: 'token' } });
  }, 90_000);
});

describe('the audit trail', () => {
  it('names the token or session and the address of each act, pages through its filters, and holds no secret', async () => {
    const serverId = await runningServer(stack, { hostname: 'audited-1' });
    const { api } = stack;
    // The owner shares the server from a console session; the member reboots it with a named token.
    const ownerPassword = newPassword();
    await setPassword(api, stack.customer.userId, ownerPassword);
    expect((await signInAnswer(api, 'nobody@example.com', 'wrong')).status).toBe(401);
    const ownerSession = await signIn(api, (await api.db.user.findUniqueOrThrow({ where: { id: stack.customer.userId } })).email, ownerPassword, '203.0.113.9');
    const member = await api.request('POST', '/v1/users', { token: owner(), body: { email: email('sharer'), role: 'member' } });
    const memberId = member.body.data.id as string;
    const named = await api.request('POST', `/v1/admin/users/${memberId}/tokens`, { token: api.adminToken, body: { name: 'deploy bot' } });
    const grant = await api.request('POST', `/v1/instances/${serverId}/grants`, { headers: { ...ownerSession.headers(), 'x-forwarded-for': '203.0.113.9' }, body: { userId: memberId, permissions: ['power'] } });
    expect(grant.status, grant.text).toBe(200);
    const revealed = await api.request('POST', `/v1/instances/${serverId}/credentials/reveal`, { token: owner(), body: {} });
    expect(revealed.status, revealed.text).toBe(200);
    const reboot = await api.request('POST', `/v1/instances/${serverId}/reboot`, { token: named.body.data.token, headers: { 'x-forwarded-for': '192.0.2.44' }, body: {} });
    expect(reboot.status, reboot.text).toBe(202);

    const given = (await audit(`?instanceId=${serverId}&action=grant.given`)).data;
    expect(given).toEqual([expect.objectContaining({ address: '203.0.113.9', actor: { userId: stack.customer.userId, email: expect.any(String), via: 'session', token: null, sessionId: ownerSession.sessionId } })]);
    const rebooted = (await audit(`?instanceId=${serverId}&action=instance.reboot`)).data;
    expect(rebooted).toEqual([
      expect.objectContaining({ address: '192.0.2.44', actor: { userId: memberId, email: member.body.data.email, via: 'token', token: { id: named.body.data.id, name: 'deploy bot' }, sessionId: null } }),
    ]);
    // The operator who issued that token is named, but how and from where they acted is the platform's business.
    const issued = (await audit('?action=token.issued')).data.find((e) => e.details.userId === memberId);
    expect(issued).toMatchObject({ address: null, actor: { via: null, token: null, sessionId: null } });
    const asOperator = (await audit(`?action=token.issued&tenantId=${stack.customer.tenantId}`, api.adminToken)).data.find((e) => e.details.userId === memberId);
    expect(asOperator).toMatchObject({ address: '127.0.0.1', actor: { via: 'token' } });
    // Refused writes are answered, not audited: a read-only token's reboot leaves no row.
    const readOnly = await api.request('POST', '/v1/account/tokens', { token: owner(), body: { name: 'reader', scopes: ['read'] } });
    expect((await operate(stack, serverId, 'reboot', undefined, readOnly.body.data.token)).status).toBe(403);
    expect((await audit(`?instanceId=${serverId}&action=instance.reboot`)).data).toHaveLength(1);

    // By user, by server, by time, one entry a page: every page follows on from the last.
    await expect.poll(async () => (await audit(`?instanceId=${serverId}&action=instance.reboot.succeeded`)).data.length, { timeout: 30_000 }).toBe(1);
    const mine = (await audit(`?userId=${memberId}`)).data;
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((e) => e.actor.userId === memberId)).toBe(true);
    const all = (await audit(`?instanceId=${serverId}&limit=200`)).data;
    const paged: any[] = [];
    let cursor: string | undefined;
    do {
      const page = await audit(`?instanceId=${serverId}&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      paged.push(...page.data);
      cursor = page.meta.nextCursor;
    } while (cursor);
    expect(paged.map((e) => e.id)).toEqual(all.map((e) => e.id));
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await audit(`?instanceId=${serverId}&from=${encodeURIComponent(future)}`)).data).toEqual([]);
    const beforeReboot = (await audit(`?instanceId=${serverId}&to=${encodeURIComponent(rebooted[0].at)}`)).data.map((e) => e.action);
    expect(beforeReboot).toContain('grant.given');
    expect(beforeReboot).not.toContain('instance.reboot');

    // The rows of a reveal, a token issued and an invitation hold none of what those answered.
    const made = await invite({ email: email('secretless'), role: 'viewer' });
    const rows = JSON.stringify(await api.db.auditEvent.findMany({ where: { tenantId: stack.customer.tenantId } }), (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
    const secrets = [tokenOf(made.body.data.url), named.body.data.token, readOnly.body.data.token, ownerPassword, ownerSession.cookie.split('=')[1], revealed.body.data.password];
    for (const secret of secrets) expect(rows).not.toContain(secret);
    expect(rows).toContain('credential.revealed');
    expect(rows).toContain('user.invited');
  }, 120_000);
});
