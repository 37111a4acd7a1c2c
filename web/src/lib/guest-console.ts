import { api, outcome } from '../api';
import type { Problem } from './problems';

export type ConsoleType = 'vnc' | 'serial';

/** The console ticket of this page's address: read from the fragment (never sent to a server) and removed from it, so a reload cannot reuse a spent one. */
export function takeTicket(): string | undefined {
  const ticket = new URLSearchParams(location.hash.slice(1)).get('ticket') ?? undefined;
  if (ticket) history.replaceState(null, '', location.pathname + location.search);
  return ticket;
}

export const instanceOfPage = (): string | undefined => new URLSearchParams(location.search).get('instance') ?? undefined;

/** The WebSocket of a ticket, on this page's own origin. */
export function socketUrl(ticket: string): string {
  const url = new URL('/v1/console/socket', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('ticket', ticket);
  return url.toString();
}

/** Asks the API for a console of the server: the page address (with its ticket), or the refusal. */
export async function requestConsole(instanceId: string, type: ConsoleType): Promise<{ ok: true; url: string } | { ok: false; problem: Problem }> {
  const answer = await outcome(api.POST('/v1/instances/{id}/console', { params: { path: { id: instanceId } }, body: { type } }));
  return answer.ok ? { ok: true, url: answer.data.url } : { ok: false, problem: answer.problem };
}

/** A fresh ticket for the server's console, or the refusal. */
export async function freshTicket(instanceId: string, type: ConsoleType): Promise<{ ok: true; ticket: string } | { ok: false; problem: Problem }> {
  const offer = await requestConsole(instanceId, type);
  if (!offer.ok) return offer;
  return { ok: true, ticket: new URLSearchParams(new URL(offer.url).hash.slice(1)).get('ticket') ?? '' };
}
