/**
 * A console lasts only as long as the right to it: signing out, a password change, disabling the
 * user, revoking the API token or the server leaving the tenant ends the consoles opened with that
 * right within seconds, each with its own close reason, while consoles opened otherwise go on. A
 * console's audit rows name the session that asked for it and the address its WebSocket came
 * from. And the console WebSocket takes browser pages from the console's own origin only.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CONSOLE_CLOSE_CODES, type ConsoleCloseReason } from '../../src/domain/guest-console';
import type { TestCustomer } from '../support/api';
import { consoleOffer } from '../support/console-client';
import { connectConsole, type ConsoleConnection } from '../support/console-socket';
import { runningServer, suiteStack } from '../support/lifecycle';
import { newPassword, setPassword, signIn, type TestSession } from '../support/sessions';
import type { Stack } from '../support/stack';

const WATCH_SECONDS = 1;
/** "Within seconds": a few watch ticks, with room for a busy machine. */
const ENDS_WITHIN_MS = 6_000;

/** Who asks for a console: a signed-in browser's session, or an API token. */
type Opener = { session: TestSession } | { token: string };

async function offer(stack: Stack, serverId: string, opener: Opener) {
  const answer =
    'token' in opener
      ? await consoleOffer(stack, serverId, 'serial', opener.token)
      : await stack.api.request('POST', `/v1/instances/${serverId}/console`, { headers: opener.session.headers(), body: { type: 'serial' } });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.data as { websocketUrl: string };
}

/** A serial console opened by `opener`, relaying: the guest's login prompt has come through. */
async function openConsole(stack: Stack, serverId: string, opener: Opener, hostname: string): Promise<ConsoleConnection> {
  const c = await connectConsole((await offer(stack, serverId, opener)).websocketUrl);
  await expect.poll(() => c.text(), { timeout: 10_000 }).toContain(`${hostname} login: `);
  return c;
}

/** How the console closed, or 'still open' once ENDS_WITHIN_MS passed since `since`. */
async function closing(c: ConsoleConnection, since: number): Promise<{ code: number; reason: string } | 'still open'> {
  const wait = Math.max(0, since + ENDS_WITHIN_MS - Date.now());
  return Promise.race([c.closed, new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), wait))]);
}

async function endsWith(c: ConsoleConnection, reason: ConsoleCloseReason, since: number): Promise<void> {
  expect(await closing(c, since)).toEqual({ code: CONSOLE_CLOSE_CODES[reason], reason });
}

/** Still relaying after several watch ticks: open, and the guest still echoes what is typed. */
async function goesOn(c: ConsoleConnection, typed: string): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 3 * WATCH_SECONDS * 1000));
  expect(c.ws.readyState).toBe(WebSocket.OPEN);
  c.ws.send(Buffer.from(typed));
  await expect.poll(() => c.text()).toContain(typed);
}

const closeAll = async (...consoles: ConsoleConnection[]) => {
  for (const c of consoles) c.ws.close();
  await Promise.all(consoles.map((c) => c.closed));
};

