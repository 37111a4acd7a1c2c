import net from 'node:net';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { newId } from '../../src/security/ids';
import type { InstanceStatus } from '../../src/generated/prisma/enums';
import { startTestApi, type TestApi, type TestResponse } from '../support/api';
import { freePort } from '../support/ports';
import { ed25519PublicKey } from '../support/ssh';
import { FAST_ENV, startStack, type Stack } from '../support/stack';

const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function expectError(res: TestResponse, status: number, code: string) {
  expect({ status: res.status, code: res.body?.error?.code }, res.text).toEqual({ status, code });
}

let stack: Stack;
let instanceId: string;

/** Puts an instance in `status` with no operation under way (a fixture, as a crash or an operator would leave it). */
async function setStatus(id: string, status: InstanceStatus) {
  await stack.api.db.task.updateMany({ where: { instanceId: id }, data: { activeInstanceId: null, status: 'failed' } });
  await stack.api.db.instance.update({ where: { id }, data: { status } });
}

beforeAll(async () => {
  // No worker: workflows start and wait; the rows stay as each test sets them.
  stack = await startStack({ worker: false });
  instanceId = (await stack.create({ hostname: 'target' })).body.data.id;
});
afterAll(async () => {
  await stack?.close();
});

describe('control characters and invalid Unicode answer 400 INVALID_INPUT wherever they come in', () => {
  const admin = () => ({ token: stack.api.adminToken });

  it.each([
    ['NUL', '%00'],
    ['escape', '%1B'],
    ['DEL', '%7F'],
    ['a C1 control', '%C2%85'],
    ['a line feed', '%0A'],
    ['a lone surrogate', '%ED%A0%80'],
    ['broken percent-encoding', '%E0%A4%A'],
  ])('in a path id: %s', async (_what, encoded) => {
    expectError(await stack.api.request('GET', `/v1/instances/inst${encoded}x`, admin()), 400, 'INVALID_INPUT');
    expectError(await stack.api.request('POST', `/v1/admin/orphans/orph${encoded}x/destroy`, admin()), 400, 'INVALID_INPUT');
  });

  it('in a query value, naming the parameter', async () => {
    const res = await stack.api.request('GET', '/v1/admin/instances?node=pve1%00', admin());
    expectError(res, 400, 'INVALID_INPUT');
    expect(res.body.error.details.fields).toHaveProperty('node');
    expectError(await stack.api.request('GET', '/v1/events?instanceId=inst%0Ax', admin()), 400, 'INVALID_INPUT');
  });

  it('in a body field, a body key and a tenant name, a NUL or a lone surrogate', async () => {
    const quota = { instances: 1, vcpus: 1, memoryMiB: 1, diskGiB: 1 };
    for (const name of ['a\u0000b', 'a\u001bb', 'two\nlines']) {
      expectError(await stack.api.request('POST', '/v1/admin/tenants', { ...admin(), body: { name, quota } }), 400, 'INVALID_INPUT');
    }
    const surrogate = await stack.api.request('POST', '/v1/admin/tenants', { ...admin(), rawBody: '{"name":"a\\ud800b","quota":{"instances":1,"vcpus":1,"memoryMiB":1,"diskGiB":1}}' });
    expectError(surrogate, 400, 'INVALID_INPUT');
    expect(surrogate.body.error.details.fields).toEqual({ name: 'contains a control character or invalid Unicode' });
    expectError(await stack.api.request('POST', '/v1/admin/tenants', { ...admin(), rawBody: '{"na\\u0000me":"x","quota":{}}' }), 400, 'INVALID_INPUT');
    expect(await stack.api.db.tenant.count({ where: { name: { in: ['two\nlines', 'a\u001bb'] } } })).toBe(0);
  });

  it('keeps line breaks and tabs where text may have them (user data)', async () => {
    // Past the text check and the YAML check; refused only because this location has no snippets storage.
    const { error, response } = await stack.createAnswer({ hostname: 'multi-line', userData: '#cloud-config\r\nwrite_files:\n  - path: /etc/motd\n    content: "one\ttwo"\n' });
    expect({ status: response.status, code: error?.error.code }).toEqual({ status: 422, code: 'USER_DATA_UNSUPPORTED' });
  });

  it('refuses an SSH key whose comment could change the cloud-init document, and stores nothing', async () => {
    const before = await stack.api.db.instance.count();
    for (const comment of ['alice\u0000', 'alice"\nchpasswd: {expire: false}', "it's", 'a#b', 'x\\y', 'é']) {
      const { error, response } = await stack.createAnswer({ hostname: 'keyed', sshKeys: [ed25519PublicKey(comment)] });
      expect({ status: response.status, code: error?.error.code }, comment).toEqual({ status: 400, code: 'INVALID_INPUT' });
      expect(error?.error.details?.fields).toHaveProperty(['sshKeys.0']);
    }
    expect(await stack.api.db.instance.count()).toBe(before);
  });

  it('stores an accepted SSH key in its canonical form: single spaces, nothing after the comment', async () => {
    const key = ed25519PublicKey('alice@laptop');
    const [type, blob] = key.split(' ');
    const res = await stack.create({ hostname: 'canonical', sshKeys: [`  ${type}\t${blob}   alice@laptop  `] });
    expect(res.status).toBe(202);
    expect((await stack.api.db.instance.findUniqueOrThrow({ where: { id: res.body.data.id } })).sshKeys).toEqual([key]);
  });
});

