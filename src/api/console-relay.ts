/**
 * Guest consoles, the relay side: the WebSocket at CONSOLE_SOCKET_PATH redeems a console ticket,
 * asks Proxmox VE (the server's current node, the connection's token) for a vncproxy or termproxy
 * listener, connects to vncwebsocket itself, authenticates there (VNC password or termproxy
 * ticket) and relays. The client sees plain RFB 3.8 with security type None, or the terminal's
 * bytes; never a Proxmox ticket, password, node, address or VMID. No database connection is held
 * while bytes flow: every CONSOLE_WATCH_SECONDS one statement reads, for all the consoles of this
 * process, their servers' rows and whether whoever opened each may still hold it.
 */
import { AsyncResource } from 'node:async_hooks';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import { WebSocketServer, type RawData, WebSocket } from 'ws';
import { CONSOLE_CLOSE_CODES, consoleEndReason, type ConsoleCloseReason } from '../domain/guest-console';
import { bareAnswer, parseRequestTarget } from '../net/request-target';
import { ByteReader, RFB_VERSION, SECURITY_NONE, SECURITY_VNC_AUTH, vncAuthResponse } from '../net/vnc';
import {
  CONSOLE_SOCKET_PATH,
  ConsoleUnavailable,
  consoleEndReasonNow,
  consoleInstance,
  consolesToEnd,
  openUpstream,
  recordConsoleEnded,
  recordConsoleOpened,
  redeemConsoleTicket,
  renewConsoleLeases,
  requestUpstreamTicket,
  type UpstreamTicket,
  type WatchedConsole,
} from '../services/consoles';
import { identifyRequestActor, withRequestActor } from '../services/audit-trail';
import { clientAddressOf } from './app';
import type { ApiDeps } from './deps';

/**
 * The largest console frame a client may send (a paste, a burst of keys), below the 128 KiB
 * Proxmox's vncwebsocket takes from us; larger ones close with 1009.
 */
const MAX_CONSOLE_FRAME_FROM_CLIENT = 64 * 1024;
/** Above this many bytes queued towards one side, the other side is not read until it drains. */
const HIGH_WATER = 1024 * 1024;
/** termproxy wants a ping now and then. */
const TERM_PING_MS = 30_000;
const UPSTREAM_AUTH_MS = 10_000;

class ConsoleEnd extends Error {
  constructor(readonly reason: ConsoleCloseReason) {
    super(reason);
  }
}

const toBuffer = (data: RawData): Buffer => (Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data));

/** Sends to `to`, pausing `from` while `to` has more than HIGH_WATER queued. */
function forward(to: WebSocket, from: WebSocket, data: Buffer | string, binary = true): void {
  if (to.readyState !== WebSocket.OPEN) return;
  to.send(data, { binary }, () => {
    if (to.bufferedAmount < HIGH_WATER / 2 && from.isPaused) from.resume();
  });
  if (to.bufferedAmount > HIGH_WATER) from.pause();
}

function opened(ws: WebSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', () => reject(new ConsoleEnd('console_unavailable')));
    ws.once('unexpected-response', () => reject(new ConsoleEnd('console_unavailable')));
  });
}

/** Reads of the upstream's first bytes until its authentication is done. */
function upstreamReader(upstream: WebSocket): ByteReader {
  const reader = new ByteReader();
  upstream.on('message', (data: RawData) => reader.push(toBuffer(data)));
  return reader;
}

function withDeadline<T>(p: Promise<T>, ms: number, closed: Promise<never>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ConsoleEnd('console_unavailable')), ms);
  });
  return Promise.race([p, late, closed]).finally(() => clearTimeout(timer));
}

/** VNC authentication towards Proxmox; answers the ServerInit (framebuffer size, pixel format, name). */
async function authenticateVnc(reader: ByteReader, upstream: WebSocket, password: string): Promise<Buffer> {
  const version = (await reader.read(12)).toString('latin1');
  if (!version.startsWith('RFB 003.')) throw new ConsoleEnd('protocol_error');
  upstream.send(Buffer.from(RFB_VERSION, 'latin1'));
  const [count] = await reader.read(1);
  const types = [...(await reader.read(count ?? 0))];
  if (!types.includes(SECURITY_VNC_AUTH)) throw new ConsoleEnd('protocol_error');
  upstream.send(Buffer.from([SECURITY_VNC_AUTH]));
  upstream.send(vncAuthResponse(password, await reader.read(16)));
  if ((await reader.read(4)).readUInt32BE(0) !== 0) throw new ConsoleEnd('console_unavailable');
  upstream.send(Buffer.from([1])); // ClientInit: shared
  const head = await reader.read(24);
  return Buffer.concat([head, await reader.read(head.readUInt32BE(20))]);
}

