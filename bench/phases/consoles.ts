/**
 * Phase consoles: 50 console sessions (half VNC, half serial) held open through one API process
 * of their own while another client measures plain GET latency, once with no console open and
 * once with all of them open and busy (serial: a line typed and its echo read every 200 ms; VNC: a
 * full framebuffer requested and read every second). Reported: GET p50/p99 both ways, the API
 * process's RSS and CPU (from /proc) over each window. The servers' consoles are spread over the
 * bench's customers, CONSOLE_SESSIONS_PER_USER raised to hold them (shown next to the figures).
 */
import { performance } from 'node:perf_hooks';
import type { Client as TemporalClient } from '@temporalio/client';
import WebSocket from 'ws';
import { startChild } from '../children';
import type { Cleanups } from '../cleanups';
import { customerClients } from '../instances';
import type { Options } from '../options';
import type { Catalog, Stack } from '../stack';
import { cpuSecondsOf, mib, percentile, residentMemoryOf, round } from '../stats';
import { RFB_VERSION, SECURITY_NONE } from '../../src/net/vnc';
import { connectConsole, type ConsoleConnection } from '../../test/support/console-socket';
import { provisionOnce } from './alone';

const SESSIONS = 50;
const SERVERS = 5;
const SESSIONS_PER_USER = 20;
const WINDOW_MS = 10_000;
/** No step of a session may take longer: the phase fails instead of stalling. */
const STEP_TIMEOUT_MS = 15_000;

export interface LatencyWindow {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  apiRssMiB: number | null;
  /** CPU time of the API process over the window, as a share of one core. */
  apiCpuPercent: number | null;
}

export interface ConsolesResult {
  sessions: { vnc: number; serial: number };
  consoleSessionsPerUser: number;
  withoutConsoles: LatencyWindow;
  withConsoles: LatencyWindow;
  /** Serial lines echoed and VNC frames read during the loaded window. */
  echoes: number;
  frames: number;
}

function withTimeout<T>(what: string, p: Promise<T>, ms = STEP_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no progress within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

async function vncHandshake(s: ConsoleConnection): Promise<{ width: number; height: number }> {
  if ((await s.reader.read(12)).toString('latin1') !== RFB_VERSION) throw new Error('not RFB 3.8');
  s.ws.send(Buffer.from(RFB_VERSION, 'latin1'));
  await s.reader.read(2);
  s.ws.send(Buffer.from([SECURITY_NONE]));
  await s.reader.read(4);
  s.ws.send(Buffer.from([1]));
  const init = await s.reader.read(24);
  await s.reader.read(init.readUInt32BE(20));
  return { width: init.readUInt16BE(0), height: init.readUInt16BE(2) };
}

async function readFrame(s: ConsoleConnection, size: { width: number; height: number }): Promise<void> {
  const req = Buffer.alloc(10);
  req[0] = 3;
  req.writeUInt16BE(size.width, 6);
  req.writeUInt16BE(size.height, 8);
  s.ws.send(req);
  const head = await s.reader.read(16);
  await s.reader.read(head.readUInt16BE(8) * head.readUInt16BE(10) * 4);
}

async function untilText(s: ConsoleConnection, needle: string, from: number): Promise<void> {
  await withTimeout(
    `serial output "${needle}"`,
    (async () => {
      while (!s.text().includes(needle, from)) {
        if (s.ws.readyState !== WebSocket.OPEN) throw new Error('serial console closed');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })(),
  );
}

/** Plain GETs one after another for `ms`; the latency spread and the API process's RSS and CPU over it. */
async function measureGets(url: string, token: string, pid: number, ms: number): Promise<LatencyWindow> {
  const durations: number[] = [];
  const cpuBefore = cpuSecondsOf(pid);
  const startedAt = performance.now();
  while (performance.now() - startedAt < ms) {
    const sent = performance.now();
    const res = await fetch(`${url}/v1/instances?limit=20`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(STEP_TIMEOUT_MS) });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`GET /v1/instances answered ${res.status}`);
    durations.push(performance.now() - sent);
  }
  const elapsed = (performance.now() - startedAt) / 1000;
  const cpuAfter = cpuSecondsOf(pid);
  durations.sort((a, b) => a - b);
  const memory = residentMemoryOf(pid);
  return {
    requests: durations.length,
    p50Ms: round(percentile(durations, 50)),
    p99Ms: round(percentile(durations, 99)),
    apiRssMiB: memory ? mib(memory.rss) : null,
    apiCpuPercent: cpuBefore !== null && cpuAfter !== null ? round(((cpuAfter - cpuBefore) / elapsed) * 100) : null,
  };
}

