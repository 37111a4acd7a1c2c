import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashUserPassword, SCRYPT_PARAMETERS } from '../../src/security/user-passwords';
import { startTestApi, type TestApi, type TestResponse } from '../support/api';
import { acceptInviteAnswer, inviteToken, newPassword, setPassword, signIn, signInAnswer } from '../support/sessions';

/**
 * Password hashing is the costliest thing an anonymous client can ask of the API. These are the
 * limits on it: links are checked before any hashing, every kind of password check counts against
 * one lockout per account and per address prefix, hashing runs in a bounded number of slots, and
 * stored hashes follow today's scrypt parameters.
 */

const LOCKOUT = { LOGIN_MAX_FAILURES_PER_ACCOUNT: '3', LOGIN_MAX_FAILURES_PER_ADDRESS: '4', LOGIN_LOCKOUT_MINUTES: '15' };

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ env: LOCKOUT });
});
afterAll(async () => {
  await api?.close();
});

let addresses = 0;
/** Every test checks from addresses of its own, so one test's lockout never meets another's. */
const nextAddress = () => `203.0.113.${++addresses}`;

async function customerWithPassword(target = api) {
  const customer = await target.createCustomer();
  const password = newPassword();
  await setPassword(target, customer.userId, password);
  return { ...customer, password };
}

