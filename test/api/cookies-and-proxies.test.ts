import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api';
import { newPassword, setPassword, signInAnswer } from '../support/sessions';

/**
 * The session cookie follows the scheme people reach the console with (PUBLIC_URL), not
 * NODE_ENV; and the client's address (for the lockout and the session list) comes from
 * X-Forwarded-For only when the peer that sent it is a proxy TRUST_PROXY names.
 */

let api: TestApi;
const others: TestApi[] = [];
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  for (const other of others) await other.close();
  await api?.close();
});

/** Another API on the same database with these settings. */
async function apiWith(env: Record<string, string>): Promise<TestApi> {
  const other = await startTestApi({ database: api.database, env });
  others.push(other);
  return other;
}

async function customerWithPassword() {
  const customer = await api.createCustomer();
  const password = newPassword();
  await setPassword(api, customer.userId, password);
  return { ...customer, password };
}

const attributesOf = (cookie: string) => cookie.split(';').slice(1).map((part) => part.trim().split('=')[0]?.toLowerCase());

describe('the session cookie', () => {
  it('is pvecp_session without Secure when the console is served over http, even in production', async () => {
    const production = await apiWith({ NODE_ENV: 'production', PUBLIC_URL: 'http://console.internal.example:3000' });
    const who = await customerWithPassword();
    const res = await signInAnswer(production, who.email, who.password, '192.0.2.10');
    expect(res.status, res.text).toBe(201);
    const [cookie = ''] = res.headers.getSetCookie();
    expect(cookie).toMatch(/^pvecp_session=[A-Za-z0-9_-]{43}; /);
    expect(attributesOf(cookie)).toEqual(expect.arrayContaining(['path', 'expires', 'httponly', 'samesite']));
    expect(attributesOf(cookie)).not.toContain('secure');
  });

  it('is __Host-pvecp_session, Secure, for Path=/ and without Domain when the console is served over https', async () => {
    const https = await apiWith({ PUBLIC_URL: 'https://console.example.net' });
    const who = await customerWithPassword();
    const res = await signInAnswer(https, who.email, who.password, '192.0.2.11');
    expect(res.status, res.text).toBe(201);
    const [cookie = ''] = res.headers.getSetCookie();
    expect(cookie).toMatch(/^__Host-pvecp_session=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain('; Path=/;');
    expect(attributesOf(cookie)).toEqual(expect.arrayContaining(['secure', 'httponly', 'samesite', 'path']));
    expect(attributesOf(cookie)).not.toContain('domain');

    // The session is read from that name only: the same secret under the unprefixed name is no session.
    const secret = cookie.split(';')[0]?.split('=')[1] as string;
    const { csrfToken } = res.body.data;
    expect((await https.request('GET', '/v1/sessions/current', { headers: { cookie: `__Host-pvecp_session=${secret}` } })).status).toBe(200);
    const unprefixed = await https.request('GET', '/v1/sessions/current', { headers: { cookie: `pvecp_session=${secret}` } });
    expect(unprefixed.status).toBe(401);

    const signOut = await https.request('DELETE', '/v1/sessions/current', { headers: { cookie: `__Host-pvecp_session=${secret}`, 'x-csrf-token': csrfToken } });
    expect(signOut.status).toBe(204);
    const [cleared = ''] = signOut.headers.getSetCookie();
    expect(cleared).toMatch(/^__Host-pvecp_session=; /);
    expect(attributesOf(cleared)).toEqual(expect.arrayContaining(['secure', 'path', 'expires']));
  });
});

describe('TRUST_PROXY', () => {
  /** The address a sign-in through these X-Forwarded-For hops was recorded from, as the session list shows it. */
  async function addressSeenBy(target: TestApi, forwardedFor: string): Promise<string> {
    const who = await customerWithPassword();
    const res = await signInAnswer(target, who.email, who.password, forwardedFor);
    expect(res.status, res.text).toBe(201);
    return res.body.data.session.address;
  }

  it('trusts a proxy on loopback by default: its X-Forwarded-For names the client', async () => {
    expect(api.config.TRUST_PROXY).toEqual(['loopback']);
    expect(await addressSeenBy(api, '198.51.100.20')).toBe('198.51.100.20');
    // A hop the loopback proxy did not vouch for is not trusted: the client is the last untrusted hop.
    expect(await addressSeenBy(api, '198.51.100.21, 203.0.113.9')).toBe('203.0.113.9');
  });

  it('honours X-Forwarded-For through the proxies a list names, and stops at the first it does not', async () => {
    const behindProxies = await apiWith({ TRUST_PROXY: 'loopback, 203.0.113.5, 10.20.0.0/16' });
    expect(await addressSeenBy(behindProxies, '198.51.100.30, 203.0.113.5')).toBe('198.51.100.30');
    expect(await addressSeenBy(behindProxies, '198.51.100.31, 10.20.4.7, 203.0.113.5')).toBe('198.51.100.31');
    expect(await addressSeenBy(behindProxies, '198.51.100.32, 203.0.113.6')).toBe('203.0.113.6');
  });

  it('takes a number of hops', async () => {
    const twoHops = await apiWith({ TRUST_PROXY: '2' });
    expect(await addressSeenBy(twoHops, '198.51.100.40, 203.0.113.6')).toBe('198.51.100.40');
    expect(await addressSeenBy(twoHops, '198.51.100.41, 198.51.100.42, 203.0.113.6')).toBe('198.51.100.42');
  });

  it('ignores X-Forwarded-For from a peer it does not name, so a client cannot pick its own address for the lockout', async () => {
    const noProxy = await apiWith({ TRUST_PROXY: '0', LOGIN_MAX_FAILURES_PER_ADDRESS: '2' });
    expect(await addressSeenBy(noProxy, '198.51.100.50')).toBe('127.0.0.1');
    const who = await customerWithPassword();
    for (const claimed of ['198.51.100.51', '198.51.100.52']) expect((await signInAnswer(noProxy, 'nobody@example.com', 'wrong password', claimed)).status).toBe(401);
    const locked = await signInAnswer(noProxy, who.email, who.password, '198.51.100.53');
    expect(locked.status).toBe(429);
    expect(locked.body.error.message).toMatch(/for your address/);
    // The default API, trusting the loopback proxy, tells the clients apart.
    expect((await signInAnswer(api, who.email, who.password, '198.51.100.53')).status).toBe(201);
  });
});