describe('a console ends when the right to it ends', () => {
  const stack = suiteStack({ env: { CONSOLE_WATCH_SECONDS: String(WATCH_SECONDS), CONSOLE_SESSIONS_PER_USER: '6' } });
  const hostname = 'access-1';
  let serverId: string;
  /** A second user of the stack customer's tenant, with a password: each test signs them in anew. */
  let colleague: TestCustomer & { password: string };

  beforeAll(async () => {
    serverId = await runningServer(stack, { hostname });
    const user = await stack.api.createCustomer({}, { tenantId: stack.customer.tenantId });
    colleague = { ...user, password: newPassword() };
    await setPassword(stack.api, colleague.userId, colleague.password);
  });

  const signedIn = () => signIn(stack.api, colleague.email, colleague.password);

  it("signing out ends the consoles its session opened (signed_out), and so does ending a session from the session list; another session's console goes on", async () => {
    const start = new Date();
    const [first, second, third] = [await signedIn(), await signedIn(), await signedIn()];
    const c1 = await openConsole(stack, serverId, { session: first }, hostname);
    const c2 = await openConsole(stack, serverId, { session: second }, hostname);
    const c3 = await openConsole(stack, serverId, { session: third }, hostname);

    let since = Date.now();
    expect((await stack.api.request('DELETE', '/v1/sessions/current', { headers: first.headers() })).status).toBe(204);
    await endsWith(c1, 'signed_out', since);

    since = Date.now();
    expect((await stack.api.request('DELETE', `/v1/sessions/${second.sessionId}`, { headers: third.headers() })).status).toBe(200);
    await endsWith(c2, 'signed_out', since);

    await goesOn(c3, 'still-here');
    await closeAll(c3);
    const reasons = await stack.api.db.consoleSession.findMany({ where: { userId: colleague.userId, openedBySessionId: { in: [first.sessionId, second.sessionId] } }, select: { closeReason: true } });
    expect(reasons).toEqual([{ closeReason: 'signed_out' }, { closeReason: 'signed_out' }]);
    const audited = () => stack.api.db.auditEvent.findMany({ where: { actorUserId: colleague.userId, action: 'console.closed', at: { gte: start } }, orderBy: { id: 'asc' } });
    await expect.poll(async () => (await audited()).map((e) => (e.details as { reason: string }).reason)).toEqual(['signed_out', 'signed_out', 'client_closed']);
  });

  it('a ticket asked for by a session that signs out before it is redeemed opens nothing (signed_out)', async () => {
    const session = await signedIn();
    const { websocketUrl } = await offer(stack, serverId, { session });
    expect((await stack.api.request('DELETE', '/v1/sessions/current', { headers: session.headers() })).status).toBe(204);
    const c = await connectConsole(websocketUrl);
    await endsWith(c, 'signed_out', Date.now());
    expect(c.text()).toBe('');
  });

  it("a password change ends the consoles of the sessions it ends (credentials_changed); the changing session's own console and a token's go on, until an administrator sets the password", async () => {
    const [changing, other] = [await signedIn(), await signedIn()];
    const own = await openConsole(stack, serverId, { session: changing }, hostname);
    const ended = await openConsole(stack, serverId, { session: other }, hostname);
    const byToken = await openConsole(stack, serverId, { token: colleague.token }, hostname);

    const newOne = newPassword();
    let since = Date.now();
    const changed = await stack.api.request('POST', '/v1/account/password', { headers: changing.headers(), body: { currentPassword: colleague.password, newPassword: newOne } });
    expect(changed.status, changed.text).toBe(204);
    colleague.password = newOne;
    await endsWith(ended, 'credentials_changed', since);
    await goesOn(own, 'own-session');
    await goesOn(byToken, 'by-token');

    colleague.password = newPassword();
    since = Date.now();
    await setPassword(stack.api, colleague.userId, colleague.password);
    await endsWith(own, 'credentials_changed', since);
    await goesOn(byToken, 'token-again');
    await closeAll(byToken);
  });

  it('revoking an API token ends the consoles it opened (token_revoked); a console of the user\'s other token goes on', async () => {
    const issued = await stack.api.request('POST', '/v1/account/tokens', { token: colleague.token, body: { name: 'for the console' } });
    expect(issued.status).toBe(201);
    const { id: tokenId, token } = issued.body.data as { id: string; token: string };
    const revoked = await openConsole(stack, serverId, { token }, hostname);
    const kept = await openConsole(stack, serverId, { token: colleague.token }, hostname);

    const since = Date.now();
    expect((await stack.api.request('POST', `/v1/account/tokens/${tokenId}/revoke`, { token: colleague.token })).status).toBe(200);
    await endsWith(revoked, 'token_revoked', since);
    await goesOn(kept, 'other-token');
    await closeAll(kept);
  });

  it('disabling the user ends every console of theirs, opened with a session or a token (user_disabled); another user\'s console goes on', async () => {
    const bySession = await openConsole(stack, serverId, { session: await signedIn() }, hostname);
    const byToken = await openConsole(stack, serverId, { token: colleague.token }, hostname);
    const otherUser = await openConsole(stack, serverId, { token: stack.customer.token }, hostname);

    const since = Date.now();
    expect((await stack.api.request('POST', `/v1/admin/users/${colleague.userId}/disable`, { token: stack.api.adminToken })).status).toBe(200);
    await endsWith(bySession, 'user_disabled', since);
    await endsWith(byToken, 'user_disabled', since);
    await goesOn(otherUser, 'other-user');
    await closeAll(otherUser);
    expect((await stack.api.request('POST', `/v1/admin/users/${colleague.userId}/enable`, { token: stack.api.adminToken })).status).toBe(200);
  });

  it("a console's audit rows name the session that asked for it and the client's address the upgrade came from, as a proxy TRUST_PROXY trusts names it", async () => {
    const session = await signedIn();
    const start = new Date();
    // TRUST_PROXY trusts loopback by default: the test's connection is a proxy naming its client.
    const c = await connectConsole((await offer(stack, serverId, { session })).websocketUrl, { headers: { 'X-Forwarded-For': '198.51.100.23' } });
    await expect.poll(() => c.text(), { timeout: 10_000 }).toContain(`${hostname} login: `);
    await closeAll(c);
    const audited = () => stack.api.db.auditEvent.findMany({ where: { actorUserId: colleague.userId, action: { in: ['console.opened', 'console.closed'] }, at: { gte: start } }, orderBy: { id: 'asc' } });
    await expect.poll(async () => (await audited()).map((e) => e.action)).toEqual(['console.opened', 'console.closed']);
    for (const row of await audited()) expect(row).toMatchObject({ actorSessionId: session.sessionId, actorTokenId: null, actorAddress: '198.51.100.23', instanceId: serverId });
  });

  it("a console ended by the watch (its session signed out) is audited under the session that opened it, not the request that signed out", async () => {
    const session = await signedIn();
    const start = new Date();
    const c = await openConsole(stack, serverId, { session }, hostname);
    const other = await signedIn();
    expect((await stack.api.request('DELETE', `/v1/sessions/${session.sessionId}`, { headers: other.headers() })).status).toBe(200);
    await endsWith(c, 'signed_out', Date.now());
    const closed = () => stack.api.db.auditEvent.findFirst({ where: { actorUserId: colleague.userId, action: 'console.closed', at: { gte: start } } });
    await expect.poll(async () => (await closed())?.actorSessionId).toBe(session.sessionId);
    expect(await closed()).toMatchObject({ actorTokenId: null, actorAddress: '127.0.0.1' });
  });

  it("a server that is no longer the tenant's ends its customers' consoles (access_lost); an administrator's console goes on", async () => {
    const moving = await runningServer(stack, { hostname: 'access-moved' });
    const customers = await openConsole(stack, moving, { token: stack.customer.token }, 'access-moved');
    const operators = await openConsole(stack, moving, { token: stack.api.adminToken }, 'access-moved');

    // No request moves a server between tenants; the row is what every check reads, so the test moves it there.
    const elsewhere = await stack.api.createCustomer();
    const since = Date.now();
    await stack.api.db.instance.update({ where: { id: moving }, data: { tenantId: elsewhere.tenantId } });
    await endsWith(customers, 'access_lost', since);
    await goesOn(operators, 'operator');
    await closeAll(operators);
  });
});

