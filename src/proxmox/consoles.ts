/**
 * Guest consoles: vncproxy / termproxy open a one-connection listener on the guest's node and
 * answer its ticket; vncwebsocket (server-side, token header or a user's ticket) reaches it.
 */
import type WebSocket from 'ws';
import { ProxmoxError } from './errors';
import type { CallIdentity, CallOptions, ProxmoxHttp } from './http';
import { guestParams } from './paths';

export interface ConsoleTicket {
  /** Whom the ticket is for: termproxy's login line names it. */
  user: string;
  ticket: string;
  port: number;
  upid: string;
  /** The VNC password (vncproxy only; older releases without it: the ticket's first 8 characters). */
  password: string;
}

/** The largest message read from vncwebsocket: a full screen update of a large display. */
const MAX_CONSOLE_FRAME_FROM_PROXMOX = 32 * 1024 * 1024;

function ticketOf(path: string, data: unknown, withPassword: boolean): ConsoleTicket {
  const d = (data ?? {}) as Record<string, unknown>;
  if (typeof d.ticket !== 'string' || typeof d.user !== 'string' || typeof d.upid !== 'string' || !Number.isInteger(Number(d.port))) {
    throw new ProxmoxError({ kind: 'protocol', method: 'POST', path, message: 'console answer without ticket, user, port or upid' });
  }
  const password = withPassword && typeof d.password === 'string' ? d.password : d.ticket.slice(0, 8);
  return { user: d.user, ticket: d.ticket, port: Number(d.port), upid: d.upid, password };
}

export class ConsolesApi {
  constructor(private readonly http: ProxmoxHttp) {}

  /** The guest's screen: a VNC listener for a WebSocket, with a generated password. */
  async vncProxy(node: string, vmid: number, call?: CallOptions): Promise<ConsoleTicket> {
    const path = '/nodes/{node}/qemu/{vmid}/vncproxy';
    return ticketOf(path, await this.http.request('POST', path, guestParams(node, vmid), { websocket: true, 'generate-password': true }, call), true);
  }

  /** The guest's first serial port, as termproxy serves it (`as` a console user where the cluster gives serial consoles only to users). */
  async termProxy(node: string, vmid: number, as: CallIdentity = 'token'): Promise<ConsoleTicket> {
    const path = '/nodes/{node}/qemu/{vmid}/termproxy';
    return ticketOf(path, await this.http.request('POST', path, guestParams(node, vmid), { serial: 'serial0' }, { as }), false);
  }

  /** The WebSocket relaying to a console listener (raw RFB, or termproxy's framing), as whoever asked for the ticket. */
  vncWebSocket(node: string, vmid: number, ticket: ConsoleTicket, as: CallIdentity = 'token'): WebSocket {
    return this.http.openWebSocket('/nodes/{node}/qemu/{vmid}/vncwebsocket', guestParams(node, vmid), { port: ticket.port, vncticket: ticket.ticket }, MAX_CONSOLE_FRAME_FROM_PROXMOX, as);
  }
}
