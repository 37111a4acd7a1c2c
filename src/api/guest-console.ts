/**
 * Guest consoles, the ticket side: a customer asks for the screen or the serial line of a running
 * server of theirs and gets a one-time ticket (random, stored hashed, single use, bound to the
 * server, the user and the type) inside a page URL and a WebSocket URL of this API.
 */
import crypto from 'node:crypto';
import { proxmoxClientFactory } from '../proxmox/factory';
import { AppError } from '../domain/errors';
import { CONSOLE_BUSY_STATES, CONSOLE_STATES, type ConsoleType } from '../domain/guest-console';
import type { ProxmoxConnection } from '../generated/prisma/client';
import { ProxmoxError, type ProxmoxClient } from '../proxmox';
import { consoleSlotsHeld } from '../db/console-sessions';
import { hashToken } from '../security/secrets';
import { newId } from '../security/ids';
import type { Principal } from './auth';
import type { ApiDeps } from './deps';
import { findInstance } from './instance-lookup';

/** The path the console WebSocket is served at (same origin as the console pages). */
export const CONSOLE_SOCKET_PATH = '/v1/console/socket';
/** Console requests wait a few seconds at most on Proxmox: a person is waiting for the screen. */
const CONSOLE_PROXMOX_TIMEOUT_MS = 5_000;

export interface ConsoleOffer {
  url: string;
  websocketUrl: string;
  expiresAt: Date;
}

const clientsBySecrets = new WeakMap<ApiDeps['secrets'], (connection: ProxmoxConnection) => ProxmoxClient>();

/** One Proxmox client per connection for the API's console calls. */
export function consoleClientOf(deps: Pick<ApiDeps, 'secrets'>, connection: ProxmoxConnection): ProxmoxClient {
  let factory = clientsBySecrets.get(deps.secrets);
  if (!factory) {
    factory = proxmoxClientFactory(deps.secrets, CONSOLE_PROXMOX_TIMEOUT_MS);
    clientsBySecrets.set(deps.secrets, factory);
  }
  return factory(connection);
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
export async function serialConsoleCaller(client: ProxmoxClient, connection: Pick<ProxmoxConnection, 'consoleUsername'>): Promise<'token' | 'console-user' | 'unsupported'> {
  const { version } = await client.cluster.version();
  if (Number(String(version ?? '0').split('.')[0]) >= 9) return 'token';
  return connection.consoleUsername ? 'console-user' : 'unsupported';
}

export const hashConsoleTicket = (ticket: string): string => hashToken(`console:${ticket}`);

export async function requestConsole(deps: ApiDeps, who: Principal, instanceId: string, type: ConsoleType): Promise<ConsoleOffer> {
  const instance = await findInstance(deps.db, who, instanceId);
  if (CONSOLE_BUSY_STATES.has(instance.status)) throw new AppError('INSTANCE_BUSY', `The server is ${instance.status}; its console opens once that is done.`, { status: instance.status });
  if (!CONSOLE_STATES.has(instance.status) || instance.node === null || instance.vmid === null) {
    throw new AppError('INSTANCE_NOT_RUNNING', 'The server is not running: start it to open its console.', { status: instance.status });
  }
  const client = consoleClientOf(deps, instance.connection);
  const { node, vmid } = instance;
  if (type === 'vnc') {
    const config = await askProxmox(() => client.guestConfig.get(node, vmid));
    if (/^serial\d/.test(String(config.vga ?? ''))) {
      throw new AppError('CONSOLE_TYPE_UNAVAILABLE', 'This server has no screen (its image shows its console on the serial port): open the serial console instead.', { available: 'serial' });
    }
  } else if ((await askProxmox(() => serialConsoleCaller(client, instance.connection))) === 'unsupported') {
    throw new AppError('CONSOLE_UNSUPPORTED', "This server's cluster runs a Proxmox VE release that gives serial consoles only to users, not to API tokens, and no console user is set up for it; the screen console works.", { available: 'vnc' });
  }

  const ticket = crypto.randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + deps.config.CONSOLE_TICKET_SECONDS * 1000);
  await deps.db.$transaction(async (tx) => {
    // One user's requests count their open consoles one at a time.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`console:${who.userId}`}))`;
    const open = await consoleSlotsHeld(tx, { userId: who.userId });
    if (open >= deps.config.CONSOLE_SESSIONS_PER_USER) {
      throw new AppError('CONSOLE_LIMIT', `You have ${open} consoles open; close one to open another.`, { limit: deps.config.CONSOLE_SESSIONS_PER_USER });
    }
    await tx.consoleSession.create({
      data: { id: newId('cons'), ticketHash: hashConsoleTicket(ticket), instanceId: instance.id, tenantId: instance.tenantId, userId: who.userId, type, expiresAt },
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
