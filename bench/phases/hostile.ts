/**
 * Phase hostile (a soak, not in the default run): for `--hostile-minutes` (10), attackers send one
 * API process random hostile upgrades and frames (the socket fuzz suite's cases and random bytes,
 * some on valid console tickets), while normal clients list servers, read one, follow a new
 * server's event stream to its end and use a real console. At the end the same process must be
 * serving, no normal request may have had a 5xx, and no console may hold a slot.
 */
import { performance } from 'node:perf_hooks';
import type { Client as TemporalClient } from '@temporalio/client';
import { startChild } from '../children';
import type { Cleanups } from '../cleanups';
import { createServer, customerClients } from '../instances';
import type { Options } from '../options';
import type { Catalog, Stack } from '../stack';
import { cpuSecondsOf, mib, residentMemoryOf, round } from '../stats';
import { consoleSlotsHeld } from '../../src/db/console-sessions';
import { connectConsole } from '../../test/support/console-socket';
import { frame, MALFORMED_FRAMES, rawExchange, upgradeRequest } from '../../test/support/hostile-websocket';
import { provisionOnce } from './alone';

const ATTACKERS = 4;
const SOCKET_PATH = '/v1/console/socket';
const CONSOLES_PER_USER = 50;
const HOSTILE_TARGETS = ['//', '//[', 'http://[::1', '//x:99999/', '*', '/%', '/v1/instances', `${SOCKET_PATH}/`, 'http://x:99999/v1/console/socket'];

export interface HostileResult {
  minutes: number;
  attackers: number;
  attacks: { upgrades: number; malformedFrames: number; randomFrames: number; withValidTicket: number };
  normal: { requests: number; byStatus: Record<string, number>; serverErrors: number; streamsFollowed: number; consolesUsed: number };
  apiPidUnchanged: boolean;
  readyAtEnd: boolean;
  consoleSlotsHeldAtEnd: number;
  apiRssMiB: { start: number | null; end: number | null };
  apiCpuPercent: number | null;
}

