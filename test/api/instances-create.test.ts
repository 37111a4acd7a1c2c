import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi, TestCustomer, TestResponse } from '../support/api';
import { startStack, type Stack } from '../support/stack';

// ---------------------------------------------------------------- helpers

/** Every response a customer token received in this file, for the provider-coordinates scan. */
const customerBodies: { what: string; text: string }[] = [];

/** Records what customers see: every request made with a token other than the admin's. */
function recordCustomerResponses(api: TestApi): void {
  const original = api.request.bind(api);
  api.request = async (method, path, options = {}) => {
    const res = await original(method, path, options);
    if (options.token !== undefined && options.token !== api.adminToken) customerBodies.push({ what: `${method} ${path} → ${res.status}`, text: res.text });
    return res;
  };
}

async function startRecordedStack(options: Parameters<typeof startStack>[0] = {}): Promise<Stack> {
  const stack = await startStack(options);
  recordCustomerResponses(stack.api);
  return stack;
}

/** An OpenSSH ed25519 public key line with a well-formed blob. */
function sshKey(comment = 'someone@example.com'): string {
  const type = Buffer.from('ssh-ed25519');
  const length = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };
  const blob = Buffer.concat([length(type.length), type, length(32), randomBytes(32)]);
  return `ssh-ed25519 ${blob.toString('base64')} ${comment}`;
}

/**
 * The error envelope, exactly: `{ error: { code, message, details? } }` and nothing else, with the
 * status the contract gives the code. Returns `details` ({} when absent).
 */
function expectError(res: TestResponse, status: number, code: string): Record<string, any> {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type') ?? '').toContain('application/json');
  expect(Object.keys(res.body)).toEqual(['error']);
  const { error } = res.body;
  expect(error.code).toBe(code);
  expect(typeof error.message).toBe('string');
  expect(error.message.length).toBeGreaterThan(0);
  for (const key of Object.keys(error)) expect(['code', 'message', 'details']).toContain(key);
  if ('details' in error) {
    expect(error.details).toBeTypeOf('object');
    expect(Array.isArray(error.details)).toBe(false);
  }
  return (error.details ?? {}) as Record<string, any>;
}

/** Rows that hold something: a change in any of them after a refused create is a leak. */
async function reservedRows(api: TestApi) {
  const { db } = api;
  const [instances, vmids, addresses, allocations, volumes, tasks, credentials, idempotencyKeys] = await Promise.all([
    db.instance.count(),
    db.vmidReservation.count({ where: { state: { not: 'free' } } }),
    db.ipAddress.count({ where: { state: { not: 'free' } } }),
    db.nodeAllocation.count({ where: { state: { not: 'released' } } }),
    db.volume.count(),
    db.task.count(),
    db.credential.count(),
    db.idempotencyKey.count(),
  ]);
  return { instances, vmids, addresses, allocations, volumes, tasks, credentials, idempotencyKeys };
}

function defaultBody(stack: Stack, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { planId: stack.seed.plans.small, locationId: stack.seed.locationId, imageId: stack.seed.images['debian-12'], hostname: 'web-1', ...overrides };
}

/** POST /v1/instances as any customer. */
function createAs(stack: Stack, customer: TestCustomer, overrides: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return stack.api.request('POST', '/v1/instances', { token: customer.token, headers, body: defaultBody(stack, overrides) });
}

