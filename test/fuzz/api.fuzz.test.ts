import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/api/openapi';
import { ruleOf } from '../../src/api/route-actions';
import type { Action } from '../../src/services/authorization';
import { DEMO_NODES } from '../../src/db/seed';
import { ERROR_STATUS } from '../../src/domain/errors';
import type { TestCustomer } from '../support/api';
import { inviteToken, newPassword, setPassword, signIn, type TestSession } from '../support/sessions';
import { ed25519PublicKey } from '../support/ssh';
import { startStack, type Stack } from '../support/stack';
import { bodyValue, brokenBody, forwardedFor, type FuzzRequest, type FuzzWorld, nastyString, nastyValue, type Operation, operationsOf, percentEncode, value } from './requests';

/**
 * The API against generated hostile requests: every documented route and method, wrong types,
 * missing and extra fields, boundary and huge numbers, control characters and lone surrogates,
 * malformed JSON, other content types, oversized bodies, bad cursors, odd Authorization headers,
 * other tenants' ids. It must never answer 5xx, every 4xx must carry a stable error code, and a
 * customer must never see another tenant's data or where a server lives.
 *
 * One run uses a fixed seed, one a random seed that is printed; replay either with
 * `FUZZ_SEED=<seed> npx vitest run test/fuzz/api.fuzz.test.ts` (FUZZ_REQUESTS changes the count).
 */

const FIXED_SEED = 20_261_130;
const REQUESTS_PER_SEED = Number(process.env.FUZZ_REQUESTS ?? 5_000);
const CONCURRENCY = 8;

/** Public routes whose answer is the account that the body's credentials name. */
const CREDENTIAL_ROUTES = new Set(['/v1/sessions', '/v1/invites/accept', '/v1/invitations/accept']);
/** What a viewer may still change: their own account (password, tokens, sessions) and what needs no sign-in. */
const VIEWER_MAY_CHANGE = new Set<Action>(['account', 'public']);
/** A request's path without its query. */
const pathOf = (request: FuzzRequest) => request.path.split('?')[0] as string;

/**
 * Keys whose presence in a customer's answer would reveal where a server lives. Not `url`: a
 * customer's console link is one; the Proxmox address is caught by its value (`coordinates`).
 */
const PROVIDER_KEYS = new Set(['node', 'vmid', 'templateVmid', 'upid', 'storage', 'connectionId', 'provider', 'macAddress', 'bridge', 'vlan', 'workflowId', 'failureCause', 'templates', 'tokenId']);

let stack: Stack;
let customerB: TestCustomer;
/** A member and a viewer of customer A's tenant: neither may see A's own server (the member) nor change anything (the viewer). */
const teamA = { member: '', viewer: '' };
/** What A's owner made and the member was not given: the member never sees it. */
const hiddenFromMember = new Set<string>();
let operations: Operation[];
const world: FuzzWorld = { ids: [], nodes: [...DEMO_NODES], simulatorUrl: '', sshKeys: [], cursors: [], emails: [], passwords: [], inviteTokens: [] };
/**
 * The session actor: a user of customer A's tenant whose email and password the generators never
 * draw, so no generated request locks the account or changes its password; when a request ends
 * the session (sign-out, revocation), it signs in again from an address of its own.
 */
let sessionUser: { email: string; password: string };
let session: TestSession;
const SESSION_ADDRESS = '192.0.2.250';
/** What the generated requests achieved besides not failing: real sign-ins, answers to a session, accepted invites. */
const achieved = { signIns: 0, sessionAnswers: 0, invitesAccepted: 0 };
/** Strings that belong to one tenant: its id, users, servers, tasks and host names. */
const tenantSecrets = new Map<string, Set<string>>();
/** Provider coordinates no customer answer may contain as a value. */
let coordinates: string[] = [];
const hits = new Map<string, number>();

function ownedBy(tenantId: string, ...values: (string | undefined)[]) {
  const set = tenantSecrets.get(tenantId) ?? new Set<string>();
  for (const v of values) if (v) set.add(v);
  tenantSecrets.set(tenantId, set);
}