/** How many scrypt computations this process has made so far, as /metrics counts them (hashes and verifications). */
async function scryptRuns(target = api): Promise<number> {
  const res = await target.request('GET', '/metrics');
  expect(res.status).toBe(200);
  const counts = res.text.split('\n').filter((line) => line.startsWith('password_hash_duration_seconds_count'));
  expect(counts.length, 'the password hashing histogram is exported').toBeGreaterThan(0);
  return counts.reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

const unknownInviteToken = () => `pvecp_${randomBytes(32).toString('base64url')}`;

function expectLocked(res: TestResponse, who: 'this account' | 'your address') {
  expect(res.status, res.text).toBe(429);
  expect(res.body.error.code).toBe('SIGN_IN_LOCKED');
  expect(res.body.error.message).toBe(`Too many failed sign-ins for ${who}. Try again in 15 minutes.`);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(14 * 60);
  expect(retryAfter).toBeLessThanOrEqual(15 * 60);
}

describe('invite links', () => {
  it('are checked before the password is hashed, and wrong ones lock the address out, valid links included', async () => {
    const address = nextAddress();
    const before = await scryptRuns();
    for (let i = 0; i < 4; i++) {
      const res = await acceptInviteAnswer(api, unknownInviteToken(), newPassword(), address);
      expect(res.status).toBe(410);
      expect(res.body.error.code).toBe('INVITE_INVALID');
    }
    expect(await scryptRuns()).toBe(before);

    const invited = await api.createCustomer();
    const token = await inviteToken(api, invited.userId);
    const password = newPassword();
    expectLocked(await acceptInviteAnswer(api, token, password, address), 'your address');
    expect(await scryptRuns()).toBe(before);
    expect((await api.db.user.findUniqueOrThrow({ where: { id: invited.userId } })).passwordHash).toBeNull();

    // The refusal left the link unused: from another address it sets the password, with one hash.
    const accepted = await acceptInviteAnswer(api, token, password, nextAddress());
    expect(accepted.status, accepted.text).toBe(200);
    expect(await scryptRuns()).toBe(before + 1);
    await signIn(api, invited.email, password, nextAddress());
  });

  it('cost no hashing when used already or expired', async () => {
    const invited = await api.createCustomer();
    const token = await inviteToken(api, invited.userId);
    expect((await acceptInviteAnswer(api, token, newPassword(), nextAddress())).status).toBe(200);
    const expired = await api.createCustomer();
    const expiredToken = await inviteToken(api, expired.userId);
    await api.db.userInvite.updateMany({ where: { userId: expired.userId }, data: { expiresAt: new Date(Date.now() - 1000) } });

    const before = await scryptRuns();
    for (const stale of [token, expiredToken]) {
      const res = await acceptInviteAnswer(api, stale, newPassword(), nextAddress());
      expect(res.status).toBe(410);
      expect(res.body.error.code).toBe('INVITE_INVALID');
    }
    expect(await scryptRuns()).toBe(before);
  });
});

describe('the per-address lockout', () => {
  it('counts an IPv6 /64 as one address: rotating through it is locked out together, the next /64 is not', async () => {
    for (let i = 1; i <= 4; i++) {
      expect((await signInAnswer(api, `rotating-${i}@example.com`, 'wrong password', `2001:db8:64:1::${i.toString(16)}`)).status).toBe(401);
    }
    const who = await customerWithPassword();
    expectLocked(await signInAnswer(api, who.email, who.password, '2001:db8:64:1:ffff:ffff:ffff:fffe'), 'your address');
    expectLocked(await signInAnswer(api, who.email, who.password, '2001:DB8:64:1:0:0:0:abcd'), 'your address');
    expect((await signInAnswer(api, who.email, who.password, '2001:db8:64:2::1')).status).toBe(201);
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', async () => {
    const address = nextAddress();
    for (let i = 0; i < 4; i++) expect((await signInAnswer(api, `mapped-${i}@example.com`, 'wrong password', `::ffff:${address}`)).status).toBe(401);
    const who = await customerWithPassword();
    expectLocked(await signInAnswer(api, who.email, who.password, address), 'your address');
  });
});

describe('changing one’s own password', () => {
  it('counts a wrong current password as a failed sign-in: the account locks, for the change and for signing in', async () => {
    const who = await customerWithPassword();
    const session = await signIn(api, who.email, who.password, nextAddress());
    const change = (currentPassword: string) =>
      api.request('POST', '/v1/account/password', { headers: { ...session.headers(), 'x-forwarded-for': nextAddress() }, body: { currentPassword, newPassword: newPassword() } });
    for (let i = 0; i < 3; i++) {
      const wrong = await change(`not it ${i}`);
      expect(wrong.status).toBe(400);
      expect(wrong.body.error.details.fields).toEqual({ currentPassword: 'not your current password' });
    }
    const before = await scryptRuns();
    expectLocked(await change(who.password), 'this account');
    expectLocked(await signInAnswer(api, who.email, who.password, nextAddress()), 'this account');
    expect(await scryptRuns()).toBe(before);

    // Once the failures age out, the password (unchanged by the refusals) works again.
    await api.db.loginAttempt.updateMany({ where: { email: who.email }, data: { at: new Date(Date.now() - 15 * 60_000 - 1000) } });
    expect((await change(who.password)).status).toBe(204);
  });

  it('counts a wrong current password against the address too', async () => {
    const address = nextAddress();
    const who = await customerWithPassword();
    const session = await signIn(api, who.email, who.password, nextAddress());
    const others = await Promise.all([customerWithPassword(), customerWithPassword()]);
    for (const [i, other] of others.entries()) {
      const theirs = await signIn(api, other.email, other.password, nextAddress());
      for (let n = 0; n < 2; n++) {
        const res = await api.request('POST', '/v1/account/password', { headers: { ...theirs.headers(), 'x-forwarded-for': address }, body: { currentPassword: `wrong ${i}-${n}`, newPassword: newPassword() } });
        expect(res.status).toBe(400);
      }
    }
    const res = await api.request('POST', '/v1/account/password', { headers: { ...session.headers(), 'x-forwarded-for': address }, body: { currentPassword: who.password, newPassword: newPassword() } });
    expectLocked(res, 'your address');
  });
});

describe('the bound on concurrent hashing', () => {
  it('answers 503 SERVICE_BUSY with Retry-After beyond its slots and queue, counts no failure for it, and keeps serving other requests', async () => {
    const busy = await startTestApi({ database: api.database, env: { ...LOCKOUT, PASSWORD_HASHING_CONCURRENCY: '1', PASSWORD_HASHING_QUEUE: '1' } });
    try {
      const reader = await busy.createCustomer();
      const flooders = Array.from({ length: 10 }, (_, i) => `198.51.100.${200 + i}`);
      let answered = 0;
      const flood = flooders.map((address, i) =>
        signInAnswer(busy, `flood-${i}@example.com`, 'wrong password', address).then((res) => {
          answered++;
          return res;
        }),
      );
      // A request that hashes nothing is served while the slot and the queue are taken.
      const read = await busy.request('GET', '/v1/account', { token: reader.token });
      expect(read.status).toBe(200);
      expect(answered).toBeLessThan(flooders.length);

      const answers = await Promise.all(flood);
      const refused = answers.filter((res) => res.status === 503);
      const checked = answers.filter((res) => res.status === 401);
      expect(refused.length + checked.length, answers.map((res) => res.status).join(',')).toBe(flooders.length);
      // One slot and one queue place: the rest of the flood, arriving while they are taken, is refused.
      expect(checked.length).toBeGreaterThanOrEqual(1);
      expect(refused.length).toBeGreaterThanOrEqual(flooders.length - 4);
      for (const res of refused) {
        expect(res.body.error.code).toBe('SERVICE_BUSY');
        expect(res.headers.get('retry-after')).toBe('1');
      }
      // Only the checks that ran count against the lockout.
      expect(await busy.db.loginAttempt.count({ where: { address: { in: flooders } } })).toBe(checked.length);
      const metrics = await busy.request('GET', '/metrics');
      expect(metrics.text).toMatch(/^password_hashing_refused_total [1-9]/m);
    } finally {
      await busy.close();
    }
  });
});

describe('stored hashes', () => {
  it('are made with scrypt at OWASP’s parameters (N = 2^17, r = 8, p = 1)', async () => {
    const who = await customerWithPassword();
    const row = await api.db.user.findUniqueOrThrow({ where: { id: who.userId } });
    expect(SCRYPT_PARAMETERS).toEqual({ logN: 17, r: 8, p: 1 });
    expect(row.passwordHash).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
  });

  it('made with older parameters still verify, and are made again with today’s at the next successful sign-in', async () => {
    const who = await api.createCustomer();
    const password = newPassword();
    const older = await hashUserPassword(password, { logN: 15, r: 8, p: 1 });
    await api.db.user.update({ where: { id: who.userId }, data: { passwordHash: older } });
    const stored = async () => (await api.db.user.findUniqueOrThrow({ where: { id: who.userId } })).passwordHash;

    expect((await signInAnswer(api, who.email, 'not the password', nextAddress())).status).toBe(401);
    expect(await stored()).toBe(older);

    expect((await signInAnswer(api, who.email, password, nextAddress())).status).toBe(201);
    const upgraded = await stored();
    expect(upgraded).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$/);
    expect((await api.db.user.findUniqueOrThrow({ where: { id: who.userId } })).passwordChangedAt).toBeNull();

    // The same password signs in with the new hash, which stays as it is.
    expect((await signInAnswer(api, who.email, password, nextAddress())).status).toBe(201);
    expect(await stored()).toBe(upgraded);
  });
});
