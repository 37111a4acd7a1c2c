/**
 * Access: what the calling token may do, and a user's ticket for a password (a call the
 * transport then makes as that user, see CallIdentity in http.ts).
 */
import { ProxmoxError } from './errors';
import type { CallOptions, ProxmoxHttp, UserTicket } from './http';

export class AccessApi {
  constructor(private readonly http: ProxmoxHttp) {}

  /** GET /access/permissions?path=P: the privileges the calling token holds on that path. */
  async privilegesOn(path: string, call?: CallOptions): Promise<Set<string>> {
    const data = await this.http.request<Record<string, Record<string, number>>>('GET', '/access/permissions', {}, { path }, call);
    return new Set(Object.keys(data?.[path] ?? {}));
  }

  /**
   * A user's ticket for a password (POST /access/ticket, sent without the token). The password
   * is never part of an error: a refusal reads "authentication failure".
   */
  async ticket(username: string, password: string, call?: CallOptions): Promise<UserTicket> {
    const options = call instanceof AbortSignal ? { signal: call } : call;
    const data = await this.http.request<{ ticket?: unknown; CSRFPreventionToken?: unknown }>('POST', '/access/ticket', {}, { username, password }, { ...options, as: 'anonymous' });
    if (typeof data?.ticket !== 'string' || typeof data.CSRFPreventionToken !== 'string') {
      throw new ProxmoxError({ kind: 'protocol', method: 'POST', path: '/access/ticket', message: 'login answer without ticket or CSRFPreventionToken' });
    }
    return { ticket: data.ticket, csrfToken: data.CSRFPreventionToken };
  }
}
