/**
 * The request target of a raw HTTP request (what Node hands an `upgrade` or `connect` listener
 * before Express sees it), read without ever throwing: a hostile client picks these bytes.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** RFC 3986 `absolute-path [ "?" query ]`: pchar is unreserved, pct-encoded, sub-delims, ":" or "@". */
const ORIGIN_FORM = /^\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*(?:\?(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*)?$/;
const ABSOLUTE_FORM = /^(?:https?|wss?):\/\//i;

export interface RequestTarget {
  /** The path exactly as sent (not decoded). */
  path: string;
  query: URLSearchParams;
}

/**
 * The path and query of a request target in origin form (`/path?query`) or absolute form
 * (`http://host/path?query`, RFC 9112 §3.2.2); undefined when it is neither (the caller answers 400).
 */
export function parseRequestTarget(raw: string | undefined): RequestTarget | undefined {
  if (raw === undefined) return undefined;
  if (ORIGIN_FORM.test(raw)) {
    const mark = raw.indexOf('?');
    return mark < 0 ? { path: raw, query: new URLSearchParams() } : { path: raw.slice(0, mark), query: new URLSearchParams(raw.slice(mark + 1)) };
  }
  if (!ABSOLUTE_FORM.test(raw) || !URL.canParse(raw)) return undefined;
  const url = new URL(raw);
  return { path: url.pathname, query: url.searchParams };
}

/** A complete HTTP/1.1 answer with no body, for a socket no HTTP response object stands for; the connection closes after it. */
export const bareAnswer = (status: 400 | 403 | 404 | 405 | 500, reason: string, extra = ''): string =>
  `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n${extra}\r\n`;

/**
 * `CONNECT host:port` asks for a tunnel, which this server never gives: Node would drop the
 * socket without a word when nothing listens for it, so it is answered 405 like any method we do not serve.
 */
export function refuseTunnels(server: Server): void {
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    socket.end(bareAnswer(405, 'Method Not Allowed', 'Allow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n'));
  });
}
