import { describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api';
import { newPassword, setPassword, signIn, signInAnswer } from '../support/sessions';
import { afterAll, beforeAll } from 'vitest';

const LOCKOUT = { LOGIN_MAX_FAILURES_PER_ACCOUNT: '3', LOGIN_MAX_FAILURES_PER_ADDRESS: '6', LOGIN_LOCKOUT_MINUTES: '15' };

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ env: LOCKOUT });
});
afterAll(async () => {
  await api?.close();
});

let addresses = 0;
/** Every test signs in from its own address, so the per-address lockout of one test never meets another. */
const nextAddress = () => `198.51.100.${++addresses}`;

async function customerWithPassword() {
  const customer = await api.createCustomer();
  const password = newPassword();
  await setPassword(api, customer.userId, password);
  return { ...customer, password };
}

describe('signing in', () => {
  it('sets an HttpOnly, SameSite=Strict session cookie and answers the CSRF token; the session then reads like a token', async () => {
    const who = await customerWithPassword();
    const res = await signInAnswer(api, who.email.toUpperCase(), who.password, nextAddress());
    expect(res.status, res.text).toBe(201);
    const [cookie] = res.headers.getSetCookie();
    expect(cookie).toMatch(/^pvecp_session=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/');
    // Tests serve the console on plain http (PUBLIC_URL): a Secure cookie would never come back.
    expect(cookie).not.toContain('Secure');
    const { user, csrfToken, session } = res.body.data;
    expect(user).toMatchObject({ id: who.userId, email: who.email, role: 'customer' });
    expect(csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session).toMatchObject({ current: true, active: true });
    const secret = (cookie as string).split(';')[0]!.split('=')[1]!;
    // The cookie's secret is stored as a digest only; the answer never repeats it.
    expect(res.text).not.toContain(secret);
    expect(await api.db.session.count({ where: { secretHash: secret } })).toBe(0);

    const headers = { cookie: (cookie as string).split(';')[0] as string };
    const current = await api.request('GET', '/v1/sessions/current', { headers });
    expect(current.status).toBe(200);
    expect(current.body.data).toMatchObject({ csrfToken, user: { id: who.userId }, session: { id: session.id, current: true } });
    expect((await api.request('GET', '/v1/instances', { headers })).status).toBe(200);
    expect((await api.request('GET', '/v1/admin/tenants', { headers })).status).toBe(403);
  });

  it('stores passwords as scrypt hashes only', async () => {
    const who = await customerWithPassword();
    const row = await api.db.user.findUniqueOrThrow({ where: { id: who.userId } });
    expect(row.passwordHash).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(row.passwordHash).not.toContain(who.password);
  });

  it('answers one 401 for a wrong password, an unknown email and a user without a password', async () => {
    const who = await customerWithPassword();
    const noPassword = await api.createCustomer();
    const address = nextAddress();
    for (const [email, password] of [[who.email, 'not the password'], ['nobody@example.com', who.password], [noPassword.email, 'anything at all']] as const) {
      const res = await signInAnswer(api, email, password, address);
      expect(res.status).toBe(401);
      expect(res.body.error).toEqual({ code: 'UNAUTHENTICATED', message: 'The email or the password is not right.' });
      expect(res.headers.getSetCookie()).toEqual([]);
    }
  });

  it('refuses a disabled user with the right password, saying so', async () => {
    const who = await customerWithPassword();
    await api.request('POST', `/v1/admin/users/${who.userId}/disable`, { token: api.adminToken });
    const res = await signInAnswer(api, who.email, who.password, nextAddress());
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(/disabled/);
  });
});

describe('CSRF', () => {
  it('refuses a state-changing request signed in by cookie without the session’s token, and changes nothing', async () => {
    const who = await customerWithPassword();
    const session = await signIn(api, who.email, who.password, nextAddress());
    const tokensBefore = await api.db.apiToken.count({ where: { userId: who.userId } });
    for (const headers of [session.headers(false), { ...session.headers(false), 'x-csrf-token': 'x'.repeat(43) }, { ...session.headers(false), 'x-csrf-token': '' }]) {
      const res = await api.request('POST', '/v1/account/tokens', { headers, body: { name: 'from a forged form' } });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('CSRF_TOKEN_INVALID');
    }
    expect(await api.db.apiToken.count({ where: { userId: who.userId } })).toBe(tokensBefore);
    const signOut = await api.request('DELETE', '/v1/sessions/current', { headers: session.headers(false) });
    expect(signOut.status).toBe(403);
    expect((await api.request('GET', '/v1/sessions/current', { headers: session.headers(false) })).status).toBe(200);

    const res = await api.request('POST', '/v1/account/tokens', { headers: session.headers(), body: { name: 'with the token' } });
    expect(res.status, res.text).toBe(201);
  });

  it('asks nothing of bearer-token clients, which carry no ambient credential', async () => {
    const who = await api.createCustomer();
    const res = await api.request('POST', '/v1/account/tokens', { token: who.token, body: { name: 'scripted' } });
    expect(res.status).toBe(201);
  });
});

describe('ending sessions', () => {
  it('signs out: the cookie is cleared and the session answers 401 from then on', async () => {
    const who = await customerWithPassword();
    const session = await signIn(api, who.email, who.password, nextAddress());
    const res = await api.request('DELETE', '/v1/sessions/current', { headers: session.headers() });
    expect(res.status).toBe(204);
    expect(res.headers.getSetCookie()[0]).toMatch(/^pvecp_session=; .*Expires=Thu, 01 Jan 1970/);
    const after = await api.request('GET', '/v1/instances', { headers: session.headers() });
    expect(after.status).toBe(401);
    expect(after.body.error).toEqual({ code: 'UNAUTHENTICATED', message: 'Your session has ended. Please sign in again.' });
  });

  it('lists the caller’s sessions and revokes one: its next request answers 401, the others keep working', async () => {
    const who = await customerWithPassword();
    const address = nextAddress();
    const laptop = await signIn(api, who.email, who.password, address);
    const phone = await signIn(api, who.email, who.password, address);
    const list = await api.request('GET', '/v1/sessions', { headers: laptop.headers() });
    expect(list.status).toBe(200);
    expect(list.body.data.map((s: { id: string; current: boolean }) => [s.id, s.current])).toEqual([
      [phone.sessionId, false],
      [laptop.sessionId, true],
    ]);
    expect(list.body.data[0]).toMatchObject({ address, active: true });
    expect(list.text).not.toContain(phone.csrfToken);

    const revoked = await api.request('DELETE', `/v1/sessions/${phone.sessionId}`, { headers: laptop.headers() });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({ id: phone.sessionId, active: false });
    expect((await api.request('GET', '/v1/instances', { headers: phone.headers() })).status).toBe(401);
    expect((await api.request('GET', '/v1/instances', { headers: laptop.headers() })).status).toBe(200);
    expect((await api.request('DELETE', `/v1/sessions/${phone.sessionId}`, { headers: laptop.headers() })).status).toBe(200);

    // Another user's session is not the caller's to see or end.
    const other = await customerWithPassword();
    const theirs = await signIn(api, other.email, other.password, address);
    expect((await api.request('DELETE', `/v1/sessions/${theirs.sessionId}`, { headers: laptop.headers() })).status).toBe(404);
    expect((await api.request('GET', '/v1/instances', { headers: theirs.headers() })).status).toBe(200);
  });

  it('ends a disabled user’s sessions at once, and enabling the user does not bring them back', async () => {
    const who = await customerWithPassword();
    const session = await signIn(api, who.email, who.password, nextAddress());
    expect((await api.request('POST', `/v1/admin/users/${who.userId}/disable`, { token: api.adminToken })).status).toBe(200);
    expect((await api.request('GET', '/v1/instances', { headers: session.headers() })).status).toBe(401);
    await api.request('POST', `/v1/admin/users/${who.userId}/enable`, { token: api.adminToken });
    expect((await api.request('GET', '/v1/instances', { headers: session.headers() })).status).toBe(401);
    expect((await api.request('GET', '/v1/instances', { token: who.token })).status).toBe(200);
  });

  it('ends a session left idle longer than SESSION_IDLE_MINUTES', async () => {
    const who = await customerWithPassword();
    const session = await signIn(api, who.email, who.password, nextAddress());
    await api.db.session.update({ where: { id: session.sessionId }, data: { lastSeenAt: new Date(Date.now() - api.config.SESSION_IDLE_MINUTES * 60_000 - 1000) } });
    expect((await api.request('GET', '/v1/instances', { headers: session.headers() })).status).toBe(401);
  });
});

describe('lockout', () => {
  it('locks an account after LOGIN_MAX_FAILURES_PER_ACCOUNT failures, even for the right password, and lets it in once they age out', async () => {
    const who = await customerWithPassword();
    for (let i = 0; i < 3; i++) expect((await signInAnswer(api, who.email, 'wrong password', nextAddress())).status).toBe(401);
    const locked = await signInAnswer(api, who.email, who.password, nextAddress());
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe('SIGN_IN_LOCKED');
    expect(locked.body.error.message).toBe('Too many failed sign-ins for this account. Try again in 15 minutes.');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    expect(Number(locked.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60);
    // Another account is not affected.
    const other = await customerWithPassword();
    expect((await signInAnswer(api, other.email, other.password, nextAddress())).status).toBe(201);

    // Fifteen minutes later (the failures moved back in time), the right password works again.
    await api.db.loginAttempt.updateMany({ where: { email: who.email }, data: { at: new Date(Date.now() - 15 * 60_000 - 1000) } });
    expect((await signInAnswer(api, who.email, who.password, nextAddress())).status).toBe(201);
  });

  it('counts only failures since the account’s last successful sign-in', async () => {
    const who = await customerWithPassword();
    const address = nextAddress();
    for (let i = 0; i < 2; i++) await signInAnswer(api, who.email, 'wrong password', address);
    expect((await signInAnswer(api, who.email, who.password, address)).status).toBe(201);
    for (let i = 0; i < 2; i++) await signInAnswer(api, who.email, 'wrong password', address);
    expect((await signInAnswer(api, who.email, who.password, address)).status).toBe(201);
  });

  it('counts concurrent guesses against each other', async () => {
    const who = await customerWithPassword();
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => signInAnswer(api, who.email, `guess ${i}`, nextAddress())));
    expect(answers.filter((res) => res.status === 429).length).toBeGreaterThanOrEqual(3);
  });

  it('locks an address out after LOGIN_MAX_FAILURES_PER_ADDRESS failures across accounts', async () => {
    const address = nextAddress();
    for (let i = 0; i < 6; i++) expect((await signInAnswer(api, `guess-${i}@example.com`, 'wrong password', address)).status).toBe(401);
    const who = await customerWithPassword();
    const locked = await signInAnswer(api, who.email, who.password, address);
    expect(locked.status).toBe(429);
    expect(locked.body.error.message).toBe('Too many failed sign-ins for your address. Try again in 15 minutes.');
    expect((await signInAnswer(api, who.email, who.password, nextAddress())).status).toBe(201);
  });
});

