import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CLOSE_CODES } from '../../src/domain/guest-console';
import { consoleSlotsHeld } from '../../src/db/console-sessions';
import { consoleOffer } from '../support/console-client';
import { frame, MALFORMED_FRAMES, rawExchange, upgradeRequest, WS_KEY } from '../support/hostile-websocket';
import { runningServer } from '../support/lifecycle';
import { openEventStream, spawnAppProcess, type AppProcess, type EventStream } from '../support/processes';
import { startStack, type Stack } from '../support/stack';

/**
 * One API process against what a hostile client can send before and after a WebSocket upgrade:
 * request targets Node's URL parser refuses, other paths and methods, broken handshakes, and every
 * malformed frame RFC 6455 knows, on a console with and without a valid ticket, from pages of
 * other origins (refused before the ticket is looked at) and of the console's own. After each, the
 * same process must still answer /readyz, and an event stream opened before the attack must still
 * be open. A random mix runs on a seed (printed; replay it with `SOCKET_FUZZ_SEED=<seed>`).
 */

const FIXED_SEED = 20_261_203;
const MIXED_ATTACKS = Number(process.env.SOCKET_FUZZ_ATTACKS ?? 120);
const SOCKET_PATH = '/v1/console/socket';

let stack: Stack;
let api: AppProcess;
let port: number;
let pid: number | undefined;
let stream: EventStream;
let streamOpen = true;
let serverId: string;
let streamPath: string;

/** A fresh, valid console ticket for the running server (its slot taken until the session ends). */
async function validTicket(): Promise<string> {
  const offer = await consoleOffer(stack, serverId, 'serial');
  expect(offer.status).toBe(201);
  return new URL(offer.body.data.websocketUrl).searchParams.get('ticket') as string;
}

const WS_HEADERS = ['Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13', `Sec-WebSocket-Key: ${WS_KEY}`];

/** The origin of the console's pages (PUBLIC_URL), the only one a browser page may open a console from. */
const consoleOrigin = () => new URL(stack.api.config.PUBLIC_URL).origin;

/** Origins a page of another site (or none at all) would name, each refused. */
const FOREIGN_ORIGINS: { name: string; headers: () => string[] }[] = [
  { name: 'the Origin of another site', headers: () => ['Origin: https://attacker.example'] },
  { name: 'Origin null (a sandboxed frame, a file)', headers: () => ['Origin: null'] },
  { name: 'the Origin of the console\'s host over the other scheme', headers: () => [`Origin: ${consoleOrigin().replace(/^http:/, 'https:')}`] },
  { name: 'the Origin of the console\'s host on another port', headers: () => [`Origin: ${consoleOrigin().replace(/:\d+$/, ':1')}`] },
  { name: 'the console\'s origin with a path', headers: () => [`Origin: ${consoleOrigin()}/`] },
  { name: 'the console\'s origin in capitals', headers: () => [`Origin: ${consoleOrigin().toUpperCase()}`] },
  { name: 'the console\'s origin with another site\'s domain after it', headers: () => [`Origin: ${consoleOrigin()}.attacker.example`] },
  { name: 'an empty Origin', headers: () => ['Origin: '] },
  { name: 'two Origins, the first the console\'s', headers: () => [`Origin: ${consoleOrigin()}`, 'Origin: https://attacker.example'] },
  { name: 'the console\'s Origin with a foreign Sec-WebSocket-Origin', headers: () => [`Origin: ${consoleOrigin()}`, 'Sec-WebSocket-Origin: https://attacker.example'] },
];

/** The process that was attacked is the one still serving, ready, with its event stream open. */
async function stillServing(): Promise<void> {
  expect(api.child.exitCode, api.output().slice(-2000)).toBeNull();
  expect(api.child.pid).toBe(pid);
  const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
  expect(ready.status).toBe(200);
  expect(streamOpen).toBe(true);
}