describe('list cursors and sequence numbers PostgreSQL would refuse answer 400', () => {
  it.each([
    ['a date past the year 9999', cursor(['+275760-09-13T00:00:00.000Z', 'plan_x'])],
    ['the year 0000', cursor(['0000-01-01T00:00:00.000Z', 'plan_x'])],
    ['a negative year', cursor(['-000001-01-01T00:00:00.000Z', 'plan_x'])],
    ['a day that does not exist', cursor(['2024-02-30T00:00:00.000Z', 'plan_x'])],
    ['an id with NUL', cursor(['2024-01-01T00:00:00.000Z', 'plan\u0000x'])],
    ['garbage', 'bm90IGpzb24'],
    ['an object', cursor({ createdAt: '2024-01-01T00:00:00.000Z', id: 'x' })],
  ])('a cursor holding %s', async (_what, value) => {
    for (const path of ['/v1/plans', '/v1/instances', '/v1/admin/tenants', '/v1/admin/instances']) {
      const res = await stack.api.request('GET', `${path}?cursor=${value}`, { token: stack.api.adminToken });
      expectError(res, 400, 'INVALID_INPUT');
      expect(res.body.error.details.fields).toEqual({ cursor: 'invalid cursor' });
    }
  });

  it('an event cursor beyond bigint', async () => {
    expectError(await stack.api.request('GET', '/v1/events?cursor=9999999999999999999', { token: stack.api.adminToken }), 400, 'INVALID_INPUT');
  });

  it.each(['99999999999999999999', '9223372036854775808', '-1', 'abc'])('Last-Event-ID: %s on the step stream, before any event is sent', async (lastEventId) => {
    const res = await stack.api.request('GET', `/v1/instances/${instanceId}/events`, { token: stack.customer.token, headers: { 'Last-Event-ID': lastEventId } });
    expectError(res, 400, 'INVALID_INPUT');
    expect(res.body.error.details.fields).toHaveProperty(['Last-Event-ID']);
  });
});