/** Polls GET /v1/instances/{id} with any customer's token until the status is one of `statuses`. */
async function waitFor(api: TestApi, token: string, id: string, statuses: string[], timeoutMs = 30_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  let last: any;
  while (Date.now() < deadline) {
    last = (await api.request('GET', `/v1/instances/${id}`, { token })).body.data;
    if (statuses.includes(last?.status)) return last;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${id} never reached ${statuses.join('|')}; last ${JSON.stringify(last?.status)}`);
}

async function created(res: TestResponse): Promise<{ id: string; taskId: string }> {
  expect(res.status, res.text).toBe(202);
  return { id: res.body.data.id as string, taskId: res.body.meta.taskId as string };
}

// ---------------------------------------------------------------- without a worker: the API's own decisions

describe('POST /v1/instances: validation, auth, quota, capacity, idempotency (no worker)', () => {
  let stack: Stack;
  let api: TestApi;
  beforeAll(async () => {
    stack = await startRecordedStack({ worker: false });
    api = stack.api;
  });
  afterAll(async () => {
    await stack?.close();
  });

  describe('400 INVALID_INPUT', () => {
    it('names an unknown field in details.fields', async () => {
      const before = await reservedRows(api);
      const res = await createAs(stack, stack.customer, { colour: 'blue' });
      const details = expectError(res, 400, 'INVALID_INPUT');
      expect(details.fields).toEqual({ colour: 'unknown field' });
      expect(await reservedRows(api)).toEqual(before);
    });

    it('refuses bad host names', async () => {
      for (const hostname of ['-web', 'web-', 'we b', 'web_1', 'a'.repeat(64), `${'a'.repeat(63)}.`.repeat(4) + 'example', '', 'host.123', 'pvecp-inst-abc123', 'PVECP-INST-abc']) {
        const res = await createAs(stack, stack.customer, { hostname });
        const details = expectError(res, 400, 'INVALID_INPUT');
        expect(Object.keys(details.fields), hostname).toEqual(['hostname']);
      }
      // Upper case is accepted and stored lower-cased.
      const ok = await createAs(stack, stack.customer, { hostname: 'Web-1.Example.COM' });
      expect(ok.status).toBe(202);
      expect(ok.body.data.hostname).toBe('web-1.example.com');
    });

    it('refuses SSH keys that are not OpenSSH public key lines, naming the index', async () => {
      const bad = [
        'ssh-rsa not-base64!!',
        'ssh-ed25519',
        'ssh-dss AAAAB3NzaC1kc3MAAACBAP',
        // a blob that names another key type than the line does
        `ssh-rsa ${sshKey().split(' ')[1]}`,
        `${sshKey()}\nssh-ed25519 AAAA`,
      ];
      for (const key of bad) {
        const res = await createAs(stack, stack.customer, { sshKeys: [sshKey(), key] });
        const details = expectError(res, 400, 'INVALID_INPUT');
        expect(details.fields, key).toHaveProperty(['sshKeys.1']);
      }
    });

    it('allows 32 SSH keys and refuses 33', async () => {
      const keys = Array.from({ length: 33 }, (_, i) => sshKey(`k${i}@example.com`));
      const tooMany = await createAs(stack, stack.customer, { hostname: 'keys-33', sshKeys: keys });
      const details = expectError(tooMany, 400, 'INVALID_INPUT');
      expect(Object.keys(details.fields)).toEqual(['sshKeys']);
      const enough = await createAs(stack, stack.customer, { hostname: 'keys-32', sshKeys: keys.slice(0, 32) });
      expect(enough.status).toBe(202);
    });

    it('allows userData of 32768 characters and refuses 32769; it must be a #cloud-config mapping', async () => {
      const document = (length: number) => `#cloud-config\nrc: ${'x'.repeat(length - 18)}`;
      const tooLong = await createAs(stack, stack.customer, { hostname: 'ud-big', userData: document(32_769) });
      const details = expectError(tooLong, 400, 'INVALID_INPUT');
      expect(Object.keys(details.fields)).toEqual(['userData']);
      const notAMapping = await createAs(stack, stack.customer, { hostname: 'ud-text', userData: 'x'.repeat(100) });
      expect(expectError(notAMapping, 400, 'INVALID_INPUT').fields.userData).toMatch(/mapping/);
      // Valid, but this demo connection names no snippets storage to hand it over with.
      const fits = await createAs(stack, stack.customer, { hostname: 'ud-max', userData: document(32_768) });
      expectError(fits, 422, 'USER_DATA_UNSUPPORTED');
    });

    it('refuses a malformed Idempotency-Key header before touching anything', async () => {
      const before = await reservedRows(api);
      for (const key of ['has space', 'x'.repeat(129), 'semi;colon', 'ü-key']) {
        const res = await createAs(stack, stack.customer, { hostname: 'idem-bad' }, { 'Idempotency-Key': key });
        expect(Object.keys(expectError(res, 400, 'INVALID_INPUT').fields)).toEqual(['Idempotency-Key']);
      }
      expect(await reservedRows(api)).toEqual(before);
      const longest = await createAs(stack, stack.customer, { hostname: 'idem-128' }, { 'Idempotency-Key': 'k'.repeat(128) });
      expect(longest.status).toBe(202);
    });

    it('names each reference that does not exist', async () => {
      const before = await reservedRows(api);
      const res = await createAs(stack, stack.customer, { planId: 'plan_nope', locationId: 'loc_nope', imageId: 'img_nope' });
      const details = expectError(res, 400, 'INVALID_INPUT');
      expect(Object.keys(details.fields).sort()).toEqual(['imageId', 'locationId', 'planId']);
      const one = await createAs(stack, stack.customer, { imageId: 'img_nope' });
      expect(Object.keys(expectError(one, 400, 'INVALID_INPUT').fields)).toEqual(['imageId']);
      expect(await reservedRows(api)).toEqual(before);
    });

    it('refuses a body that is not JSON or misses required fields', async () => {
      const garbled = await api.request('POST', '/v1/instances', { token: stack.customer.token, rawBody: '{"planId": ' });
      expectError(garbled, 400, 'INVALID_INPUT');
      const empty = await api.request('POST', '/v1/instances', { token: stack.customer.token, body: {} });
      const details = expectError(empty, 400, 'INVALID_INPUT');
      expect(Object.keys(details.fields).sort()).toEqual(['hostname', 'imageId', 'locationId', 'planId']);
    });
  });

  describe('401, 403, 413', () => {
    it('answers 401 UNAUTHENTICATED without a valid token', async () => {
      const none = await api.request('POST', '/v1/instances', { body: defaultBody(stack) });
      expectError(none, 401, 'UNAUTHENTICATED');
      const wrong = await api.request('POST', '/v1/instances', { token: `pvecp_${randomBytes(24).toString('base64url')}`, body: defaultBody(stack) });
      expectError(wrong, 401, 'UNAUTHENTICATED');
    });

    it('answers 403 FORBIDDEN to an administrator creating a server', async () => {
      const before = await reservedRows(api);
      const res = await api.request('POST', '/v1/instances', { token: api.adminToken, body: defaultBody(stack) });
      expectError(res, 403, 'FORBIDDEN');
      expect(await reservedRows(api)).toEqual(before);
    });

    it('answers 413 to a body over 64 KiB', async () => {
      const before = await reservedRows(api);
      const res = await api.request('POST', '/v1/instances', { token: stack.customer.token, body: defaultBody(stack, { userData: 'x'.repeat(65 * 1024) }) });
      expectError(res, 413, 'PAYLOAD_TOO_LARGE');
      expect(await reservedRows(api)).toEqual(before);
    });
  });

  describe('422 QUOTA_EXCEEDED', () => {
    const cases: { resource: string; quota: Record<string, number>; plan: 'small' | 'large'; first?: boolean }[] = [
      { resource: 'instances', quota: { instances: 1 }, plan: 'small', first: true },
      { resource: 'vcpus', quota: { vcpus: 3 }, plan: 'large' },
      { resource: 'memoryMiB', quota: { memoryMiB: 4096 }, plan: 'large' },
      { resource: 'diskGiB', quota: { diskGiB: 30 }, plan: 'large' },
    ];
    for (const { resource, quota, plan, first } of cases) {
      it(`refuses a server over the tenant's ${resource} quota and reserves nothing`, async () => {
        const customer = await api.createCustomer(quota);
        if (first) await created(await createAs(stack, customer, { hostname: 'first' }));
        const before = await reservedRows(api);
        const res = await createAs(stack, customer, { hostname: 'over', planId: stack.seed.plans[plan] });
        const details = expectError(res, 422, 'QUOTA_EXCEEDED');
        expect(details.resource).toBe(resource);
        expect(details.limit).toBe(Object.values(quota)[0]);
        expect(await reservedRows(api)).toEqual(before);
        expect(await api.db.instance.count({ where: { tenantId: customer.tenantId } })).toBe(first ? 1 : 0);
      });
    }
  });

  describe('422 login rules, decided before anything is reserved', () => {
    it('IMAGE_SSH_KEY_REQUIRED for a key-only image without a key', async () => {
      const before = await reservedRows(api);
      const headers = { 'Idempotency-Key': 'ssh-only-no-key' };
      for (const extra of [{}, { credentialType: 'SSH_KEY' }, { sshKeys: [] }]) {
        const res = await createAs(stack, stack.customer, { hostname: 'ssh-only', imageId: stack.seed.images['debian-12-ssh-only'], ...extra }, headers);
        expectError(res, 422, 'IMAGE_SSH_KEY_REQUIRED');
      }
      expect(await reservedRows(api)).toEqual(before);
      expect(await api.db.instance.count({ where: { hostname: 'ssh-only' } })).toBe(0);
      // The key was not spent on the refused request: with a key the same image works.
      const ok = await createAs(stack, stack.customer, { hostname: 'ssh-only', imageId: stack.seed.images['debian-12-ssh-only'], sshKeys: [sshKey()] }, headers);
      expect(ok.status).toBe(202);
      expect(ok.body.data.username).toBe('debian');
    });

    it('IMAGE_LOGIN_METHOD_UNSUPPORTED for an image with no login method, and for a password on a key-only image', async () => {
      const before = await reservedRows(api);
      const appliance = await createAs(stack, stack.customer, { hostname: 'appliance', imageId: stack.seed.images['appliance-no-login'], sshKeys: [sshKey()] });
      expectError(appliance, 422, 'IMAGE_LOGIN_METHOD_UNSUPPORTED');
      const password = await createAs(stack, stack.customer, { hostname: 'appliance', imageId: stack.seed.images['debian-12-ssh-only'], credentialType: 'PASSWORD' });
      expectError(password, 422, 'IMAGE_LOGIN_METHOD_UNSUPPORTED');
      expect(await reservedRows(api)).toEqual(before);
      expect(await api.db.instance.count({ where: { hostname: 'appliance' } })).toBe(0);
    });
  });

  describe('503 CAPACITY_UNAVAILABLE', () => {
    it('when the location has no free IPv4 address, and nothing leaks', async () => {
      const admin = { token: api.adminToken };
      const pool = await api.request('POST', '/v1/admin/ip-pools', {
        ...admin,
        body: { cidr: '203.0.113.0/30', gateway: '203.0.113.1', bridge: 'vmbr0', dns: ['1.1.1.1'], family: 4 },
      });
      expect(pool.status, pool.text).toBe(201);
      const location = await api.request('POST', '/v1/admin/locations', {
        ...admin,
        body: { name: 'tiny', connectionId: stack.seed.connectionId, ipPools: [pool.body.data.id] },
      });
      expect(location.status, location.text).toBe(201);
      const locationId = location.body.data.id as string;

      // A /30 has two host addresses; one is the gateway, so exactly one server fits.
      const first = await createAs(stack, stack.customer, { hostname: 'tiny-1', locationId });
      expect(first.status).toBe(202);
      expect(first.body.data.ipv4).toBe('203.0.113.2');
      expect(first.body.data.ipv6).toBeNull();

      const before = await reservedRows(api);
      const vmidRows = await api.db.vmidReservation.count();
      for (let i = 0; i < 3; i++) {
        const res = await createAs(stack, stack.customer, { hostname: 'tiny-2', locationId }, { 'Idempotency-Key': `tiny-${i}` });
        expect(expectError(res, 503, 'CAPACITY_UNAVAILABLE').resource).toBe('ipv4');
      }
      expect(await reservedRows(api)).toEqual(before);
      expect(await api.db.vmidReservation.count()).toBe(vmidRows);
      expect(await api.db.instance.count({ where: { hostname: 'tiny-2' } })).toBe(0);
    });

    it('when no node can hold the plan, and nothing leaks', async () => {
      const plan = await api.request('POST', '/v1/admin/plans', { token: api.adminToken, body: { name: 'huge', vcpus: 64, memoryMiB: 1024, diskGiB: 10 } });
      expect(plan.status, plan.text).toBe(201);
      const before = await reservedRows(api);
      const res = await createAs(stack, stack.customer, { hostname: 'huge', planId: plan.body.data.id });
      expect(expectError(res, 503, 'CAPACITY_UNAVAILABLE').resource).toBe('node_capacity');
      expect(await reservedRows(api)).toEqual(before);
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the same request as 200 with the same server, and refuses the key with another body', async () => {
      const customer = await api.createCustomer();
      const headers = { 'Idempotency-Key': 'order-4711' };
      const first = await createAs(stack, customer, { hostname: 'idem-1' }, headers);
      const { id, taskId } = await created(first);
      expect(first.body.meta).toEqual({ taskId });

      const before = await reservedRows(api);
      const replay = await createAs(stack, customer, { hostname: 'idem-1' }, headers);
      expect(replay.status, replay.text).toBe(200);
      expect(replay.body.data.id).toBe(id);
      expect(replay.body.meta).toEqual({ taskId, idempotent_replay: true });
      // The same body with its keys in another order is the same request.
      const reordered = await stack.api.request('POST', '/v1/instances', {
        token: customer.token,
        headers,
        body: Object.fromEntries(Object.entries(defaultBody(stack, { hostname: 'idem-1' })).reverse()),
      });
      expect(reordered.status).toBe(200);
      expect(reordered.body.data.id).toBe(id);

      const other = await createAs(stack, customer, { hostname: 'idem-2' }, headers);
      expect(expectError(other, 409, 'CONFLICT').instanceId).toBe(id);
      expect(await reservedRows(api)).toEqual(before);

      // Keys belong to a user: another customer may use the same one.
      const stranger = await api.createCustomer();
      const theirs = await createAs(stack, stranger, { hostname: 'idem-1' }, headers);
      expect((await created(theirs)).id).not.toBe(id);
    });

    it('makes exactly one server from 20 concurrent requests with one key', async () => {
      const customer = await api.createCustomer();
      const headers = { 'Idempotency-Key': `burst-${randomBytes(4).toString('hex')}` };
      const answers = await Promise.all(Array.from({ length: 20 }, () => createAs(stack, customer, { hostname: 'burst' }, headers)));
      for (const answer of answers) expect([200, 202], answer.text).toContain(answer.status);
      expect(answers.filter((a) => a.status === 202)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 200)).toHaveLength(19);
      const ids = new Set(answers.map((a) => a.body.data.id as string));
      expect(ids.size).toBe(1);
      const [id] = [...ids];
      expect(await api.db.instance.count({ where: { tenantId: customer.tenantId } })).toBe(1);
      expect(await api.db.instance.count({ where: { hostname: 'burst' } })).toBe(1);
      expect(await api.db.task.count({ where: { instanceId: id } })).toBe(1);
      expect(await api.db.vmidReservation.count({ where: { instanceId: id } })).toBe(1);
      expect(await api.db.ipAddress.count({ where: { instanceId: id } })).toBe(2);
      for (const answer of answers.filter((a) => a.status === 200)) expect(answer.body.meta.idempotent_replay).toBe(true);
    });
  });

  describe('concurrency across tenants', () => {
    it('accepts simultaneous creates from many tenants without a deadlock or a slot used twice', async () => {
      const customers = await Promise.all(Array.from({ length: 8 }, () => api.createCustomer()));
      const answers = await Promise.all(customers.flatMap((customer, i) => [0, 1, 2].map((j) => createAs(stack, customer, { hostname: `tenant-${i}-${j}` }))));
      expect(answers.filter((a) => a.status !== 202).map((a) => a.text)).toEqual([]);
      const ids = answers.map((a) => a.body.data.id as string);
      const rows = await api.db.instance.findMany({ where: { id: { in: ids } }, include: { addresses: true } });
      expect(new Set(rows.map((r) => r.vmid)).size).toBe(ids.length);
      expect(new Set(rows.flatMap((r) => r.addresses.map((a) => a.address))).size).toBe(2 * ids.length);
    });
  });

  describe('reveal before the server runs', () => {
    it('answers 409 INVALID_STATE while the server is still being provisioned', async () => {
      const { id } = await created(await createAs(stack, stack.customer, { hostname: 'not-yet' }));
      const res = await api.request('POST', `/v1/instances/${id}/credentials/reveal`, { token: stack.customer.token });
      expectError(res, 409, 'INVALID_STATE');
      expect((await api.request('GET', `/v1/instances/${id}`, { token: stack.customer.token })).body.data.status).toBe('scheduling');
    });
  });

  describe('GET /v1/instances', () => {
    it('lists newest first and checks limit', async () => {
      const customer = await api.createCustomer();
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await created(await createAs(stack, customer, { hostname: `order-${i}` }))).id);
      const list = await api.request('GET', '/v1/instances', { token: customer.token });
      expect(list.status).toBe(200);
      expect(list.body.data.map((i: { id: string }) => i.id)).toEqual([...ids].reverse());
      expect(list.body.meta).toEqual({});

      for (const limit of ['0', '201', '-1', '1.5', 'ten']) {
        const res = await api.request('GET', `/v1/instances?limit=${limit}`, { token: customer.token });
        expect(Object.keys(expectError(res, 400, 'INVALID_INPUT').fields), limit).toEqual(['limit']);
      }
      for (const limit of ['1', '200']) expect((await api.request('GET', `/v1/instances?limit=${limit}`, { token: customer.token })).status).toBe(200);
      const one = await api.request('GET', '/v1/instances?limit=1', { token: customer.token });
      expect(one.body.data).toHaveLength(1);
      expect(one.body.meta.nextCursor).toEqual(expect.any(String));

      expect(Object.keys(expectError(await api.request('GET', '/v1/instances?state=bogus', { token: customer.token }), 400, 'INVALID_INPUT').fields)).toEqual(['state']);
      expect(Object.keys(expectError(await api.request('GET', '/v1/instances?colour=1', { token: customer.token }), 400, 'INVALID_INPUT').fields)).toEqual(['colour']);
      expectError(await api.request('GET', '/v1/instances?cursor=not-a-cursor', { token: customer.token }), 400, 'INVALID_INPUT');
    });

    it('pages with a cursor without duplicates or gaps while servers are created between pages', async () => {
      const customer = await api.createCustomer({ instances: 20 });
      const originals: string[] = [];
      for (let i = 0; i < 7; i++) originals.push((await created(await createAs(stack, customer, { hostname: `page-${i}` }))).id);
      const newestFirst = [...originals].reverse();

      const seen: string[] = [];
      const added: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 10; page++) {
        const query = `/v1/instances?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const res = await api.request('GET', query, { token: customer.token });
        expect(res.status, res.text).toBe(200);
        seen.push(...res.body.data.map((i: { id: string }) => i.id));
        cursor = res.body.meta.nextCursor;
        if (!cursor) break;
        // Someone creates a server while the client pages.
        added.push((await created(await createAs(stack, customer, { hostname: `added-${page}` }))).id);
      }
      expect(cursor).toBeUndefined();
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.filter((id) => originals.includes(id))).toEqual(newestFirst);
      expect(seen.filter((id) => added.includes(id))).toEqual([]);
      // A fresh listing shows everything, newest first.
      const all = await api.request('GET', '/v1/instances?limit=200', { token: customer.token });
      expect(all.body.data.map((i: { id: string }) => i.id)).toEqual([...added.reverse(), ...newestFirst]);
    });
  });
});

// ---------------------------------------------------------------- rate limits

describe('POST /v1/instances: rate limits per user', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startRecordedStack({ worker: false, env: { RATE_LIMIT_CREATE_PER_MINUTE: '2', RATE_LIMIT_CREATE_PER_HOUR: '3' } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('answers 429 RATE_LIMITED with Retry-After past the per-minute limit, then past the hourly one', async () => {
    const { api, customer } = stack;
    await created(await createAs(stack, stack.customer, { hostname: 'rl-1' }));
    await created(await createAs(stack, stack.customer, { hostname: 'rl-2' }));
    const before = await reservedRows(api);
    const again = await api.request('POST', '/v1/instances', { token: customer.token, body: defaultBody(stack, { hostname: 'rl-3' }) });
    const details = expectError(again, 429, 'RATE_LIMITED');
    const retryAfter = Number(again.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(details.retryAfterSeconds).toBe(retryAfter);
    expect(again.body.error.message).toMatch(/minute/);
    expect(await reservedRows(api)).toEqual(before);

    // Another user is not limited by this one's requests.
    const other = await api.createCustomer();
    await created(await createAs(stack, other, { hostname: 'rl-other' }));

    // Five minutes later the minute window is clear, but the hour holds three.
    await api.db.rateLimitEvent.updateMany({ where: { userId: customer.userId }, data: { at: new Date(Date.now() - 5 * 60_000) } });
    await created(await createAs(stack, stack.customer, { hostname: 'rl-4' }));
    const hourly = await api.request('POST', '/v1/instances', { token: customer.token, body: defaultBody(stack, { hostname: 'rl-5' }) });
    const hourlyDetails = expectError(hourly, 429, 'RATE_LIMITED');
    expect(hourly.body.error.message).toMatch(/hour/);
    const hourlyRetry = Number(hourly.headers.get('retry-after'));
    // The oldest of the hour's three was five minutes ago: about 55 minutes to wait.
    expect(hourlyRetry).toBeGreaterThan(50 * 60);
    expect(hourlyRetry).toBeLessThanOrEqual(55 * 60);
    expect(hourlyDetails.retryAfterSeconds).toBe(hourlyRetry);
    expect(await api.db.instance.count({ where: { userId: customer.userId } })).toBe(3);
  });
});

// ---------------------------------------------------------------- with a worker: running servers

describe('running servers: reveal, tenant isolation, lists, provider coordinates', () => {
  let stack: Stack;
  let api: TestApi;
  let running: { id: string; taskId: string };
  beforeAll(async () => {
    stack = await startRecordedStack();
    api = stack.api;
    running = await created(await createAs(stack, stack.customer, { hostname: 'shared-1' }));
    await stack.waitForStatus(running.id, ['running']);
  });
  afterAll(async () => {
    await stack?.close();
  });

  const reveal = (id: string, token: string) => api.request('POST', `/v1/instances/${id}/credentials/reveal`, { token });

  it('reveals the credential to exactly one of 20 concurrent requests', async () => {
    const { id } = await created(await createAs(stack, stack.customer, { hostname: 'reveal-burst', sshKeys: [sshKey()] }));
    await stack.waitForStatus(id, ['running']);
    const answers = await Promise.all(Array.from({ length: 20 }, () => reveal(id, stack.customer.token)));
    const winners = answers.filter((a) => a.status === 200);
    expect(winners).toHaveLength(1);
    const [winner] = winners;
    expect(winner?.body.data).toMatchObject({ username: 'debian', password: expect.stringMatching(/^\S{24}$/), sshKeys: [expect.stringMatching(/^ssh-ed25519 /)] });
    expect(Date.parse(winner?.body.data.expiresAt)).toBeGreaterThan(Date.now());
    for (const loser of answers.filter((a) => a.status !== 200)) expectError(loser, 410, 'CREDENTIAL_ALREADY_REVEALED');
    const credential = await api.db.credential.findUniqueOrThrow({ where: { instanceId: id } });
    expect(credential.revealedAt).not.toBeNull();
    expect(credential.secretCipher).toBeNull();
    expectError(await reveal(id, stack.customer.token), 410, 'CREDENTIAL_ALREADY_REVEALED');
  });

  it('answers 410 CREDENTIAL_EXPIRED past the expiry, and keeps it unrevealed', async () => {
    const { id } = await created(await createAs(stack, stack.customer, { hostname: 'reveal-late' }));
    await stack.waitForStatus(id, ['running']);
    await api.db.credential.update({ where: { instanceId: id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectError(await reveal(id, stack.customer.token), 410, 'CREDENTIAL_EXPIRED');
    expect((await api.db.credential.findUniqueOrThrow({ where: { instanceId: id } })).revealedAt).toBeNull();
  });

  it("shows another tenant's server, task and events as 404 NOT_FOUND, and lists only one's own", async () => {
    const other = await api.createCustomer();
    const paths: [string, string][] = [
      ['GET', `/v1/instances/${running.id}`],
      ['GET', `/v1/instances/${running.id}/events`],
      ['POST', `/v1/instances/${running.id}/credentials/reveal`],
      ['GET', `/v1/tasks/${running.taskId}`],
    ];
    for (const [method, path] of paths) expectError(await api.request(method, path, { token: other.token }), 404, 'NOT_FOUND');
    // The same answer as for ids that do not exist at all.
    for (const path of ['/v1/instances/inst_doesnotexist', '/v1/tasks/task_doesnotexist']) expectError(await api.request('GET', path, { token: other.token }), 404, 'NOT_FOUND');
    expect((await api.request('GET', `/v1/tasks/${running.taskId}`, { token: stack.customer.token })).status).toBe(200);

    const theirs = await created(await createAs(stack, other, { hostname: 'theirs' }));
    await waitFor(api, other.token, theirs.id, ['running']);
    const theirList = await api.request('GET', '/v1/instances?limit=200', { token: other.token });
    expect(theirList.body.data.map((i: { id: string }) => i.id)).toEqual([theirs.id]);
    const ourList = await api.request('GET', '/v1/instances?limit=200', { token: stack.customer.token });
    const ours = ourList.body.data.map((i: { id: string }) => i.id);
    expect(ours).toContain(running.id);
    expect(ours).not.toContain(theirs.id);
    const ourRows = await api.db.instance.findMany({ where: { tenantId: stack.customer.tenantId }, select: { id: true } });
    expect(new Set(ours)).toEqual(new Set(ourRows.map((r) => r.id)));
    expectError(await api.request('GET', `/v1/instances/${theirs.id}`, { token: stack.customer.token }), 404, 'NOT_FOUND');
  });

  it('filters the list by ?state=', async () => {
    const customer = await api.createCustomer();
    // The provider's own words name a node and a path; none of it may reach the customer.
    await stack.sim.fault({ op: 'clone', mode: 'task_fail', message: "can't lock file '/var/lock/qemu-server/lock-9000.conf' on pve1 (local-lvm)" });
    const bad = await created(await createAs(stack, customer, { hostname: 'state-bad' }));
    const failed = await waitFor(api, customer.token, bad.id, ['failed', 'rollback_failed', 'running']);
    expect(failed.status).toBe('failed');
    expect(failed.failure).toEqual({ code: expect.any(String), message: expect.any(String) });
    await stack.sim.clearFaults();
    const ok = await created(await createAs(stack, customer, { hostname: 'state-ok' }));
    expect((await waitFor(api, customer.token, ok.id, ['failed', 'rollback_failed', 'running'])).status).toBe('running');

    const byState = async (state: string) =>
      (await api.request('GET', `/v1/instances?state=${state}`, { token: customer.token })).body.data.map((i: { id: string; status: string }) => [i.id, i.status]);
    expect(await byState('failed')).toEqual([[bad.id, 'failed']]);
    expect(await byState('running')).toEqual([[ok.id, 'running']]);
    expect(await byState('pending')).toEqual([]);
  });

  it('gives administrators the provider coordinates the customer view leaves out', async () => {
    const admin = await api.request('GET', `/v1/admin/instances/${running.id}`, { token: api.adminToken });
    expect(admin.status, admin.text).toBe(200);
    const { provider } = admin.body.data;
    const row = await api.db.instance.findUniqueOrThrow({ where: { id: running.id } });
    expect(provider.vmid).toBe(row.vmid);
    expect(provider.vmid).toBeGreaterThanOrEqual(1000);
    expect(provider.node).toMatch(/^pve[123]$/);
    expect(provider.templateVmid).toBeGreaterThanOrEqual(9000);
    expect(provider.storage).toBe('local-lvm');
    expect(provider.operations.length).toBeGreaterThan(0);
    for (const op of provider.operations) {
      expect(op.node).toMatch(/^pve[123]$/);
      // Firewall writes start no Proxmox task: they have no UPID.
      if (!op.kind.startsWith('firewall')) expect(op.upid).toMatch(/^UPID:pve[123]:/);
    }
    expect(admin.text).toContain('UPID:');
    // Customers may not use the admin view.
    expectError(await api.request('GET', `/v1/admin/instances/${running.id}`, { token: stack.customer.token }), 403, 'FORBIDDEN');
  });

  it('never shows a customer provider coordinates: VMIDs, nodes, UPIDs, templates, storage, bridges', async () => {
    const token = stack.customer.token;
    // Make sure every kind of customer read is in the sample.
    for (const path of ['/v1/instances', `/v1/instances/${running.id}`, `/v1/tasks/${running.taskId}`, '/v1/plans', '/v1/locations', '/v1/images']) {
      expect((await api.request('GET', path, { token })).status, path).toBe(200);
    }
    const sse = await fetch(`${api.baseUrl}/v1/instances/${running.id}/events`, { headers: { authorization: `Bearer ${token}` } });
    const sseText = await sse.text();
    expect(sseText).toContain('event: close');
    customerBodies.push({ what: `SSE /v1/instances/${running.id}/events`, text: sseText });

    const kinds = new Set(customerBodies.map((b) => b.what.split(' ')[1]?.replace(/(inst|task)_[a-z0-9]+/g, ':id').split('?')[0]));
    for (const kind of ['/v1/instances', '/v1/instances/:id', '/v1/tasks/:id', '/v1/plans', '/v1/locations', '/v1/images', '/v1/instances/:id/events', '/v1/instances/:id/credentials/reveal']) {
      expect([...kinds]).toContain(kind);
    }
    expect(customerBodies.length).toBeGreaterThan(100);

    const forbiddenKeys = /^(vmid|node|nodes|storage|templateVmid|templateVmids|templates|upid|bridge|vlan|connectionId|operations|provider|macAddress|workflowId)$/i;
    const forbiddenText: [RegExp, string][] = [
      [/\bpve[123]\b/, 'a node name'],
      [/UPID:/, 'a UPID'],
      [/local-lvm/, 'a storage id'],
      [/vmbr0/, 'a bridge'],
      [/"vmid"/i, 'a vmid field'],
      [/qemu-server|\/nodes\//, 'a provider path'],
    ];
    const problems: string[] = [];
    const walk = (value: unknown, path: string, where: string) => {
      if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${path}[${i}]`, where));
      else if (value && typeof value === 'object') {
        for (const [key, child] of Object.entries(value)) {
          if (forbiddenKeys.test(key)) problems.push(`${where}: key ${path}.${key}`);
          if (/template/i.test(key) && typeof child === 'number' && child >= 9000 && child <= 9022) problems.push(`${where}: template vmid at ${path}.${key}`);
          walk(child, `${path}.${key}`, where);
        }
      }
    };
    for (const { what, text } of customerBodies) {
      for (const [pattern, name] of forbiddenText) if (pattern.test(text)) problems.push(`${what}: ${name} (${pattern})`);
      if (what.startsWith('SSE')) {
        for (const line of text.split('\n').filter((l) => l.startsWith('data: '))) walk(JSON.parse(line.slice(6)), '$', what);
      } else if (text.startsWith('{')) {
        walk(JSON.parse(text), '$', what);
      }
    }
    expect(problems).toEqual([]);
  });
});