/** A small deterministic generator, so a soak can be replayed. */
function randomOf(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

export async function measureHostile(stack: Stack, temporal: TemporalClient, catalog: Catalog, options: Options, cleanups: Cleanups, log: (line: string) => void): Promise<HostileResult> {
  // Console tickets count as operations: the attackers' valid ones would reach the per-token limit in seconds.
  const env = { ...stack.env(options.pollMs), CONSOLE_SESSIONS_PER_USER: String(CONSOLES_PER_USER), RATE_LIMIT_OPERATIONS_PER_MINUTE: '1000000' };
  const api = await startChild({ name: 'hostile api', entry: 'src/server.ts', env }, cleanups);
  const apiUrl = api.baseUrl as string;
  const port = Number(new URL(apiUrl).port);
  const [client] = customerClients(catalog, [apiUrl]);
  if (!client) throw new Error('phase hostile needs a customer');
  const { id: target } = await provisionOnce(client, temporal, catalog, 'hostile-target', options.timeoutS);
  const ticket = async () => {
    const offer = await client.POST('/v1/instances/{id}/console', { params: { path: { id: target } }, body: { type: 'serial' } });
    if (!offer.data) throw new Error(`console refused: ${offer.response.status} ${JSON.stringify(offer.error)}`);
    return new URL(offer.data.data.websocketUrl).searchParams.get('ticket') as string;
  };

  const rssStart = residentMemoryOf(api.pid)?.rss ?? null;
  const cpuStart = cpuSecondsOf(api.pid);
  const startedAt = performance.now();
  const endAt = startedAt + options.hostileMinutes * 60_000;
  const attacks = { upgrades: 0, malformedFrames: 0, randomFrames: 0, withValidTicket: 0 };
  const normal = { requests: 0, byStatus: {} as Record<string, number>, serverErrors: 0, streamsFollowed: 0, consolesUsed: 0 };
  const count = (status: number) => {
    normal.requests++;
    normal.byStatus[status] = (normal.byStatus[status] ?? 0) + 1;
    if (status >= 500) normal.serverErrors++;
  };
  log(`hostile: ${ATTACKERS} attackers and normal traffic against one API process (pid ${api.pid}) for ${options.hostileMinutes} min`);

  const attacker = async (seed: number) => {
    const random = randomOf(seed);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    while (performance.now() < endAt) {
      const onConsole = random() < 0.6;
      const valid = onConsole && random() < 0.3;
      const path = onConsole ? `${SOCKET_PATH}?ticket=${valid ? await ticket() : 'none'}` : pick(HOSTILE_TARGETS);
      const frames = Array.from({ length: Math.floor(random() * 4) }, () => {
        if (random() < 0.5) {
          attacks.malformedFrames++;
          return pick(MALFORMED_FRAMES).bytes();
        }
        attacks.randomFrames++;
        const payload = Buffer.from(Array.from({ length: Math.floor(random() * 200) }, () => Math.floor(random() * 256)));
        return frame({ opcode: Math.floor(random() * 16), fin: random() < 0.5, rsv: Math.floor(random() * 8), masked: random() < 0.8, payload });
      });
      attacks.upgrades++;
      if (valid) attacks.withValidTicket++;
      await rawExchange(port, upgradeRequest(path), frames, { cut: random() < 0.3, timeoutMs: 500 });
    }
  };

  const requests = async () => {
    while (performance.now() < endAt) {
      const list = await client.GET('/v1/instances', { params: { query: { limit: 20 } } });
      count(list.response.status);
      const one = await client.GET('/v1/instances/{id}', { params: { path: { id: target } } });
      count(one.response.status);
      const ready = await fetch(`${apiUrl}/readyz`);
      count(ready.status);
    }
  };

  const streams = async () => {
    for (let i = 0; performance.now() < endAt; i++) {
      const created = await createServer(client, catalog, `hostile-stream-${i}`);
      count(created.status);
      if (!created.id) continue;
      const res = await fetch(`${apiUrl}/v1/instances/${created.id}/events`, { headers: { authorization: `Bearer ${catalog.customerTokens[0]}` } });
      count(res.status);
      const text = await res.text();
      if (text.includes('event: close')) normal.streamsFollowed++;
      const removed = await client.DELETE('/v1/instances/{id}', { params: { path: { id: created.id } } });
      count(removed.response.status);
    }
  };

  const consoles = async () => {
    while (performance.now() < endAt) {
      const session = await connectConsole(`ws://127.0.0.1:${port}${SOCKET_PATH}?ticket=${await ticket()}`);
      const deadline = Date.now() + 10_000;
      while (!session.text().includes('hostile-target login: ') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      if (session.text().includes('hostile-target login: ')) normal.consolesUsed++;
      session.ws.close();
      await session.closed;
    }
  };

  await Promise.all([...Array.from({ length: ATTACKERS }, (_, i) => attacker(20_261_203 + i)), requests(), streams(), consoles()]);
  const elapsed = (performance.now() - startedAt) / 1000;
  const cpuEnd = cpuSecondsOf(api.pid);
  const rssEnd = residentMemoryOf(api.pid)?.rss ?? null;
  const apiPidUnchanged = api.process.exitCode === null && api.process.signalCode === null;
  const readyAtEnd = (await fetch(`${apiUrl}/readyz`).catch(() => null))?.status === 200;
  // Sessions end as their sockets close; give the last ones a moment.
  let held = await consoleSlotsHeld(stack.db);
  for (let i = 0; held > 0 && i < 50; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    held = await consoleSlotsHeld(stack.db);
  }
  await api.stop();
  const result: HostileResult = {
    minutes: options.hostileMinutes,
    attackers: ATTACKERS,
    attacks,
    normal,
    apiPidUnchanged,
    readyAtEnd,
    consoleSlotsHeldAtEnd: held,
    apiRssMiB: { start: rssStart === null ? null : mib(rssStart), end: rssEnd === null ? null : mib(rssEnd) },
    apiCpuPercent: cpuStart !== null && cpuEnd !== null ? round(((cpuEnd - cpuStart) / elapsed) * 100) : null,
  };
  log(`hostile: ${attacks.upgrades} hostile upgrades, ${normal.requests} normal requests (${normal.serverErrors} 5xx), same process ${apiPidUnchanged}, slots held ${held}`);
  return result;
}
