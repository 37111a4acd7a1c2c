/**
 * Guest consoles. The ticket side: a customer asks for the screen or the serial line of a running
 * server of theirs and gets a one-time ticket (random, stored hashed, single use, bound to the
 * server, the user and the type) inside a page URL and a WebSocket URL of this API. The relay
 * side (src/api/console-relay.ts) redeems the ticket here, and opens the Proxmox VE console
 * through this file.
 */
import crypto from 'node:crypto';
import type WebSocket from 'ws';
import { recordAudit } from '../db/audit';
import { consoleSessionsNow, consoleSlotsHeld, type ConsoleSessionNow, endConsoleSession, redeemConsoleTicket as redeemTicket, renewConsoleLeases as renewLeases } from '../db/console-sessions';
import { lockKey } from '../db/locks';
import { AppError } from '../domain/errors';
import { CONSOLE_BUSY_STATES, CONSOLE_STATES, consoleEndReason, consoleOpenerEndReason, type ConsoleCloseReason, type ConsoleType } from '../domain/guest-console';
import type { ConsoleSession, Instance, ProxmoxConnection } from '../generated/prisma/client';
import { ProxmoxError, type CallIdentity, type ConsoleTicket, type ProxmoxClient } from '../proxmox';
import { hashToken } from '../security/secrets';
import { newId } from '../security/ids';
import { can } from './authorization';
import type { ServiceDeps } from './deps';
import { findInstance } from './instances';
import type { Principal } from './principal';

/** The path the console WebSocket is served at (same origin as the console pages). */
export const CONSOLE_SOCKET_PATH = '/v1/console/socket';

export interface ConsoleOffer {
  url: string;
  websocketUrl: string;
  expiresAt: Date;
}

const providerUnavailable = () => new AppError('PROVIDER_UNAVAILABLE', 'The server\'s console cannot be reached right now. Please retry.');

async function askProxmox<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ProxmoxError) throw providerUnavailable();
    throw error;
  }
}

/**
 * Who opens a serial console: the token where the cluster accepts token-owned termproxy tickets
 * (pve-access-control 9.0.4, Proxmox VE 9, on), else the connection's console user, if it has one.
 */
async function serialConsoleCaller(client: ProxmoxClient, connection: Pick<ProxmoxConnection, 'consoleUsername'>): Promise<'token' | 'console-user' | 'unsupported'> {
  const { version } = await client.cluster.version();
  if (Number(String(version ?? '0').split('.')[0]) >= 9) return 'token';
  return connection.consoleUsername ? 'console-user' : 'unsupported';
}

const hashConsoleTicket = (ticket: string): string => hashToken(`console:${ticket}`);

export async function requestConsole(deps: Pick<ServiceDeps, 'db' | 'config' | 'proxmox'>, who: Principal, instanceId: string, type: ConsoleType): Promise<ConsoleOffer> {
  const instance = await findInstance(deps, who, instanceId);
  if (CONSOLE_BUSY_STATES.has(instance.status)) throw new AppError('INSTANCE_BUSY', `The server is ${instance.status}; its console opens once that is done.`, { status: instance.status });
  if (!CONSOLE_STATES.has(instance.status) || instance.node === null || instance.vmid === null) {
    throw new AppError('INSTANCE_NOT_RUNNING', 'The server is not running: start it to open its console.', { status: instance.status });
  }
  const client = deps.proxmox(instance.connection);
  const { node, vmid } = instance;
  if (type === 'vnc') {
    const config = await askProxmox(() => client.guestConfig.get(node, vmid));
    if (/^serial\d/.test(String(config?.vga ?? ''))) {
      throw new AppError('CONSOLE_TYPE_UNAVAILABLE', 'This server has no screen (its image shows its console on the serial port): open the serial console instead.', { available: 'serial' });
    }
  } else if ((await askProxmox(() => serialConsoleCaller(client, instance.connection))) === 'unsupported') {
    throw new AppError('CONSOLE_UNSUPPORTED', "This server's cluster runs a Proxmox VE release that gives serial consoles only to users, not to API tokens, and no console user is set up for it; the screen console works.", { available: 'vnc' });
  }

  const ticket = crypto.randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + deps.config.CONSOLE_TICKET_SECONDS * 1000);
  await deps.db.$transaction(async (tx) => {
    // One user's requests count their open consoles one at a time.
    await lockKey(tx, `console:${who.userId}`);
    const open = await consoleSlotsHeld(tx, { userId: who.userId });
    if (open >= deps.config.CONSOLE_SESSIONS_PER_USER) {
      throw new AppError('CONSOLE_LIMIT', `You have ${open} consoles open; close one to open another.`, { limit: deps.config.CONSOLE_SESSIONS_PER_USER });
    }
    // Who asked is kept: the console ends once that session or token no longer signs requests in.
    const openedBy = who.sessionId ? { openedBySessionId: who.sessionId } : { openedByTokenId: who.tokenId };
    await tx.consoleSession.create({
      data: { id: newId('cons'), ticketHash: hashConsoleTicket(ticket), instanceId: instance.id, tenantId: instance.tenantId, userId: who.userId, type, expiresAt, ...openedBy },
    });
  });
  const base = deps.config.PUBLIC_URL;
  const socketBase = base.replace(/^http/, 'ws');
  return {
    // The ticket rides in the fragment: it never reaches a server log on the way to the page.
    url: `${base}/console/${type}?instance=${instance.id}#ticket=${ticket}`,
    websocketUrl: `${socketBase}${CONSOLE_SOCKET_PATH}?ticket=${ticket}`,
    expiresAt,
  };
}