/** No console slot of the customer is held once every attack's session has ended. */
async function noSlotHeld(): Promise<void> {
  await expect.poll(() => consoleSlotsHeld(stack.api.db, { userId: stack.customer.userId }), { timeout: 10_000, interval: 50 }).toBe(0);
}

let slowId: string;

beforeAll(async () => {
  stack = await startStack({ worker: false, env: { CONSOLE_SESSIONS_PER_USER: '3' } });
  const worker = await stack.startWorker();
  serverId = await runningServer(stack, { hostname: 'hostile-target' });
  // With no worker left, the next provision never moves: its task, and so its event stream, stay open throughout.
  await worker.shutdown();
  slowId = (await stack.create({ hostname: 'stream-kept-open' })).body.data.id;
  api = spawnAppProcess('server', stack.api.config, { PORT: '0', LOG_LEVEL: 'debug' });
  port = ((await api.logLine('API listening')) as { port: number }).port;
  pid = api.child.pid;
  streamPath = `/v1/instances/${slowId}/events`;
  stream = await openEventStream(`http://127.0.0.1:${port}${streamPath}`, stack.customer.token);
  expect(stream.status).toBe(200);
  void stream.ended.then(() => (streamOpen = false));
});

afterAll(async () => {
  await stream?.cancel();
  await api?.kill();
  if (slowId) await stack.api.temporal.workflow.getHandle(`provision-${slowId}`).terminate('test over').catch(() => undefined);
  await stack?.close();
});