describe('passwords and invites', () => {
  it('invites a user: the one-time link sets the first password, then works no more', async () => {
    const who = await api.createCustomer();
    const invite = await api.request('POST', `/v1/admin/users/${who.userId}/invites`, { token: api.adminToken });
    expect(invite.status).toBe(201);
    const { url, expiresAt } = invite.body.data;
    // At PUBLIC_URL (the test API's own address).
    expect(url.startsWith(`${api.baseUrl}/invite#`)).toBe(true);
    expect(url).toMatch(/\/invite#pvecp_[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(71 * 3_600_000);
    const token = url.split('#')[1];

    const weak = await api.request('POST', '/v1/invites/accept', { body: { token, password: 'short' } });
    expect(weak.status).toBe(400);
    expect(weak.body.error.details.fields).toEqual({ password: 'at least 12 characters' });

    const password = newPassword();
    const accepted = await api.request('POST', '/v1/invites/accept', { body: { token, password } });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.data).toEqual({ email: who.email });
    await signIn(api, who.email, password, nextAddress());

    const again = await api.request('POST', '/v1/invites/accept', { body: { token, password: newPassword() } });
    expect(again.status).toBe(410);
    expect(again.body.error.code).toBe('INVITE_INVALID');
    await signIn(api, who.email, password, nextAddress());
  });

  it('refuses an expired invite and one replaced by a newer invite', async () => {
    const who = await api.createCustomer();
    const first = (await api.request('POST', `/v1/admin/users/${who.userId}/invites`, { token: api.adminToken })).body.data;
    const second = (await api.request('POST', `/v1/admin/users/${who.userId}/invites`, { token: api.adminToken })).body.data;
    const tokenOf = (invite: { url: string }) => invite.url.split('#')[1];
    expect((await api.request('POST', '/v1/invites/accept', { body: { token: tokenOf(first), password: newPassword() } })).status).toBe(410);
    await api.db.userInvite.update({ where: { id: second.id }, data: { expiresAt: new Date(Date.now() - 1) } });
    expect((await api.request('POST', '/v1/invites/accept', { body: { token: tokenOf(second), password: newPassword() } })).status).toBe(410);
    expect((await api.db.user.findUniqueOrThrow({ where: { id: who.userId } })).passwordHash).toBeNull();
  });

  it('lets an admin set a password, which ends the user’s sessions', async () => {
    const who = await customerWithPassword();
    const session = await signIn(api, who.email, who.password, nextAddress());
    const password = newPassword();
    await setPassword(api, who.userId, password);
    expect((await api.request('GET', '/v1/instances', { headers: session.headers() })).status).toBe(401);
    expect((await signInAnswer(api, who.email, who.password, nextAddress())).status).toBe(401);
    await signIn(api, who.email, password, nextAddress());
    expect((await api.request('POST', `/v1/admin/users/usr_nobody/password`, { token: api.adminToken, body: { password } })).status).toBe(404);
    expect((await api.request('POST', `/v1/admin/users/${who.userId}/password`, { token: who.token, body: { password } })).status).toBe(403);
  });

  it('lets users change their own password, with the current one; their other sessions end', async () => {
    const who = await customerWithPassword();
    const address = nextAddress();
    const here = await signIn(api, who.email, who.password, address);
    const elsewhere = await signIn(api, who.email, who.password, address);
    const wrong = await api.request('POST', '/v1/account/password', { headers: here.headers(), body: { currentPassword: 'not it', newPassword: newPassword() } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details.fields).toEqual({ currentPassword: 'not your current password' });
    const password = newPassword();
    const changed = await api.request('POST', '/v1/account/password', { headers: here.headers(), body: { currentPassword: who.password, newPassword: password } });
    expect(changed.status).toBe(204);
    expect((await api.request('GET', '/v1/instances', { headers: here.headers() })).status).toBe(200);
    expect((await api.request('GET', '/v1/instances', { headers: elsewhere.headers() })).status).toBe(401);
    await signIn(api, who.email, password, address);
  });
});

describe('API tokens managed by their user', () => {
  it('issues a token shown once, lists it without its secret, and revokes it', async () => {
    const who = await customerWithPassword();
    const session = await signIn(api, who.email, who.password, nextAddress());
    const issued = await api.request('POST', '/v1/account/tokens', { headers: session.headers(), body: { name: 'backup script' } });
    expect(issued.status).toBe(201);
    const { id, token } = issued.body.data;
    expect((await api.request('GET', '/v1/instances', { token })).status).toBe(200);
    const list = await api.request('GET', '/v1/account/tokens', { headers: session.headers() });
    expect(list.body.data.map((t: { id: string }) => t.id)).toContain(id);
    expect(list.text).not.toContain(token);

    const revoked = await api.request('POST', `/v1/account/tokens/${id}/revoke`, { headers: session.headers() });
    expect(revoked.body.data).toMatchObject({ id, active: false });
    expect((await api.request('GET', '/v1/instances', { token })).status).toBe(401);
    // Someone else's token is not found.
    const other = await api.createCustomer();
    const theirs = await api.db.apiToken.findFirstOrThrow({ where: { userId: other.userId } });
    expect((await api.request('POST', `/v1/account/tokens/${theirs.id}/revoke`, { headers: session.headers() })).status).toBe(404);
  });
});

describe('the account', () => {
  it('tells customers who they are and what quota their tenant has left; administrators have no tenant', async () => {
    const who = await api.createCustomer({ instances: 3, vcpus: 6 });
    const res = await api.request('GET', '/v1/account', { token: who.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      user: { id: who.userId, email: who.email, role: 'customer' },
      tenant: { id: who.tenantId, quota: { instances: 3, vcpus: 6 }, usage: { instances: 0, vcpus: 0, memoryMiB: 0, diskGiB: 0 } },
    });
    const admin = await api.request('GET', '/v1/account', { token: api.adminToken });
    expect(admin.body.data).toMatchObject({ user: { role: 'admin' }, tenant: null });
  });
});
