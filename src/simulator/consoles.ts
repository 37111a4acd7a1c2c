/**
 * Guest consoles as Proxmox VE serves them: `vncproxy` / `termproxy` start a task whose listener
 * accepts one connection within 10 s, and answer a ticket bound to the caller, the VM path and
 * the port (accepted about -20..+40 s around its issue); `vncwebsocket` (token-authenticated,
 * upgraded to a WebSocket) relays to that listener: a small RFB 3.8 server with VNC
 * authentication whose screen shows the guest's name and a login prompt (or, when it booted from a
 * CD-ROM, the ISO image it booted from), or a serial line with
 * termproxy's framing that answers like a login prompt and echoes.
 */
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { parseRequestTarget } from '../net/request-target';
import { ByteReader, RFB_VERSION, SECURITY_VNC_AUTH, vncAuthResponse } from '../net/vnc';
import { fail, type CallContext } from './call';
import type { SimCluster, SimGuest } from './cluster';
import { drawScreen, SCREEN_HEIGHT, SCREEN_WIDTH } from './console-screen';
import type { FaultMode } from './faults';

const LISTENER_MS = 10_000;
const TICKET_BEFORE_MS = 20_000;
const TICKET_AFTER_MS = 40_000;
const FIRST_PORT = 5900;
const LAST_PORT = 5999;
/** How often an open console looks whether its guest still runs where it ran. */
const GUEST_WATCH_MS = 200;
/** Proxmox's vncwebsocket refuses larger console frames from its client. */
const MAX_CONSOLE_FRAME_TO_PROXMOX = 128 * 1024;

export type ConsoleKind = 'vnc' | 'term';

interface ConsoleListener {
  kind: ConsoleKind;
  ticket: string;
  user: string;
  node: string;
  vmid: number;
  port: number;
  password: string;
  upid: string;
  issuedAtMs: number;
  connected: boolean;
  /** The task ended: nothing listens at the port any more (the ticket itself may still be in its window). */
  ended: boolean;
  fault?: FaultMode;
  timer: NodeJS.Timeout;
}

/** What a console saw from its client (tests read it from the state). */
export interface ConsoleActivity {
  keys: number[];
  typed: string;
  resizes: { cols: number; rows: number }[];
}

export class ConsoleListeners {
  private readonly byTicket = new Map<string, ConsoleListener>();
  private readonly sockets = new Set<WebSocket>();
  /** Per VMID, what its consoles received. */
  readonly activity = new Map<number, ConsoleActivity>();

  constructor(private readonly cluster: SimCluster) {}

  open(ctx: CallContext, kind: ConsoleKind, node: string, guest: SimGuest, withPassword: boolean): ConsoleListener {
    for (const [ticket, l] of this.byTicket) if (l.ended && Date.now() - l.issuedAtMs > TICKET_AFTER_MS) this.byTicket.delete(ticket);
    const used = new Set([...this.byTicket.values()].filter((l) => l.node === node && !l.ended).map((l) => l.port));
    let port = FIRST_PORT;
    while (used.has(port)) port++;
    if (port > LAST_PORT) throw fail('unable to find free port (5900-5999)');
    const fault = ctx.fault?.mode;
    ctx.faultHandled = true;
    const ticket = `PVEVNC:${Math.floor(Date.now() / 1000).toString(16).toUpperCase()}::${crypto.randomBytes(48).toString('base64')}`;
    // qemu-server 9.1.7 and later always generate a VNC password; before, the ticket's first 8 characters are it.
    const password = withPassword || this.cluster.majorRelease >= 9 ? randomPrintable(8) : ticket.slice(0, 8);
    // qemu-server forks both listeners as a `vncproxy` worker (PVE/API2/Qemu.pm `vncproxy`, `termproxy`).
    const task = this.cluster.tasks.create({ node, type: 'vncproxy', id: String(guest.vmid), user: ctx.user, hang: true, run: () => undefined });
    const listener: ConsoleListener = {
      kind, ticket, user: ctx.user, node, vmid: guest.vmid, port, password, upid: task.upid, issuedAtMs: Date.now(), connected: false, ended: false,
      ...(fault ? { fault } : {}),
      timer: setTimeout(() => this.end(listener, 'connection timed out'), fault === 'connection_timeout' ? 0 : LISTENER_MS),
    };
    this.byTicket.set(ticket, listener);
    return listener;
  }

  private end(listener: ConsoleListener, error?: string): void {
    clearTimeout(listener.timer);
    if (listener.ended) return;
    listener.ended = true;
    this.cluster.tasks.finish(listener.upid, error);
  }