describe('the console WebSocket and the Origin of the page that opens it', () => {
  const stack = suiteStack();
  const hostname = 'origin-1';
  let serverId: string;

  beforeAll(async () => {
    serverId = await runningServer(stack, { hostname });
  });

  it('a page of another origin is refused with 403 before its ticket is redeemed; the console\'s own origin and no Origin at all are let in', async () => {
    const consoleOrigin = new URL(stack.api.config.PUBLIC_URL).origin;
    const { websocketUrl } = await offer(stack, serverId, { token: stack.customer.token });
    const apiPort = new URL(consoleOrigin).port;
    for (const origin of ['https://attacker.example', consoleOrigin.replace('http:', 'https:'), consoleOrigin.replace(`:${apiPort}`, ':1'), 'null']) {
      await expect(connectConsole(websocketUrl, { origin }), origin).rejects.toThrow(/Unexpected server response: 403/);
    }
    expect(await stack.api.db.consoleSession.findFirst({ where: { instanceId: serverId } })).toMatchObject({ redeemedAt: null, endedAt: null });

    // The same ticket, unspent, from the console's own page.
    const fromConsole = await connectConsole(websocketUrl, { origin: consoleOrigin });
    await expect.poll(() => fromConsole.text(), { timeout: 10_000 }).toContain(`${hostname} login: `);
    const noOrigin = await connectConsole((await offer(stack, serverId, { token: stack.customer.token })).websocketUrl);
    await expect.poll(() => noOrigin.text(), { timeout: 10_000 }).toContain(`${hostname} login: `);
    await closeAll(fromConsole, noOrigin);
  });
});