// ---------------------------------------------------------------- the relay's side

type RelayDeps = Pick<ServiceDeps, 'db' | 'secrets' | 'logger' | 'proxmox'>;

/** The server a console session is about, with the connection its console is opened through. */
export type ConsoleInstance = Instance & { connection: ProxmoxConnection };

/** Redeems a console ticket, once, taking its slot's first lease: the session it opens, or null for an unknown, used or expired ticket. */
export async function redeemConsoleTicket(deps: Pick<ServiceDeps, 'db' | 'config'>, ticket: string): Promise<ConsoleSession | null> {
  if (!ticket) return null;
  return redeemTicket(deps.db, deps.config, hashConsoleTicket(ticket));
}

/** Keeps the slots of the consoles this process relays held (see db/console-sessions). */
export function renewConsoleLeases(deps: Pick<ServiceDeps, 'db' | 'config'>, sessionIds: string[]): Promise<void> {
  return renewLeases(deps.db, deps.config, sessionIds);
}

/** The server of a console session as it is now (null once its row is gone). */
export function consoleInstance(deps: Pick<ServiceDeps, 'db'>, instanceId: string): Promise<ConsoleInstance | null> {
  return deps.db.instance.findUnique({ where: { id: instanceId }, include: { connection: true } });
}

/** A console a process relays, as its watch checks it: its session, and where the guest was when it opened (once known). */
export interface WatchedConsole {
  sessionId: string;
  opened?: { node: string; vmid: number };
}

/** Whether the opener may still hold the server's console (a server whose row is gone ends it otherwise). */
function mayStillOpen(row: ConsoleSessionNow): boolean {
  if (row.serverTenantId === null || row.serverUserId === null || row.serverProjectId === null) return true;
  const opener = { userId: row.userId, role: row.role, tenantId: row.userTenantId, tenantRole: row.tenantRole, ...(row.tokenProjectId ? { tokenProjectId: row.tokenProjectId } : {}) };
  const server = { kind: 'server', tenantId: row.serverTenantId, projectId: row.serverProjectId, userId: row.serverUserId, grant: row.grant, projectRole: row.projectRole } as const;
  return can(opener, 'server.console', server).allowed;
}

/**
 * Why each of these consoles must end now, read in one statement for all of them: its opener lost
 * the right to it (signed out, password changed, user disabled, token revoked, server no longer
 * theirs), or its server stopped, moved or went. Consoles that may go on are not in the answer.
 */