describe('bodies that are not JSON', () => {
  it('a form-encoded rebuild is 415 and runs nothing', async () => {
    await setStatus(instanceId, 'running');
    const tasks = await stack.api.db.task.count({ where: { instanceId } });
    const res = await stack.api.request('POST', `/v1/instances/${instanceId}/rebuild`, {
      token: stack.customer.token,
      rawBody: 'imageId=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(await stack.api.db.task.count({ where: { instanceId } })).toBe(tasks);
    expect((await stack.api.db.instance.findUniqueOrThrow({ where: { id: instanceId } })).status).toBe('running');
  });

  it.each([
    ['text/plain', '{}'],
    ['multipart/form-data; boundary=x', '--x--'],
    ['application/json; charset=latin1', '{}'],
  ])('%s is 415', async (contentType, rawBody) => {
    expectError(await stack.api.request('POST', '/v1/admin/tenants', { token: stack.api.adminToken, rawBody, headers: { 'content-type': contentType } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('a body with no content type is 415; no body at all is fine where none is needed', async () => {
    const res = await fetch(`${stack.api.baseUrl}/v1/admin/tenants`, { method: 'POST', headers: { authorization: `Bearer ${stack.api.adminToken}` }, body: new Uint8Array(Buffer.from('{}')) });
    expect(res.status).toBe(415);
    await setStatus(instanceId, 'stopped');
    const start = await fetch(`${stack.api.baseUrl}/v1/instances/${instanceId}/start`, { method: 'POST', headers: { authorization: `Bearer ${stack.customer.token}` } });
    expect(start.status).toBe(202);
  });

  it.each(['{', '{"a":}', "{'a':1}", 'null', '"text"', '{"a":1e99999}'])('malformed or non-object JSON %s is 400', async (rawBody) => {
    expectError(await stack.api.request('POST', '/v1/admin/tenants', { token: stack.api.adminToken, rawBody }), 400, 'INVALID_INPUT');
  });

  it('an oversized body is 413', async () => {
    expectError(await stack.api.request('POST', '/v1/admin/tenants', { token: stack.api.adminToken, body: { name: 'x'.repeat(70_000) } }), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('a body refused before it was read closes the connection, so the next request is not sent into the rest of it', async () => {
    // A client still sending a large form when the 415 comes.
    const { port } = new URL(stack.api.baseUrl);
    const socket = net.connect(Number(port), '127.0.0.1');
    const head = new Promise<string>((resolve, reject) => {
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString('latin1');
        if (received.includes('\r\n\r\n')) resolve(received.slice(0, received.indexOf('\r\n\r\n')));
      });
      socket.on('error', reject);
    });
    socket.write(`POST /v1/admin/tenants HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${stack.api.adminToken}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 10000000\r\n\r\nname=`);
    const answer = await head;
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 415 /);
    expect(answer).toMatch(/\r\nConnection: close(\r\n|$)/i);
  });
});

describe('when PostgreSQL cannot be reached', () => {
  let down: TestApi;
  beforeAll(async () => {
    down = await startTestApi({ database: stack.api.database, deps: { db: createDb(`postgresql://postgres@127.0.0.1:${await freePort()}/nothing`) } });
  });
  afterAll(async () => {
    await down?.close();
  });

  it('every route answers 503 SERVICE_UNAVAILABLE with Retry-After, never 500', async () => {
    const token = { token: stack.api.adminToken };
    for (const [method, path, body] of [
      ['GET', '/v1/plans'],
      ['GET', `/v1/instances/${instanceId}`],
      ['POST', '/v1/admin/tenants', { name: 'x', quota: { instances: 1, vcpus: 1, memoryMiB: 1, diskGiB: 1 } }],
      ['DELETE', `/v1/instances/${instanceId}`],
    ] as const) {
      const res = await down.request(method, path, { ...token, ...(body ? { body } : {}) });
      expectError(res, 503, 'SERVICE_UNAVAILABLE');
      expect(res.headers.get('retry-after')).toBe('5');
    }
  });
});

describe('when Temporal cannot be reached', () => {
  let away: TestApi;
  beforeAll(async () => {
    const unreachable = new Client({ connection: Connection.lazy({ address: `127.0.0.1:${await freePort()}`, connectTimeout: 500 }) });
    away = await startTestApi({ database: stack.api.database, env: FAST_ENV, deps: { temporal: unreachable } });
  });
  afterAll(async () => {
    await away?.close();
  });

  it('every route that starts, updates or cancels a workflow answers 503 PROVIDER_UNAVAILABLE with Retry-After', async () => {
    const made = async (hostname: string, status: InstanceStatus) => {
      const id = (await stack.create({ hostname })).body.data.id as string;
      if (status !== 'provisioning') await setStatus(id, status);
      return id;
    };
    const [running, provisioning, parkedRetry, parkedResolve, reconciled] = await Promise.all([
      made('t-running', 'running'),
      made('t-provisioning', 'provisioning'),
      made('t-parked-1', 'rollback_failed'),
      made('t-parked-2', 'rollback_failed'),
      made('t-reconcile', 'running'),
    ]);
    const orphanId = newId('orph');
    await stack.api.db.orphanGuest.create({
      data: { id: orphanId, connectionId: stack.seed.connectionId, node: 'pve1', vmid: 4242, ownerInstanceId: 'inst_gone', reason: 'instance_missing', status: 'open', openKey: `${stack.seed.connectionId}:4242` },
    });
    const customer = { token: stack.customer.token };
    const admin = { token: away.adminToken };
    const answers = await Promise.all([
      away.request('POST', `/v1/instances/${running}/stop`, { ...customer, body: {} }),
      away.request('DELETE', `/v1/instances/${provisioning}`, customer),
      away.request('POST', `/v1/admin/instances/${parkedRetry}/rollback/retry`, admin),
      away.request('POST', `/v1/admin/instances/${parkedResolve}/rollback/resolve`, { ...admin, body: { note: 'removed by hand' } }),
      away.request('POST', `/v1/admin/orphans/${orphanId}/destroy`, admin),
      away.request('POST', `/v1/admin/instances/${reconciled}/reconcile`, admin),
      away.request('POST', '/v1/instances', { ...customer, body: { planId: stack.seed.plans.small, locationId: stack.seed.locationId, imageId: stack.seed.images['debian-12'], hostname: 't-create' } }),
    ]);
    for (const res of answers) {
      expectError(res, 503, 'PROVIDER_UNAVAILABLE');
      expect(res.headers.get('retry-after')).toBe('5');
    }
    // The stop was undone, the orphan is open again; the delete stays recorded and sending it again (Temporal back) cancels the creation.
    expect((await stack.api.db.instance.findUniqueOrThrow({ where: { id: running } })).status).toBe('running');
    expect((await stack.api.db.orphanGuest.findUniqueOrThrow({ where: { id: orphanId } })).status).toBe('open');
    const again = await stack.api.request('DELETE', `/v1/instances/${provisioning}`, customer);
    expect(again.status).toBe(202);
    const history = await stack.api.temporal.workflow.getHandle(`provision-${provisioning}`).fetchHistory();
    expect(history.events?.some((event) => event.workflowExecutionCancelRequestedEventAttributes)).toBe(true);
  }, 90_000);
});