  /**
   * The listener a vncwebsocket call may reach: a ticket issued to this user for this VM and
   * port, within its window; `undefined` for a refused ticket. A listener that already ended
   * answers `'closed'` (the proxy then finds nothing at the port).
   */
  find(user: string, vmid: number, port: number, ticket: string): ConsoleListener | 'closed' | undefined {
    const listener = this.byTicket.get(ticket);
    if (!listener) return undefined;
    const age = Date.now() - listener.issuedAtMs;
    if (listener.user !== user || listener.vmid !== vmid || listener.port !== port) return undefined;
    if (age < -TICKET_BEFORE_MS || age > TICKET_AFTER_MS || listener.fault === 'ticket_expired') return undefined;
    if (listener.connected || listener.ended) return 'closed';
    return listener;
  }

  /** Serves the one connection of a listener. */
  serve(listener: ConsoleListener, ws: WebSocket): void {
    listener.connected = true;
    clearTimeout(listener.timer);
    this.sockets.add(ws);
    const activity = this.activity.get(listener.vmid) ?? { keys: [], typed: '', resizes: [] };
    this.activity.set(listener.vmid, activity);
    const running = () => {
      const g = this.cluster.guests.get(listener.vmid);
      return g !== undefined && g.node === listener.node && g.status === 'running';
    };
    const watch = setInterval(() => {
      if (!running()) ws.terminate();
    }, GUEST_WATCH_MS);
    ws.on('close', () => {
      clearInterval(watch);
      this.sockets.delete(ws);
      this.end(listener);
    });
    ws.on('error', () => ws.terminate());
    const guest = this.cluster.guests.get(listener.vmid) as SimGuest;
    const name = String(guest.config.name ?? `vm${listener.vmid}`);
    const dropAfterAuth = () => {
      if (listener.fault === 'drop_socket') setTimeout(() => ws.terminate(), 20);
    };
    if (listener.kind === 'vnc') serveRfb(ws, listener, name, screenOf(guest, name), running, activity, dropAfterAuth);
    else serveTerminal(ws, listener, guest, this.cluster.majorRelease >= 9, running, activity, dropAfterAuth);
  }

  /** Ends every listener and connection (simulator reset or close). */
  clear(): void {
    for (const listener of this.byTicket.values()) this.end(listener);
    this.byTicket.clear();
    for (const ws of this.sockets) ws.terminate();
    this.sockets.clear();
    this.activity.clear();
  }
}

function randomPrintable(n: number): string {
  // '!' .. '~', as the schema describes the password
  return [...crypto.randomBytes(n)].map((b) => String.fromCharCode(0x21 + (b % 94))).join('');
}

const send = (ws: WebSocket, data: Buffer | string) => {
  if (ws.readyState === ws.OPEN) ws.send(typeof data === 'string' ? Buffer.from(data, 'latin1') : data);
};

/** What the guest's screen shows: the system on its disk at its login prompt, or the ISO image it booted from. */
function screenOf(guest: SimGuest, name: string): string[] {
  if (guest.bootedFrom) return [name, '', `booted from ${guest.bootedFrom}`, '', 'boot: _'];
  return [name, '', 'Debian GNU/Linux 12 ttyS0', '', `${name} login: _`];
}