export async function consolesToEnd(deps: Pick<ServiceDeps, 'db'>, consoles: WatchedConsole[]): Promise<Map<string, ConsoleCloseReason>> {
  const now = new Map((await consoleSessionsNow(deps.db, consoles.map((c) => c.sessionId))).map((row) => [row.id, row]));
  const ending = new Map<string, ConsoleCloseReason>();
  for (const { sessionId, opened } of consoles) {
    const row = now.get(sessionId);
    if (!row) continue;
    const server = row.status === null ? null : { ...row, status: row.status };
    const reason = consoleOpenerEndReason({ ...row, mayAccessServer: mayStillOpen(row) }) ?? (opened ? consoleEndReason(server, opened) : undefined);
    if (reason) ending.set(sessionId, reason);
  }
  return ending;
}

/** Why one console must end now (see consolesToEnd); undefined while it may go on. */
export async function consoleEndReasonNow(deps: Pick<ServiceDeps, 'db'>, watched: WatchedConsole): Promise<ConsoleCloseReason | undefined> {
  return (await consolesToEnd(deps, [watched])).get(watched.sessionId);
}

export function recordConsoleOpened(deps: Pick<ServiceDeps, 'db'>, session: ConsoleSession, instance: Instance): Promise<unknown> {
  return recordAudit(deps.db, { action: 'console.opened', actorUserId: session.userId, tenantId: instance.tenantId, instanceId: instance.id, details: { type: session.type } });
}

/** Closes a console session's record once, and audits how long it was open and why it ended. */
export async function recordConsoleEnded(deps: Pick<ServiceDeps, 'db'>, session: ConsoleSession, reason: ConsoleCloseReason, seconds: number): Promise<void> {
  if (!(await endConsoleSession(deps.db, session.id, reason))) return;
  await recordAudit(deps.db, { action: 'console.closed', actorUserId: session.userId, tenantId: session.tenantId ?? '', instanceId: session.instanceId, details: { type: session.type, seconds, reason } });
}

/** Proxmox VE could not give the console: the session ends `console_unavailable`. */
export class ConsoleUnavailable extends Error {
  override name = 'ConsoleUnavailable';
}

/** A Proxmox console listener's ticket, with whom it was asked for (its WebSocket is opened as the same). */
export interface UpstreamTicket extends ConsoleTicket {
  as: CallIdentity;
}

/** Whom the serial console is opened as: the token, or the console user logged in now (its ticket is this session's only). */
async function serialIdentity(deps: RelayDeps, proxmox: ProxmoxClient, connection: ProxmoxConnection): Promise<CallIdentity> {
  const caller = await serialConsoleCaller(proxmox, connection).catch(() => {
    throw new ConsoleUnavailable();
  });
  if (caller === 'token') return 'token';
  if (caller === 'unsupported' || !connection.consoleUsername || !connection.consoleUserPasswordCipher) throw new ConsoleUnavailable();
  const password = deps.secrets.open(connection.consoleUserPasswordCipher, connection.id);
  return proxmox.access.ticket(connection.consoleUsername, password).catch((error: unknown) => {
    deps.logger.warn({ connectionId: connection.id, status: (error as { status?: number }).status }, 'Proxmox VE refused the console user of this connection: check its username and password');
    throw new ConsoleUnavailable();
  });
}

/** Asks Proxmox VE, on the server's node, for a vncproxy (`vnc`) or termproxy (`serial`) listener; ConsoleUnavailable when it cannot. */
export async function requestUpstreamTicket(deps: RelayDeps, instance: ConsoleInstance & { node: string; vmid: number }, type: string): Promise<UpstreamTicket> {
  const proxmox = deps.proxmox(instance.connection);
  const as = type === 'vnc' ? 'token' : await serialIdentity(deps, proxmox, instance.connection);
  const ticket = await (type === 'vnc' ? proxmox.consoles.vncProxy(instance.node, instance.vmid) : proxmox.consoles.termProxy(instance.node, instance.vmid, as)).catch(() => {
    throw new ConsoleUnavailable();
  });
  return { ...ticket, as };
}

/** The WebSocket to the listener a ticket opened (vncwebsocket), as whoever asked for the ticket. */
export function openUpstream(deps: RelayDeps, instance: ConsoleInstance & { node: string; vmid: number }, ticket: UpstreamTicket): WebSocket {
  return deps.proxmox(instance.connection).consoles.vncWebSocket(instance.node, instance.vmid, ticket, ticket.as);
}