export async function measureConsoles(stack: Stack, temporal: TemporalClient, catalog: Catalog, options: Options, cleanups: Cleanups, log: (line: string) => void): Promise<ConsolesResult> {
  const api = await startChild({ name: 'console api', entry: 'src/server.ts', env: { ...stack.env(options.pollMs), CONSOLE_SESSIONS_PER_USER: String(SESSIONS_PER_USER) } }, cleanups);
  const apiUrl = api.baseUrl as string;
  const clients = customerClients(catalog, [apiUrl]);
  const owners = Math.ceil(SESSIONS / SESSIONS_PER_USER);
  if (clients.length < owners) throw new Error(`phase consoles needs ${owners} customers (--concurrency)`);
  log(`consoles: ${SERVERS} servers (debian-12, with a screen), one API process (pid ${api.pid}), CONSOLE_SESSIONS_PER_USER=${SESSIONS_PER_USER}`);
  // Each server belongs to one customer; a customer's servers carry at most SESSIONS_PER_USER consoles.
  const servers = await Promise.all(
    Array.from({ length: SERVERS }, async (_, i) => {
      const owner = i % owners;
      const { id } = await provisionOnce(clients[owner]!, temporal, catalog, `console-bench-${i + 1}`, options.timeoutS);
      return { id, owner };
    }),
  );
  const quiet = await measureGets(apiUrl, catalog.customerTokens[0]!, api.pid, WINDOW_MS);
  log(`consoles: without sessions GET p50 ${quiet.p50Ms} ms, p99 ${quiet.p99Ms} ms`);

  const sessions: { type: 'vnc' | 'serial'; session: ConsoleConnection; size?: { width: number; height: number }; hostname: string }[] = [];
  for (let i = 0; i < SESSIONS; i++) {
    const type = i % 2 === 0 ? 'vnc' : 'serial';
    const server = servers[i % SERVERS]!;
    const offer = await clients[server.owner]!.POST('/v1/instances/{id}/console', { params: { path: { id: server.id } }, body: { type } });
    if (!offer.data) throw new Error(`console ${i + 1} refused: ${offer.response.status} ${JSON.stringify(offer.error)}`);
    const url = new URL(offer.data.data.websocketUrl);
    url.host = new URL(apiUrl).host;
    const session = await withTimeout('console connect', connectConsole(url.toString(), { handshakeTimeout: STEP_TIMEOUT_MS }));
    const hostname = `console-bench-${(i % SERVERS) + 1}`;
    if (type === 'vnc') sessions.push({ type, session, size: await withTimeout('RFB handshake', vncHandshake(session)), hostname });
    else {
      await untilText(session, `${hostname} login: `, 0);
      sessions.push({ type, session, hostname });
    }
  }
  log(`consoles: ${sessions.length} sessions open`);

  let echoes = 0;
  let frames = 0;
  let busy = true;
  const traffic = sessions.map(async ({ type, session, size, hostname }, index) => {
    while (busy) {
      if (type === 'vnc') {
        await withTimeout('framebuffer', readFrame(session, size!));
        frames++;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      } else {
        const from = session.text().length;
        const word = `u${index}x${echoes}`;
        session.ws.send(Buffer.from(`${word}\r`));
        await untilText(session, `${word}\r\n${hostname} login: `, from);
        echoes++;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  });
  const loaded = await measureGets(apiUrl, catalog.customerTokens[0]!, api.pid, WINDOW_MS);
  busy = false;
  await withTimeout('console traffic to settle', Promise.all(traffic));
  log(`consoles: with ${sessions.length} sessions GET p50 ${loaded.p50Ms} ms, p99 ${loaded.p99Ms} ms; ${echoes} echoes, ${frames} frames`);
  for (const { session } of sessions) session.ws.close();
  await api.stop();
  return {
    sessions: { vnc: sessions.filter((s) => s.type === 'vnc').length, serial: sessions.filter((s) => s.type === 'serial').length },
    consoleSessionsPerUser: SESSIONS_PER_USER,
    withoutConsoles: quiet,
    withConsoles: loaded,
    echoes,
    frames,
  };
}