/** RFB 3.8 with VNC authentication, raw encoding only, a still screen. */
function serveRfb(ws: WebSocket, listener: ConsoleListener, name: string, lines: string[], running: () => boolean, activity: ConsoleActivity, afterAuth: () => void): void {
  const reader = new ByteReader();
  ws.on('message', (data: RawData) => reader.push(toBuffer(data)));
  const screen = drawScreen(lines);
  void (async () => {
    if (!running()) return ws.close();
    send(ws, RFB_VERSION);
    await reader.read(12);
    send(ws, Buffer.from([1, SECURITY_VNC_AUTH]));
    const [chosen] = await reader.read(1);
    if (chosen !== SECURITY_VNC_AUTH) return ws.close();
    const challenge = crypto.randomBytes(16);
    send(ws, challenge);
    const answer = await reader.read(16);
    if (!answer.equals(vncAuthResponse(listener.password, challenge))) {
      const reason = Buffer.from('Authentication failed');
      const head = Buffer.alloc(8);
      head.writeUInt32BE(1, 0);
      head.writeUInt32BE(reason.length, 4);
      send(ws, Buffer.concat([head, reason]));
      return ws.close();
    }
    send(ws, Buffer.alloc(4));
    await reader.read(1); // ClientInit: shared flag
    const title = Buffer.from(name);
    const init = Buffer.alloc(24);
    init.writeUInt16BE(SCREEN_WIDTH, 0);
    init.writeUInt16BE(SCREEN_HEIGHT, 2);
    init.set([32, 24, 0, 1], 4);
    init.writeUInt16BE(255, 8);
    init.writeUInt16BE(255, 10);
    init.writeUInt16BE(255, 12);
    init.set([16, 8, 0], 14);
    init.writeUInt32BE(title.length, 20);
    send(ws, Buffer.concat([init, title]));
    afterAuth();
    let shifts = { r: 16, g: 8, b: 0, bigEndian: false };
    let sentOnce = false;
    for (;;) {
      const [type] = await reader.read(1);
      if (type === 0) {
        const pf = await reader.read(19);
        shifts = { r: pf[13] as number, g: pf[14] as number, b: pf[15] as number, bigEndian: pf[5] === 1 };
      } else if (type === 2) {
        const head = await reader.read(3);
        await reader.read(4 * head.readUInt16BE(1));
      } else if (type === 3) {
        const req = await reader.read(9);
        // a still screen: an incremental request after the first full frame has nothing to send
        if (req[0] === 1 && sentOnce) continue;
        sentOnce = true;
        send(ws, framebufferUpdate(screen, shifts));
      } else if (type === 4) {
        const key = await reader.read(7);
        if (key[0] === 1) activity.keys.push(key.readUInt32BE(3));
      } else if (type === 5) {
        await reader.read(5);
      } else if (type === 6) {
        const head = await reader.read(7);
        await reader.read(head.readUInt32BE(3));
      } else {
        return ws.close();
      }
    }
  })();
}

function framebufferUpdate(rgb: Uint8Array, f: { r: number; g: number; b: number; bigEndian: boolean }): Buffer {
  const head = Buffer.alloc(16);
  head.writeUInt16BE(1, 2);
  head.writeUInt16BE(SCREEN_WIDTH, 8);
  head.writeUInt16BE(SCREEN_HEIGHT, 10);
  const pixels = Buffer.alloc(SCREEN_WIDTH * SCREEN_HEIGHT * 4);
  for (let i = 0; i < SCREEN_WIDTH * SCREEN_HEIGHT; i++) {
    const value = (((rgb[i * 3] as number) << f.r) | ((rgb[i * 3 + 1] as number) << f.g) | ((rgb[i * 3 + 2] as number) << f.b)) >>> 0;
    if (f.bigEndian) pixels.writeUInt32BE(value, i * 4);
    else pixels.writeUInt32LE(value, i * 4);
  }
  return Buffer.concat([head, pixels]);
}

/** termproxy: `user:ticket\n` then `OK`, input `0:<len>:<data>`, resize `1:<cols>:<rows>:`, ping `2`. */
function serveTerminal(ws: WebSocket, listener: ConsoleListener, guest: SimGuest, tokenTickets: boolean, running: () => boolean, activity: ConsoleActivity, afterAuth: () => void): void {
  const name = String(guest.config.name ?? `vm${listener.vmid}`);
  let authenticated = false;
  let pending = Buffer.alloc(0);
  ws.on('message', (data: RawData) => {
    pending = Buffer.concat([pending, toBuffer(data)]);
    if (!authenticated) {
      const nl = pending.indexOf(0x0a);
      if (nl < 0) return;
      const line = pending.subarray(0, nl).toString('utf8');
      pending = pending.subarray(nl + 1);
      // Token-owned console tickets are accepted from pve-access-control 9.0.4 on only.
      const tokenRefused = listener.user.includes('!') && !tokenTickets;
      if (line !== `${listener.user}:${listener.ticket}` || tokenRefused) return ws.close();
      authenticated = true;
      send(ws, 'OK');
      if (!running()) {
        send(ws, `VM ${listener.vmid} not running\r\n`);
        return ws.close();
      }
      if (String(guest.config.serial0 ?? '') !== 'socket') {
        send(ws, 'unable to find a serial interface\r\n');
        return ws.close();
      }
      send(ws, `\r\nDebian GNU/Linux 12 ${name} ttyS0\r\n\r\n${name} login: `);
      afterAuth();
    }
    for (;;) {
      const frame = nextTermFrame(pending);
      if (!frame) return;
      pending = pending.subarray(frame.length);
      if (frame.kind === 'input') {
        const text = frame.data.toString('utf8');
        activity.typed += text;
        send(ws, text.replace(/\r/g, `\r\n${name} login: `));
      } else if (frame.kind === 'resize') {
        activity.resizes.push({ cols: frame.cols, rows: frame.rows });
      }
    }
  });
}