/** The client side of RFB: version, security None only, then the ServerInit (named after the server). */
async function greetVncClient(reader: ByteReader, client: WebSocket, serverInit: Buffer, name: string): Promise<void> {
  client.send(Buffer.from(RFB_VERSION, 'latin1'));
  const version = (await reader.read(12)).toString('latin1');
  if (version !== RFB_VERSION) throw new ConsoleEnd('protocol_error');
  client.send(Buffer.from([1, SECURITY_NONE]));
  const [chosen] = await reader.read(1);
  if (chosen !== SECURITY_NONE) throw new ConsoleEnd('protocol_error');
  client.send(Buffer.alloc(4));
  await reader.read(1); // ClientInit
  const title = Buffer.from(name);
  const init = Buffer.from(serverInit.subarray(0, 24));
  init.writeUInt32BE(title.length, 20);
  client.send(Buffer.concat([init, title]));
}

/** termproxy's login line, answered `OK`. */
async function authenticateTerm(reader: ByteReader, upstream: WebSocket, ticket: UpstreamTicket): Promise<void> {
  upstream.send(`${ticket.user}:${ticket.ticket}\n`);
  if ((await reader.read(2)).toString('latin1') !== 'OK') throw new ConsoleEnd('console_unavailable');
}

const resizeMessage = (text: string): { cols: number; rows: number } | undefined => {
  try {
    const m = JSON.parse(text) as { type?: unknown; cols?: unknown; rows?: unknown };
    const ok = (n: unknown) => Number.isInteger(n) && (n as number) > 0 && (n as number) <= 1000;
    return m.type === 'resize' && ok(m.cols) && ok(m.rows) ? { cols: m.cols as number, rows: m.rows as number } : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Whether an upgrade comes from the console's own pages. A browser names the page's origin in
 * `Origin` (`Sec-WebSocket-Origin` in the old version 8 handshake) and lets any page open a
 * WebSocket anywhere, so a page of another site holding a leaked ticket is refused here; a client
 * that names no origin is not a browser page, and is not asked.
 */
function fromConsoleOrigin(req: IncomingMessage, publicUrl: string): boolean {
  const consoleOrigin = new URL(publicUrl).origin;
  return [req.headers.origin, req.headers['sec-websocket-origin']].every((named) => named === undefined || named === consoleOrigin);
}

/** A console this process relays: its end, and where its guest was when it opened (once known). */
type RelayedConsole = Omit<WatchedConsole, 'sessionId'> & { end: (reason: ConsoleCloseReason) => Promise<void> };

export interface ConsoleSockets {
  /** Consoles open in this process. */
  readonly open: number;
  /** Ends every console (reason `shutting_down`). */
  close(): Promise<void>;
}

/** Serves the console WebSocket on the API's HTTP server (`app`: the API's, whose TRUST_PROXY reads the client's address). */
export function attachConsoleSockets(server: Server, deps: ApiDeps, app: Express): ConsoleSockets {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CONSOLE_FRAME_FROM_CLIENT, perMessageDeflate: false });
  /** The consoles this process relays, by session id. */
  const sessions = new Map<string, RelayedConsole>();
  const log = deps.logger.child({ component: 'console' });
  const renewal = setInterval(
    () => void renewConsoleLeases(deps, [...sessions.keys()]).catch((error: unknown) => log.warn({ err: error }, 'console leases not renewed')),
    (deps.config.CONSOLE_LEASE_SECONDS * 1000) / 3,
  );
  renewal.unref();
  // One statement per tick for every console of this process; a tick still waiting for its answer is not overtaken.
  let watching = false;
  const watch = setInterval(() => {
    if (watching || sessions.size === 0) return;
    watching = true;
    consolesToEnd(deps, [...sessions].map(([sessionId, { opened }]) => ({ sessionId, opened })))
      .then((ending) => Promise.all([...ending].map(([sessionId, reason]) => sessions.get(sessionId)?.end(reason))))
      .catch((error: unknown) => log.debug({ err: error }, 'consoles not watched this time'))
      .finally(() => (watching = false));
  }, deps.config.CONSOLE_WATCH_SECONDS * 1000);
  watch.unref();

  // Every byte of an upgrade is the client's to choose: nothing in here may throw past this guard,
  // and every socket gets an error listener before anything can fail on it.
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', (error: NodeJS.ErrnoException) => log.debug({ code: error.code }, 'console socket failed before its upgrade'));
    try {
      acceptUpgrade(req, socket, head);
    } catch (error) {
      log.warn({ err: error }, 'console upgrade failed');
      socket.destroy();
    }
  });

  function acceptUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const target = parseRequestTarget(req.url);
    if (!target) {
      socket.end(bareAnswer(400, 'Bad Request'));
      return;
    }
    if (target.path !== CONSOLE_SOCKET_PATH) {
      socket.end(bareAnswer(404, 'Not Found'));
      return;
    }
    // Before the ticket is looked at: a page of another site learns nothing, and spends no ticket.
    if (!fromConsoleOrigin(req, deps.config.PUBLIC_URL)) {
      log.info('console upgrade from a page of another origin refused');
      socket.end(bareAnswer(403, 'Forbidden'));
      return;
    }
    const ticket = target.query.get('ticket') ?? '';
    // The console's audit rows record the upgrade's client address, and (once the ticket names them) who asked for the ticket.
    const address = clientAddressOf(app, req);
    // The upgrade is always accepted: a browser sees only close codes, so a refused ticket is one (ticket_invalid).
    wss.handleUpgrade(req, socket, head, (client) => {
      // A malformed frame (unmasked, reserved bits, bad UTF-8, too large…) is an `error` here; ws
      // has already closed with the RFC 6455 code for it (1002, 1007, 1009). The session ends as a protocol error.
      let brokeProtocol = false;
      client.on('error', (error: Error & { code?: string }) => {
        if (!brokeProtocol) log.debug({ code: error.code }, 'console client broke the WebSocket protocol');
        brokeProtocol = true;
      });
      withRequestActor({ address }, () => runSession(client, ticket, () => brokeProtocol)).catch((error: unknown) => {
        // Only a ticket that could not be redeemed gets here (the database is away): no slot was taken.
        log.warn({ err: error }, 'console ticket not redeemed');
        client.terminate();
      });
    });
  }

  async function runSession(client: WebSocket, ticket: string, brokeProtocol: () => boolean): Promise<void> {
    let ended = false;
    const closedByClient = new Promise<never>((_, reject) => {
      client.once('close', () => reject(new ConsoleEnd(brokeProtocol() ? 'protocol_error' : 'client_closed')));
    });
    closedByClient.catch(() => undefined);
    const clientReader = new ByteReader();
    let clientMessages: ((data: Buffer, binary: boolean) => void) | undefined;
    const early: { data: Buffer; binary: boolean }[] = [];
    client.on('message', (data: RawData, binary: boolean) => {
      const buf = toBuffer(data);
      if (clientMessages) clientMessages(buf, binary);
      else early.push({ data: buf, binary });
    });

    const session = await redeemConsoleTicket(deps, ticket);
    if (!session) {
      client.close(CONSOLE_CLOSE_CODES.ticket_invalid, 'ticket_invalid');
      return;
    }
    identifyRequestActor({ userId: session.userId, tokenId: session.openedByTokenId, sessionId: session.openedBySessionId });
    const startedAt = Date.now();
    let upstream: WebSocket | undefined;
    const timers: NodeJS.Timeout[] = [];
    let idle: NodeJS.Timeout | undefined;
    const finish = async (reason: ConsoleCloseReason) => {
      if (ended) return;
      ended = true;
      sessions.delete(session.id);
      timers.forEach((t) => clearTimeout(t));
      clearTimeout(idle);
      if (client.readyState === WebSocket.OPEN) client.close(CONSOLE_CLOSE_CODES[reason], reason);
      else if (client.readyState !== WebSocket.CLOSED) client.terminate();
      upstream?.terminate();
      await recordConsoleEnded(deps, session, reason, Math.round((Date.now() - startedAt) / 1000));
    };
    const endSession = (reason: ConsoleCloseReason) => finish(reason).catch((error: unknown) => log.warn({ err: error }, 'console end not recorded'));
    // Bound to this console's audit actor: the watch that ends it runs outside the upgrade.
    const relayed: RelayedConsole = { end: AsyncResource.bind(endSession) };
    sessions.set(session.id, relayed);

    try {
      // A ticket asked for by a session signed out (or a token revoked) since opens nothing.
      const refused = await consoleEndReasonNow(deps, { sessionId: session.id });
      if (refused) return endSession(refused);
      const instance = await consoleInstance(deps, session.instanceId);
      const node = instance?.node;
      const vmid = instance?.vmid;
      const notYet = instance ? consoleEndReason(instance, { node: node ?? '', vmid: vmid ?? -1 }) : 'instance_deleted';
      if (!instance || !node || !vmid || notYet) return endSession(notYet ?? 'instance_stopped');
      relayed.opened = { node, vmid };
      await recordConsoleOpened(deps, session, instance);

      // Why the upstream ended: the server's own state (or its opener's) says it, else Proxmox dropped the console.
      const reasonNow = (): Promise<ConsoleCloseReason | undefined> => consoleEndReasonNow(deps, { sessionId: session.id, opened: { node, vmid } });

      try {
        const guest = { ...instance, node, vmid };
        const upstreamTicket = await requestUpstreamTicket(deps, guest, session.type).catch((error: unknown) => {
          throw error instanceof ConsoleUnavailable ? new ConsoleEnd('console_unavailable') : error;
        });
        if (ended) return;
        upstream = openUpstream(deps, guest, upstreamTicket);
        const up = upstream;
        up.on('error', (error: Error & { code?: string }) => log.debug({ code: error.code }, 'console upstream failed'));
        // Everything Proxmox sends (the RFB greeting comes with the upgrade) is read here until both sides are authenticated, then relayed.
        const reader = upstreamReader(up);
        const upstreamClosed = new Promise<never>((_, reject) => up.once('close', () => reject(new ConsoleEnd('console_unavailable'))));
        upstreamClosed.catch(() => undefined);
        await Promise.race([opened(up), closedByClient]);

        const upstreamGone = Promise.race([upstreamClosed, closedByClient]);
        if (session.type === 'vnc') {
          const serverInit = await withDeadline(authenticateVnc(reader, up, upstreamTicket.password), UPSTREAM_AUTH_MS, upstreamGone);
          clientMessages = (data) => clientReader.push(data);
          for (const m of early.splice(0)) clientReader.push(m.data);
          await withDeadline(greetVncClient(clientReader, client, serverInit, instance.hostname), UPSTREAM_AUTH_MS, closedByClient);
          const rest = clientReader.rest();
          if (rest.length > 0) forward(up, client, rest);
          clientMessages = (data) => forward(up, client, data);
        } else {
          await withDeadline(authenticateTerm(reader, up, upstreamTicket), UPSTREAM_AUTH_MS, upstreamGone);
          clientMessages = (data, binary) => {
            if (!binary) {
              const size = resizeMessage(data.toString('utf8'));
              if (size) forward(up, client, `1:${size.cols}:${size.rows}:`);
              return;
            }
            forward(up, client, Buffer.concat([Buffer.from(`0:${data.length}:`), data]));
          };
          for (const m of early.splice(0)) clientMessages(m.data, m.binary);
          timers.push(setInterval(() => up.readyState === WebSocket.OPEN && up.send('2'), TERM_PING_MS));
        }
        up.removeAllListeners('message');
        const pending = reader.rest();
        if (pending.length > 0) forward(client, up, pending);
        up.on('message', (data: RawData) => forward(client, up, toBuffer(data)));

        const idleMs = deps.config.CONSOLE_IDLE_SECONDS * 1000;
        const restartIdle = () => {
          clearTimeout(idle);
          idle = setTimeout(() => void endSession('idle_timeout'), idleMs);
        };
        restartIdle();
        client.on('message', restartIdle);
        timers.push(setTimeout(() => void endSession('max_duration'), deps.config.CONSOLE_MAX_SECONDS * 1000));
        await Promise.race([upstreamClosed, closedByClient]);
      } catch (error) {
        if (!(error instanceof ConsoleEnd)) throw error;
        if (error.reason === 'client_closed' || error.reason === 'protocol_error') return endSession(error.reason);
        if (ended) return;
        return endSession((await reasonNow().catch(() => undefined)) ?? error.reason);
      }
    } catch (error) {
      // Whatever failed (the database, a bug), the console ends now and its slot is released.
      log.warn({ err: error }, 'console session failed');
      return endSession('console_unavailable');
    }
  }

  return {
    get open() {
      return sessions.size;
    },
    async close() {
      clearInterval(renewal);
      clearInterval(watch);
      await Promise.all([...sessions.values()].map(({ end }) => end('shutting_down')));
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