describe('hostile upgrade requests', () => {
  const cases: { name: string; request: () => string; answer: RegExp }[] = [
    { name: 'GET // (a target the URL parser refuses)', request: () => upgradeRequest('//'), answer: /^HTTP\/1\.1 404 / },
    { name: 'GET //[', request: () => upgradeRequest('//['), answer: /^HTTP\/1\.1 400 / },
    { name: 'GET http://[::1 (a broken absolute form)', request: () => upgradeRequest('http://[::1'), answer: /^HTTP\/1\.1 400 / },
    { name: 'GET //x:99999/', request: () => upgradeRequest('//x:99999/'), answer: /^HTTP\/1\.1 404 / },
    { name: 'GET http://x:99999/v1/console/socket', request: () => upgradeRequest('http://x:99999/v1/console/socket'), answer: /^HTTP\/1\.1 400 / },
    { name: 'a target with a raw backslash and a bare percent', request: () => upgradeRequest('/v1/console/socket\\..%'), answer: /^HTTP\/1\.1 400 / },
    { name: 'an upgrade of an API path', request: () => upgradeRequest('/v1/instances'), answer: /^HTTP\/1\.1 404 / },
    { name: 'an upgrade of the console path with POST', request: () => upgradeRequest(SOCKET_PATH, { method: 'POST' }), answer: /^HTTP\/1\.1 405 / },
    { name: 'an upgrade to another protocol', request: () => upgradeRequest(SOCKET_PATH, { headers: ['Connection: Upgrade', 'Upgrade: h2c'] }), answer: /^HTTP\/1\.1 400 / },
    { name: 'a handshake with a malformed key', request: () => upgradeRequest(SOCKET_PATH, { headers: ['Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: short'] }), answer: /^HTTP\/1\.1 400 / },
    { name: 'a handshake with version 7', request: () => upgradeRequest(SOCKET_PATH, { headers: ['Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 7', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=='] }), answer: /^HTTP\/1\.1 400 / },
    { name: 'CONNECT to a host', request: () => 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', answer: /^HTTP\/1\.1 405 / },
    { name: 'a request line that is not HTTP', request: () => 'HELLO\r\n\r\n', answer: /^HTTP\/1\.1 400 / },
    { name: 'headers past the size limit', request: () => upgradeRequest(SOCKET_PATH, { headers: [`X-Big: ${'a'.repeat(20_000)}`, 'Connection: Upgrade', 'Upgrade: websocket'] }), answer: /^HTTP\/1\.1 431 / },
  ];
  for (const c of cases) {
    it(`${c.name}: answered, and the process serves on`, async () => {
      const answer = await rawExchange(port, c.request());
      expect(answer.head).toMatch(c.answer);
      await stillServing();
    });
  }

  for (const origin of FOREIGN_ORIGINS) {
    it(`a valid ticket with ${origin.name}: 403 before the ticket is redeemed, which then still works from the console's origin`, async () => {
      const ticket = await validTicket();
      const target = `${SOCKET_PATH}?ticket=${ticket}`;
      const refused = await rawExchange(port, upgradeRequest(target, { headers: [...WS_HEADERS, ...origin.headers()] }));
      expect(refused.head).toMatch(/^HTTP\/1\.1 403 /);
      await stillServing();
      expect(await stack.api.db.consoleSession.count({ where: { instanceId: serverId, redeemedAt: null, endedAt: null, expiresAt: { gt: new Date() } } })).toBe(1);
      const accepted = await rawExchange(port, upgradeRequest(target, { headers: [...WS_HEADERS, `Origin: ${consoleOrigin()}`] }), [], { timeoutMs: 500 });
      expect(accepted.head).toMatch(/^HTTP\/1\.1 101 /);
      await noSlotHeld();
    });
  }

  it('a made-up ticket from another origin is refused 403 too: the Origin is checked before any ticket', async () => {
    const answer = await rawExchange(port, upgradeRequest(`${SOCKET_PATH}?ticket=made-up`, { headers: [...WS_HEADERS, 'Origin: https://attacker.example'] }));
    expect(answer.head).toMatch(/^HTTP\/1\.1 403 /);
    await stillServing();
  });

  it('a connection reset right after the upgrade request, and one cut in the middle of its headers', async () => {
    await rawExchange(port, upgradeRequest(SOCKET_PATH), [], { cut: true });
    await rawExchange(port, upgradeRequest(SOCKET_PATH).slice(0, 30), [], { cut: true });
    await stillServing();
  });
});

describe('malformed frames on an open console WebSocket', () => {
  for (const f of MALFORMED_FRAMES) {
    it(`${f.name}, without a valid ticket: the socket is closed, the process serves on`, async () => {
      const answer = await rawExchange(port, upgradeRequest(`${SOCKET_PATH}?ticket=made-up`), [f.bytes()]);
      expect(answer.head).toMatch(/^HTTP\/1\.1 101 /);
      expect([f.closeCode, CONSOLE_CLOSE_CODES.ticket_invalid]).toContain(answer.closeCode);
      await stillServing();
    });

    it(`${f.name}, on a redeemed console: closed with ${f.closeCode}, its slot released at once, recorded as a protocol error`, async () => {
      const ticket = await validTicket();
      const answer = await rawExchange(port, upgradeRequest(`${SOCKET_PATH}?ticket=${ticket}`), [f.bytes()]);
      expect(answer.head).toMatch(/^HTTP\/1\.1 101 /);
      expect(answer.closeCode).toBe(f.closeCode);
      await stillServing();
      await noSlotHeld();
      const [session] = await stack.api.db.consoleSession.findMany({ where: { instanceId: serverId }, orderBy: { createdAt: 'desc' }, take: 1 });
      expect(session).toMatchObject({ closeReason: 'protocol_error', endedAt: expect.any(Date) });
    });
  }

  it('a console whose connection is reset in the middle of a frame ends as closed by its client, its slot released', async () => {
    const ticket = await validTicket();
    const half = frame({ opcode: 0x2, payload: Buffer.alloc(1000, 1) }).subarray(0, 500);
    await rawExchange(port, upgradeRequest(`${SOCKET_PATH}?ticket=${ticket}`), [half], { cut: true });
    await stillServing();
    await noSlotHeld();
  });
});

describe('event streams cut by their client', () => {
  it('streams reset mid-flight, half-read or never read leave the process serving and give their slots back', async () => {
    const request = `GET ${streamPath} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${stack.customer.token}\r\nAccept: text/event-stream\r\n\r\n`;
    const leasesBefore = await stack.api.db.eventStreamLease.count();
    for (let i = 0; i < 5; i++) {
      // Reset as soon as the answer starts, and reset before reading anything.
      await rawExchange(port, request, [], { timeoutMs: 300 });
      await rawExchange(port, request, [], { cut: true });
    }
    await stillServing();
    await expect.poll(() => stack.api.db.eventStreamLease.count(), { timeout: 10_000, interval: 100 }).toBe(leasesBefore);
  });
});

describe('a random mix of hostile requests and frames', () => {
  const seed = process.env.SOCKET_FUZZ_SEED ? Number(process.env.SOCKET_FUZZ_SEED) : FIXED_SEED;

  /** One attack: a request target, maybe a valid ticket, maybe an Origin, then a burst of frames (some well formed, some not), maybe cut. */
  const attack = fc.record({
    target: fc.oneof(
      fc.constant(SOCKET_PATH),
      fc.constantFrom('//', '//[', 'http://[::1', '//x:99999/', '/v1/../v1/console/socket', '*', '/%', '/v1/console/socket/'),
      fc.string({ maxLength: 40 }).map((s) => `/${s.replace(/[\s]/g, '')}`),
    ),
    withTicket: fc.boolean(),
    /** No Origin (not a browser), the console's own, or one of a page elsewhere. */
    origin: fc.oneof(fc.constant<'none' | 'console'>('none'), fc.constant<'none' | 'console'>('console'), fc.integer({ min: 0, max: FOREIGN_ORIGINS.length - 1 })),
    frames: fc.array(
      fc.oneof(
        fc.integer({ min: 0, max: MALFORMED_FRAMES.length - 1 }).map((i) => () => (MALFORMED_FRAMES[i] as (typeof MALFORMED_FRAMES)[number]).bytes()),
        fc.record({ opcode: fc.integer({ min: 0, max: 15 }), fin: fc.boolean(), rsv: fc.integer({ min: 0, max: 7 }), masked: fc.boolean(), payload: fc.uint8Array({ maxLength: 200 }) }).map((spec) => () => frame({ ...spec, payload: Buffer.from(spec.payload) })),
        fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => () => Buffer.from(bytes)),
      ),
      { maxLength: 4 },
    ),
    cut: fc.boolean(),
  });

  it(`${MIXED_ATTACKS} attacks on seed ${seed}: the same process serves throughout, and no console slot stays held`, async () => {
    console.log(`socket fuzz seed: ${seed}`);
    const attacks = fc.sample(attack, { numRuns: MIXED_ATTACKS, seed });
    for (const a of attacks) {
      const ticket = a.withTicket && a.target === SOCKET_PATH ? await validTicket() : 'none';
      const target = a.target === SOCKET_PATH ? `${SOCKET_PATH}?ticket=${ticket}` : a.target;
      const origin = a.origin === 'none' ? [] : a.origin === 'console' ? [`Origin: ${consoleOrigin()}`] : (FOREIGN_ORIGINS[a.origin] as (typeof FOREIGN_ORIGINS)[number]).headers();
      const answer = await rawExchange(port, upgradeRequest(target, { headers: [...WS_HEADERS, ...origin] }), a.frames.map((make) => make()), { cut: a.cut, timeoutMs: 500 });
      if (!answer.head.startsWith('HTTP/1.1 101')) expect(answer.head === '' || /^HTTP\/1\.1 (400|403|404|405) /.test(answer.head), answer.head).toBe(true);
      const foreignPage = typeof a.origin === 'number' && a.target === SOCKET_PATH;
      if (foreignPage && answer.head !== '') expect(answer.head).toMatch(/^HTTP\/1\.1 403 /);
      await stillServing();
      // A page refused for its origin never redeemed its ticket: let it lapse, as an unused ticket does.
      if (foreignPage) await stack.api.db.consoleSession.updateMany({ where: { instanceId: serverId, redeemedAt: null }, data: { expiresAt: new Date() } });
      // Well-formed frames may keep a console open: this attacker hangs up, as attackers do.
      await noSlotHeld();
    }
  });
});