type TermFrame = { kind: 'input'; data: Buffer; length: number } | { kind: 'resize'; cols: number; rows: number; length: number } | { kind: 'ping'; length: number };

/** The first complete termproxy frame in `buf`, if any. */
function nextTermFrame(buf: Buffer): TermFrame | undefined {
  if (buf.length === 0) return undefined;
  if (buf[0] === 0x32) return { kind: 'ping', length: 1 };
  const text = buf.toString('latin1');
  const input = /^0:(\d+):/.exec(text);
  if (input) {
    const len = Number(input[1]);
    const start = input[0].length;
    if (buf.length < start + len) return undefined;
    return { kind: 'input', data: buf.subarray(start, start + len), length: start + len };
  }
  const resize = /^1:(\d+):(\d+):/.exec(text);
  if (resize) return { kind: 'resize', cols: Number(resize[1]), rows: Number(resize[2]), length: resize[0].length };
  return /^[01]/.test(text) && buf.length < 32 ? undefined : { kind: 'ping', length: buf.length };
}

const toBuffer = (data: RawData): Buffer => (Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data));

/** POST vncproxy / termproxy: the guest's config must exist; whether it runs shows only once connected. */
export function openConsole(cluster: SimCluster, ctx: CallContext, kind: ConsoleKind, node: string, vmid: number, params: Record<string, string>) {
  const guest = cluster.guestOn(node, vmid);
  const listener = cluster.consoles.open(ctx, kind, node, guest, params['generate-password'] === '1');
  const base = { user: listener.user, ticket: listener.ticket, port: listener.port, upid: listener.upid };
  if (kind === 'term') return base;
  return { ...base, cert: SIMULATED_CERT, ...(params['generate-password'] === '1' || cluster.majorRelease >= 9 ? { password: listener.password } : {}) };
}

const SIMULATED_CERT = '-----BEGIN CERTIFICATE-----\nMIIBsimulatedproxmoxnodecertificate\n-----END CERTIFICATE-----\n';

const VNCWEBSOCKET = /^\/api2\/json\/nodes\/([^/]+)\/qemu\/(\d+)\/vncwebsocket$/;

function refuse(socket: Duplex, status: number, message: string): void {
  socket.end(`HTTP/1.1 ${status} ${message}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/**
 * An `Upgrade: websocket` request: only vncwebsocket upgrades, authenticated like any call and
 * holding VM.Console on the VM, with a ticket the listener at `port` was opened with.
 */
export function handleConsoleUpgrade(
  cluster: SimCluster,
  wss: WebSocketServer,
  o: { user: string | undefined; can: (user: string, path: string, privs: string[]) => boolean },
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
): void {
  const target = parseRequestTarget(req.url);
  if (!target) return refuse(socket, 400, 'Bad Request');
  const m = VNCWEBSOCKET.exec(target.path);
  if (!m) return refuse(socket, 501, 'Method not implemented');
  if (!o.user) return refuse(socket, 401, 'No ticket');
  const node = m[1] as string;
  const vmid = Number(m[2]);
  const port = Number(target.query.get('port'));
  const ticket = target.query.get('vncticket') ?? '';
  if (!Number.isInteger(port) || port < FIRST_PORT || port > LAST_PORT || !ticket) return refuse(socket, 400, 'Parameter verification failed.');
  if (!o.can(o.user, `/vms/${vmid}`, ['VM.Console'])) return refuse(socket, 403, `Permission check failed (/vms/${vmid}, VM.Console)`);
  const listener = cluster.consoles.find(o.user, vmid, port, ticket);
  if (listener === undefined || (listener !== 'closed' && listener.node !== node)) return refuse(socket, 401, 'permission denied - invalid vnc ticket');
  wss.handleUpgrade(req, socket, head, (ws) => {
    ws.on('error', () => ws.terminate());
    // Nothing listens at the port any more: the relay ends at once.
    if (listener === 'closed') return ws.terminate();
    cluster.consoles.serve(listener, ws);
  });
}

/** The WebSocket server vncwebsocket upgrades to (frames bounded as Proxmox bounds them). */
export const consoleWebSocketServer = (): WebSocketServer => new WebSocketServer({ noServer: true, maxPayload: MAX_CONSOLE_FRAME_TO_PROXMOX });