const cursorOf = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

beforeAll(async () => {
  // Accounts never lock, so sign-ins with real credentials succeed until their address is locked out.
  stack = await startStack({ env: { RATE_LIMIT_CREATE_PER_MINUTE: '5', RATE_LIMIT_CREATE_PER_HOUR: '50', LOGIN_MAX_FAILURES_PER_ACCOUNT: '1000' } });
  const { api, seed, customer } = stack;
  customerB = await api.createCustomer();
  world.simulatorUrl = stack.sim.url;
  world.sshKeys = [ed25519PublicKey('alice@laptop'), ed25519PublicKey(''), ed25519PublicKey('a"b'), ed25519PublicKey('x\ny'), `${ed25519PublicKey('ok')} extra\u0000`, 'ssh-ed25519 AAAA', 'command="rm -rf /" ssh-rsa AAAA'];

  // One server for each customer, made before the run, so the other always has a real id to try.
  const hostnames = { A: `secret-a-${randomBytes(4).toString('hex')}`, B: `secret-b-${randomBytes(4).toString('hex')}` };
  const made: Record<'A' | 'B', { id: string; taskId: string }> = {} as never;
  for (const [who, token] of [['A', customer.token], ['B', customerB.token]] as const) {
    const res = await api.request('POST', '/v1/instances', {
      token,
      body: { planId: seed.plans.small, locationId: seed.locationId, imageId: seed.images['debian-12'], hostname: hostnames[who], sshKeys: [world.sshKeys[0]] },
    });
    expect(res.status, res.text).toBe(202);
    made[who] = { id: res.body.data.id, taskId: res.body.meta.taskId };
  }
  ownedBy(customer.tenantId, customer.tenantId, customer.userId, customer.email, made.A.id, made.A.taskId, hostnames.A);
  ownedBy(customerB.tenantId, customerB.tenantId, customerB.userId, customerB.email, made.B.id, made.B.taskId, hostnames.B);
  hiddenFromMember.add(hostnames.A);
  for (const role of ['member', 'viewer'] as const) {
    const user = await api.request('POST', '/v1/users', { token: customer.token, body: { email: `${role}-${randomBytes(4).toString('hex')}@example.com`, role } });
    expect(user.status, user.text).toBe(201);
    teamA[role] = (await api.request('POST', `/v1/admin/users/${user.body.data.id}/tokens`, { token: api.adminToken, body: {} })).body.data.token;
  }

  const pools = await api.request('GET', '/v1/admin/ip-pools', { token: api.adminToken });
  const page = await api.request('GET', '/v1/admin/plans?limit=1', { token: api.adminToken });
  world.ids = [
    made.A.id, made.A.taskId, made.B.id, made.B.taskId, customer.tenantId, customerB.tenantId, customer.userId, customerB.userId,
    seed.connectionId, seed.locationId, ...Object.values(seed.plans), ...Object.values(seed.images),
    ...(pools.body.data as { id: string }[]).map((p) => p.id),
    'inst_000000000000000000000000', 'task_nope', 'orph_nope', 'vmid_nope',
  ];
  world.cursors = [
    page.body.meta.nextCursor as string,
    cursorOf(['+275760-09-13T00:00:00.000Z', 'plan_x']),
    cursorOf(['0000-01-01T00:00:00.000Z', 'plan_x']),
    cursorOf(['-000001-01-01T00:00:00.000Z', 'plan_x']),
    cursorOf(['2024-02-30T00:00:00.000Z', 'plan_x']),
    cursorOf(['2024-01-01T00:00:00.000Z', 'plan\u0000x']),
    cursorOf(['2024-01-01T00:00:00.000Z', '\ud800']),
    cursorOf(['2024-01-01T00:00:00.000Z']),
    cursorOf({ createdAt: 1 }),
    cursorOf('not json'),
    '!!!!', 'A', '9223372036854775808', '99999999999999999999', '0', '1',
  ];
  // Sign-in, invites and sessions: both customers can sign in with passwords the generators draw,
  // three invited users wait for their link, and the session actor is signed in.
  world.passwords = [newPassword(), newPassword()];
  await setPassword(api, customer.userId, world.passwords[0] as string);
  await setPassword(api, customerB.userId, world.passwords[1] as string);
  const invited = await Promise.all([0, 1, 2].map(() => api.createCustomer({}, { tenantId: customerB.tenantId })));
  world.inviteTokens = [...(await Promise.all(invited.map((user) => inviteToken(api, user.userId)))), `pvecp_${randomBytes(32).toString('base64url')}`];
  // Few of each, so that a generated email and password often belong together.
  world.emails = [customer.email, customerB.email, (invited[0] as TestCustomer).email, 'nobody@example.com'];
  const sessionCustomer = await api.createCustomer({}, { tenantId: customer.tenantId });
  sessionUser = { email: sessionCustomer.email, password: newPassword() };
  await setPassword(api, sessionCustomer.userId, sessionUser.password);
  session = await signIn(api, sessionUser.email, sessionUser.password, SESSION_ADDRESS);
  world.ids.push(session.sessionId);
  ownedBy(customer.tenantId, sessionCustomer.userId, sessionCustomer.email, session.sessionId);
  ownedBy(customerB.tenantId, ...invited.flatMap((user) => [user.userId, user.email]));

  coordinates = [...DEMO_NODES, 'local-lvm', seed.connectionId, stack.sim.url];
  operations = operationsOf(buildOpenApiDocument());
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

// ---------- requests ----------

const ACTORS = fc.oneof(
  { weight: 3, arbitrary: fc.constant('admin' as const) },
  { weight: 2, arbitrary: fc.constant('customerA' as const) },
  { weight: 3, arbitrary: fc.constant('customerB' as const) },
  { weight: 1, arbitrary: fc.constant('memberA' as const) },
  { weight: 1, arbitrary: fc.constant('viewerA' as const) },
  { weight: 2, arbitrary: fc.constant('session' as const) },
  { weight: 1, arbitrary: fc.constant('anonymous' as const) },
  { weight: 1, arbitrary: fc.constant('garbage' as const) },
);

/** Header values as a client can send them: Latin-1 with no line breaks or NUL. */
const headerSafe = (text: string) => text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?').slice(0, 4096);

const garbageAuthorization = fc.oneof(
  fc.constantFrom('Bearer', 'Bearer ', 'bearer x', 'Basic YWRtaW46YWRtaW4=', 'Bearer ' + 'a'.repeat(300), 'Bearer a.b.c', 'Token abc', 'Bearer  abcdefghijklmnopqrstuvwxyz', 'Bearer ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ'),
  fc.string({ maxLength: 300 }).map((s) => `Bearer ${headerSafe(s)}`),
  fc.string({ unit: 'binary-ascii', maxLength: 100 }).map(headerSafe),
);

/** Cookie headers no session stands behind: unknown secrets under either name, and malformed text. */
const junkCookie = fc.oneof(
  fc.constantFrom('pvecp_session=', 'pvecp_session', '__Host-pvecp_session=x', 'pvecp_session=a; pvecp_session=b', '=;=;', 'pvecp_session="quoted"', 'pvecp_session=%ZZ'),
  fc.string({ maxLength: 60 }).map((text) => `pvecp_session=${headerSafe(text).replace(/;/g, '')}`),
);

const CONTENT_TYPES = fc.oneof(
  { weight: 14, arbitrary: fc.constant('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'application/json; charset=utf-16', 'application/vnd.api+json', 'application/json, text/plain', 'JSON', ''),
  },
);

const pathValue = fc.oneof(
  { weight: 6, arbitrary: fc.constant(null) }, // a real id, chosen below
  { weight: 3, arbitrary: nastyString.map((s) => percentEncode(s.slice(0, 1500))) },
  { weight: 1, arbitrary: fc.constantFrom('.', '%2e%2e', '%2F', 'a%2Fb', '%', '%E0%A4%A', '%00', '%ED%A0%80', '%C0%AE') },
);

const queryText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v) ?? '').slice(0, 1500);

function requestFor(op: Operation): fc.Arbitrary<FuzzRequest> {
  const body = op.body
    ? fc.oneof({ weight: 8, arbitrary: bodyValue(op.body, world).map((b) => JSON.stringify(b)) }, { weight: 1, arbitrary: brokenBody }, { weight: 1, arbitrary: fc.constant(undefined) })
    : fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: fc.constant('{}') }, { weight: 1, arbitrary: nastyValue.map((v) => JSON.stringify(v) ?? 'null') }, { weight: 1, arbitrary: brokenBody });
  return fc
    .record({
      actor: ACTORS,
      garbage: garbageAuthorization,
      csrf: fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
      cookie: fc.option(junkCookie, { freq: 4 }),
      forwardedFor: fc.option(forwardedFor, { freq: 2 }),
      method: fc.oneof({ weight: 19, arbitrary: fc.constant(op.method) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS') }),
      params: fc.tuple(...op.pathParams.map(() => fc.tuple(pathValue, fc.constantFrom(...world.ids)))),
      query: fc.record(Object.fromEntries(op.query.map((q) => [q.name, value(q.schema, q.name, world).map(queryText)])), { requiredKeys: [] }),
      extraQuery: fc.option(fc.tuple(fc.string({ minLength: 1, maxLength: 10 }), nastyString.map(queryText)), { freq: 8 }),
      lastEventId: fc.option(fc.constantFrom('99999999999999999999', '9223372036854775807', '9223372036854775808', '-1', '0', '1', 'abc', ' 1', '1e3', ''), { freq: 2 }),
      idempotencyKey: fc.option(fc.oneof(fc.constantFrom('fuzz-key-1', 'fuzz-key-2'), nastyString.map(headerSafe)), { freq: 3 }),
      contentType: CONTENT_TYPES,
      body,
    })
    .map((r) => {
      const path = op.path.replace(/\{(\w+)\}/g, () => {
        const [nasty, real] = r.params.shift() ?? [null, ''];
        return nasty ?? encodeURIComponent(real);
      });
      const pairs = Object.entries(r.query).map(([k, v]) => `${percentEncode(k)}=${percentEncode(v as string)}`);
      if (r.extraQuery) pairs.push(`${percentEncode(r.extraQuery[0])}=${percentEncode(r.extraQuery[1])}`);
      const headers: Record<string, string> = {};
      if (r.actor === 'admin') headers.authorization = `Bearer ${stack.api.adminToken}`;
      if (r.actor === 'customerA') headers.authorization = `Bearer ${stack.customer.token}`;
      if (r.actor === 'customerB') headers.authorization = `Bearer ${customerB.token}`;
      if (r.actor === 'memberA') headers.authorization = `Bearer ${teamA.member}`;
      if (r.actor === 'viewerA') headers.authorization = `Bearer ${teamA.viewer}`;
      if (r.actor === 'garbage') headers.authorization = r.garbage;
      if ((r.actor === 'anonymous' || r.actor === 'garbage') && r.cookie !== null) headers.cookie = r.cookie;
      if (r.forwardedFor !== null) headers['x-forwarded-for'] = r.forwardedFor;
      if (r.lastEventId !== null && op.headers.some((h) => h.name === 'Last-Event-ID')) headers['last-event-id'] = r.lastEventId;
      if (r.idempotencyKey !== null && op.path === '/v1/instances') headers['idempotency-key'] = r.idempotencyKey;
      const sendsBody = r.body !== undefined && r.method !== 'GET';
      if (sendsBody && r.contentType) headers['content-type'] = r.contentType;
      return {
        operation: `${op.method} ${op.path}`,
        method: r.method,
        path: pairs.length > 0 ? `${path}?${pairs.join('&')}` : path,
        headers,
        ...(sendsBody ? { body: r.body } : {}),
        actor: r.actor,
        ...(r.actor === 'session' ? { csrf: r.csrf } : {}),
      };
    });
}

// ---------- sending and judging ----------

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

async function send(request: FuzzRequest): Promise<Answer> {
  hits.set(request.operation, (hits.get(request.operation) ?? 0) + 1);
  // The session's cookie is the one of the moment (it is renewed when a request ended it).
  const headers = request.actor === 'session' ? { ...request.headers, ...session.headers(request.csrf) } : request.headers;
  let res: Response;
  try {
    res = await fetch(`${stack.api.baseUrl}${request.path}`, {
      method: request.method,
      headers,
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    throw new Error(`the connection broke (${String(cause ?? error)})\n${describeRequest(request)}`);
  }
  const contentType = res.headers.get('content-type') ?? '';
  // A live event stream ends only with its task; its answer is the status and the type.
  if (contentType.startsWith('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, contentType, text: '' };
  }
  return { status: res.status, contentType, text: await res.text() };
}

function* stringsAndKeys(value: unknown): Generator<{ key?: string; text?: string }> {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') yield { text: item };
    else if (Array.isArray(item)) pending.push(...item);
    else if (item && typeof item === 'object') {
      for (const [key, v] of Object.entries(item)) {
        yield { key };
        pending.push(v);
      }
    }
  }
}

/** What is wrong with an answer, or undefined. */
function judge(request: FuzzRequest, answer: Answer): string | undefined {
  if (answer.status >= 500) return `answered ${answer.status}`;
  const json = answer.contentType.includes('json') ? (JSON.parse(answer.text) as unknown) : undefined;
  if (answer.status >= 400) {
    const code = (json as { error?: { code?: string } } | undefined)?.error?.code;
    if (!code || !(code in ERROR_STATUS)) return `answered ${answer.status} without a stable error code`;
    if (ERROR_STATUS[code as keyof typeof ERROR_STATUS] !== answer.status) return `answered ${answer.status} with ${code}, which is ${ERROR_STATUS[code as keyof typeof ERROR_STATUS]}`;
  }
  if (request.actor === 'viewerA' && request.method !== 'GET' && answer.status < 300 && !VIEWER_MAY_CHANGE.has(ruleOf(request.method, pathOf(request))?.action ?? 'public')) {
    return 'let a viewer change something';
  }
  if (request.actor === 'memberA') for (const secret of hiddenFromMember) if (answer.text.includes(secret) && !request.path.includes(secret)) return `showed a member ${secret}, which is not theirs`;
  const customerTenant = tenantOf(request.actor);
  // Only /v1 answers carry customer data; the public document and metrics describe the API itself.
  if (!customerTenant || !request.path.startsWith('/v1/')) return undefined;
  // A sign-in or an invite answers about the account whose credentials the body carried, whoever sends it.
  if (CREDENTIAL_ROUTES.has(pathOf(request))) return undefined;
  const sent = `${request.path} ${request.body ?? ''} ${decodeURIComponentSafe(request.path)}`;
  for (const [tenantId, secrets] of tenantSecrets) {
    if (tenantId === customerTenant) continue;
    for (const secret of secrets) if (answer.text.includes(secret) && !sent.includes(secret)) return `showed another tenant's ${secret}`;
  }
  const { data, meta } = (json ?? {}) as { data?: unknown; meta?: unknown };
  for (const { key } of stringsAndKeys([data, meta])) if (key && PROVIDER_KEYS.has(key)) return `showed a customer the provider field "${key}"`;
  for (const { text } of stringsAndKeys(json)) {
    if (text?.includes('UPID:') && !sent.includes('UPID:')) return 'showed a customer a UPID';
    if (text && coordinates.includes(text) && !sent.includes(text)) return `showed a customer the provider coordinate "${text}"`;
  }
  return undefined;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The tenant a customer actor (a token of customer A or B, or the session in A's tenant) belongs to. */
function tenantOf(actor: FuzzRequest['actor']): string | undefined {
  if (actor === 'customerA' || actor === 'memberA' || actor === 'viewerA' || actor === 'session') return stack.customer.tenantId;
  return actor === 'customerB' ? customerB.tenantId : undefined;
}

/** Counts what a request achieved (a sign-in, a session's answer, an accepted invite). */
function tally(request: FuzzRequest, answer: Answer) {
  const ok = answer.status >= 200 && answer.status < 300;
  if (ok && request.method === 'POST' && pathOf(request) === '/v1/sessions') achieved.signIns++;
  if (ok && request.method === 'POST' && (pathOf(request) === '/v1/invites/accept' || pathOf(request) === '/v1/invitations/accept')) achieved.invitesAccepted++;
  if (ok && request.actor === 'session') achieved.sessionAnswers++;
}

/** Keeps what a customer's own creates made, so the other customer's answers are checked against them too. */
function remember(request: FuzzRequest, answer: Answer) {
  if (request.method !== 'POST' || !request.path.startsWith('/v1/instances') || answer.status >= 300 || !answer.contentType.includes('json')) return;
  const tenantId = tenantOf(request.actor);
  const body = JSON.parse(answer.text) as { data?: { id?: string; hostname?: string }; meta?: { taskId?: string } };
  if (tenantId && request.path === '/v1/instances') ownedBy(tenantId, body.data?.id, body.meta?.taskId);
}

function describeRequest(request: FuzzRequest, answer?: Answer): string {
  const body = request.body === undefined ? '' : `\n  body (${request.body.length} chars): ${JSON.stringify(request.body.slice(0, 400))}`;
  const reply = answer ? `\n  → ${answer.status} ${answer.text.slice(0, 400)}` : '';
  return `${request.method} ${request.path.slice(0, 400)} as ${request.actor}\n  headers: ${JSON.stringify(request.headers).slice(0, 400)}${body}${reply}`;
}

async function fuzz(seed: number, requests: number): Promise<void> {
  const request = fc.constantFrom(...operations).chain(requestFor);
  const details = await fc.check(
    fc.asyncProperty(fc.array(request, { minLength: CONCURRENCY, maxLength: CONCURRENCY }), async (batch) => {
      const answers = await Promise.all(batch.map(send));
      batch.forEach((req, i) => {
        const answer = answers[i] as Answer;
        const problem = judge(req, answer);
        if (problem) throw new Error(`${problem}\n${describeRequest(req, answer)}`);
        remember(req, answer);
        tally(req, answer);
      });
      // A request of the batch signed the session out or revoked it: the actor signs in again.
      if (batch.some((req, i) => req.actor === 'session' && answers[i]?.status === 401)) session = await signIn(stack.api, sessionUser.email, sessionUser.password, SESSION_ADDRESS);
    }),
    { seed, numRuns: Math.ceil(requests / CONCURRENCY), endOnFailure: true },
  );
  // The counterexample holds whole request bodies; the error names the one that failed.
  if (details.failed) throw new Error(`seed ${seed}, run ${details.numRuns}: ${String((details.errorInstance as Error | undefined)?.message ?? details.errorInstance)}`);
}

describe('the API under generated hostile requests', () => {
  it(`survives ${REQUESTS_PER_SEED} requests from the fixed seed ${FIXED_SEED}`, async () => {
    await fuzz(FIXED_SEED, REQUESTS_PER_SEED);
  }, 300_000);

  it(`survives ${REQUESTS_PER_SEED} requests from a random seed (printed; replay with FUZZ_SEED)`, async () => {
    const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : randomBytes(4).readUInt32BE(0) >>> 1;
    console.log(`fuzz seed ${seed}: replay with FUZZ_SEED=${seed} npx vitest run test/fuzz/api.fuzz.test.ts`);
    await fuzz(seed, REQUESTS_PER_SEED);
  }, 300_000);

  it('reached every documented route and method', () => {
    const missing = operations.map((op) => `${op.method} ${op.path}`).filter((key) => !hits.has(key));
    expect(missing).toEqual([]);
    expect([...hits.values()].reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(2 * REQUESTS_PER_SEED);
    // Invites and sessions were exercised past their refusals, too. Sign-ins succeed only while
    // their address is not locked out yet (a handful per run): counted, not required.
    console.log(`fuzz achieved: ${JSON.stringify(achieved)}`);
    expect(achieved.invitesAccepted).toBeGreaterThan(0);
    expect(achieved.sessionAnswers).toBeGreaterThan(0);
  });
});
