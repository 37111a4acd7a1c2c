/**
 * The HTTP plumbing of the Proxmox VE client: one per connection, shared by every resource area
 * (see client.ts). Authenticates as the API token (or as a user's ticket: cookie, plus the CSRF
 * token on writes), checks the answer and turns failures into ProxmoxError.
 *
 * Rules it keeps:
 * - mutating calls (POST/PUT/DELETE) are sent exactly once; a timeout or a dropped
 *   connection surfaces as a ProxmoxError whose `outcomeUnknown` is true;
 * - GETs are retried a few times with backoff on transient failures;
 * - TLS trust is per client (own https.Agent, keep-alive), never process-wide;
 * - an idle kept-alive connection is closed by us before pveproxy closes it, so no call is sent
 *   into a connection the server is closing;
 * - https only, unless the connection is a plaintext lab endpoint (plaintextLab);
 * - an answer is read up to a size cap, never buffered whole beyond it;
 * - the token secret never appears in an error or a log line.
 */
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import { delay } from './delay';
import { ProxmoxError } from './errors';
import { isUpid } from './upid';

/**
 * pveproxy closes a kept-alive connection idle for 5 s (PVE::APIServer::AnyEvent's `timeout`) and
 * announces no `Keep-Alive: timeout=` hint; a call written into one it is closing meets ECONNRESET.
 * Ours go after 3 s idle: a margin of two seconds for a busy event loop.
 */
const IDLE_CONNECTION_MS = 3_000;

/** Keeps connections alive between calls, but never idle for longer than IDLE_CONNECTION_MS. */
function closingIdle<A extends http.Agent>(agent: A): A {
  // Node types keepSocketAlive as void; it answers whether the socket may be kept.
  const keep = agent.keepSocketAlive.bind(agent) as unknown as (socket: Socket) => boolean;
  const keepBriefly = (socket: Socket): boolean => {
    const kept = keep(socket);
    // A free socket that times out is destroyed by the agent.
    if (kept) socket.setTimeout(socket.timeout ? Math.min(socket.timeout, IDLE_CONNECTION_MS) : IDLE_CONNECTION_MS);
    return kept;
  };
  agent.keepSocketAlive = keepBriefly as unknown as A['keepSocketAlive'];
  const reuse = agent.reuseSocket.bind(agent);
  agent.reuseSocket = (socket, req) => {
    // In use again: its calls have deadlines of their own.
    (socket as Socket).setTimeout(0);
    reuse(socket, req);
  };
  return agent;
}

export interface ProxmoxClientOptions {
  /** e.g. https://pve1.example.net:8006 (the client appends /api2/json). */
  baseUrl: string;
  /** USER@REALM!TOKENID */
  tokenId: string;
  tokenSecret: string;
  /** PEM bundle to trust for this client only. */
  caCert?: string;
  /** Skip certificate verification for this client only. */
  insecureTls?: boolean;
  /** Allow an http:// base URL (a lab or the simulator): the token secret then crosses the network in clear. */
  plaintextLab?: boolean;
  /** The largest answer body read; a larger one is a protocol error. Default 8 MiB (the guest listing has its own, CLUSTER_RESOURCES_MAX_BYTES). */
  maxResponseBytes?: number;
  /** Per-request timeout; default 15000 ms. */
  timeoutMs?: number;
  /** Extra attempts for GET requests on transient failures; default 2. */
  getRetries?: number;
  /** First backoff delay between GET attempts; default 250 ms (doubles each time). */
  retryBaseDelayMs?: number;
  /** pino-compatible logger; receives method, path template, status and duration only. */
  logger?: { debug: (obj: object, msg?: string) => void };
}

/**
 * Either an AbortSignal or options for one call. `retries` replaces the client's `getRetries` for
 * this GET (0: a caller that reads again on its own schedule); `maxResponseBytes` is this call's
 * own answer-size cap.
 */
export type CallOptions = AbortSignal | { signal?: AbortSignal; timeoutMs?: number; retries?: number; maxResponseBytes?: number; as?: CallIdentity };

/** A user's ticket from POST /access/ticket: sent as the PVEAuthCookie (writes with its CSRF token) instead of the API token. */
export interface UserTicket {
  ticket: string;
  csrfToken: string;
}

/** Who a call is made as: the client's API token (the default), a user's ticket, or nobody (the login itself). */
export type CallIdentity = 'token' | UserTicket | 'anonymous';

export type ParamValue = string | number | boolean | undefined | null;
export type Params = Record<string, ParamValue>;

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface RawResponse {
  status: number;
  statusText: string;
  body: string;
}

function formValue(v: Exclude<ParamValue, undefined | null>): string {
  if (typeof v === 'boolean') return v ? '1' : '0';
  return String(v);
}

/** form-urlencoded body / query string; spaces as %20, booleans as 1/0; undefined and null skipped. */
export function encodeParams(params: Params): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(formValue(v))}`);
  }
  return parts.join('&');
}

function fillPath(template: string, pathParams: Record<string, string | number>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = pathParams[name];
    if (v === undefined) throw new TypeError(`missing path parameter ${name}`);
    return encodeURIComponent(String(v));
  });
}

function normalizeCall(opts: CallOptions | undefined): Exclude<CallOptions, AbortSignal> {
  if (opts === undefined) return {};
  if (opts instanceof AbortSignal) return { signal: opts };
  return opts;
}

/** The UPID a call that starts a Proxmox task answers; anything else is a protocol error. */
export function upidIn(method: Method, path: string, data: unknown): string {
  if (!isUpid(data)) throw new ProxmoxError({ kind: 'protocol', method, path, message: 'expected a task id (UPID) in the answer' });
  return data;
}

/** Proxmox VE's ordinary answers (task logs, configs, node lists) are far below this. */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

export class ProxmoxHttp {
  private readonly apiBase: URL;
  private readonly agent: http.Agent;
  private readonly transport: typeof http | typeof https;
  private readonly authHeader: string;
  private readonly tls: { ca?: string; rejectUnauthorized?: boolean };
  private readonly secret: string;
  /** USER@REALM!TOKENID: the user field of the UPIDs of the Proxmox tasks this client starts. */
  readonly tokenId: string;
  readonly timeoutMs: number;
  private readonly getRetries: number;
  private readonly retryBaseDelayMs: number;
  private readonly logger: ProxmoxClientOptions['logger'];
  private readonly maxResponseBytes: number;

  constructor(opts: ProxmoxClientOptions) {
    let base: URL;
    try {
      base = new URL(opts.baseUrl);
    } catch {
      throw new TypeError('invalid Proxmox base URL');
    }
    if (base.protocol !== 'https:' && !(base.protocol === 'http:' && opts.plaintextLab)) {
      throw new TypeError('Proxmox base URL must be https (http only for a plaintext lab endpoint)');
    }
    if (!/^[^\s@!]+@[^\s@!]+![A-Za-z][A-Za-z0-9._-]*$/.test(opts.tokenId)) {
      throw new TypeError('tokenId must look like USER@REALM!TOKENID');
    }
    if (!opts.tokenSecret || /[\s]/.test(opts.tokenSecret)) throw new TypeError('tokenSecret must be a non-empty string without spaces');
    const basePath = base.pathname.replace(/\/+$/, '');
    this.apiBase = new URL(`${base.protocol}//${base.host}${basePath}/api2/json`);
    this.secret = opts.tokenSecret;
    this.tokenId = opts.tokenId;
    this.authHeader = `PVEAPIToken=${opts.tokenId}=${opts.tokenSecret}`;
    this.timeoutMs = opts.timeoutMs ?? 15_000;
    this.getRetries = opts.getRetries ?? 2;
    this.retryBaseDelayMs = opts.retryBaseDelayMs ?? 250;
    this.logger = opts.logger;
    this.maxResponseBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.tls = base.protocol === 'https:' ? { ...(opts.caCert ? { ca: opts.caCert } : {}), rejectUnauthorized: !opts.insecureTls } : {};
    if (base.protocol === 'https:') {
      this.transport = https;
      this.agent = closingIdle(
        new https.Agent({
          keepAlive: true,
          ...(opts.caCert ? { ca: opts.caCert } : {}),
          rejectUnauthorized: !opts.insecureTls,
        }),
      );
    } else {
      this.transport = http;
      this.agent = closingIdle(new http.Agent({ keepAlive: true }));
    }
  }

  /**
   * A WebSocket to an API path (vncwebsocket), authenticated as a call is (`as`): from a server the
   * token's `Authorization` header works where a browser would need a cookie.
   */
  openWebSocket(pathTemplate: string, pathParams: Record<string, string | number>, params: Params, maxPayload: number, as: CallIdentity = 'token'): WebSocket {
    const url = new URL(`${this.apiBase.href}${fillPath(pathTemplate, pathParams)}?${encodeParams(params)}`);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    return new WebSocket(url, {
      headers: this.authHeaders('GET', as),
      handshakeTimeout: this.timeoutMs,
      maxPayload,
      perMessageDeflate: false,
      ...this.tls,
    });
  }

  /** Releases pooled connections. */
  close(): void {
    this.agent.destroy();
  }

  private authHeaders(method: Method, as: CallIdentity): Record<string, string> {
    if (as === 'anonymous') return {};
    if (as === 'token') return { Authorization: this.authHeader };
    return { Cookie: `PVEAuthCookie=${encodeURIComponent(as.ticket)}`, ...(method === 'GET' ? {} : { CSRFPreventionToken: as.csrfToken }) };
  }

  private scrub(text: string): string {
    return this.secret && text.includes(this.secret) ? text.split(this.secret).join('***') : text;
  }

  private sendOnce(method: Method, url: string, body: string | undefined, limits: { timeoutMs: number; maxResponseBytes: number; as: CallIdentity }, signal?: AbortSignal): Promise<RawResponse> {
    const { timeoutMs, maxResponseBytes } = limits;
    return new Promise<RawResponse>((resolve, reject) => {
      if (signal?.aborted) {
        reject(Object.assign(new Error('aborted'), { failKind: 'aborted' as const }));
        return;
      }
      const headers: Record<string, string> = { ...this.authHeaders(method, limits.as), Accept: 'application/json' };
      if (body !== undefined) {
        headers['Content-Type'] = 'application/x-www-form-urlencoded';
        headers['Content-Length'] = String(Buffer.byteLength(body));
      }
      let settled = false;
      const req = this.transport.request(url, { method, headers, agent: this.agent });
      const finish = (fn: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        fn();
      };
      const timer = setTimeout(() => {
        finish(() => reject(Object.assign(new Error(`request timed out after ${timeoutMs} ms`), { failKind: 'timeout' })));
        req.destroy();
      }, timeoutMs);
      const onAbort = (): void => {
        finish(() => reject(Object.assign(new Error('request aborted'), { failKind: 'aborted' })));
        req.destroy();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (err: NodeJS.ErrnoException) => {
        finish(() => reject(Object.assign(new Error(err.message || 'network error'), { failKind: 'network', code: err.code })));
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const tooLarge = (): void => {
          finish(() => reject(Object.assign(new Error(`answer larger than ${maxResponseBytes} bytes`), { failKind: 'protocol' })));
          req.destroy();
        };
        if (Number(res.headers['content-length'] ?? 0) > maxResponseBytes) return tooLarge();
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > maxResponseBytes) return tooLarge();
          chunks.push(c);
        });
        res.on('error', (err: NodeJS.ErrnoException) => {
          finish(() => reject(Object.assign(new Error(err.message || 'network error'), { failKind: 'network', code: err.code ?? 'ECONNRESET' })));
        });
        res.on('aborted', () => {
          finish(() => reject(Object.assign(new Error('response aborted'), { failKind: 'network', code: 'ECONNRESET' })));
        });
        res.on('end', () => {
          finish(() =>
            resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', body: Buffer.concat(chunks).toString('utf8') }),
          );
        });
      });
      if (body !== undefined) req.write(body);
      req.end();
    });
  }

  private toError(method: Method, path: string, raw: RawResponse): ProxmoxError {
    let errors: Record<string, string> | undefined;
    let bodyMessage: string | undefined;
    try {
      const parsed = JSON.parse(raw.body) as { errors?: unknown; message?: unknown };
      if (parsed && typeof parsed.errors === 'object' && parsed.errors !== null) {
        errors = {};
        for (const [k, v] of Object.entries(parsed.errors as Record<string, unknown>)) {
          errors[k] = this.scrub(String(v).trim());
        }
      }
      if (typeof parsed?.message === 'string') bodyMessage = parsed.message;
    } catch {
      // not JSON: the status line carries the reason
    }
    const message = this.scrub((raw.statusText || bodyMessage || `HTTP ${raw.status}`).trim());
    return new ProxmoxError({ kind: 'http', status: raw.status, method, path, message, errors });
  }

  /**
   * Sends one request and returns the `data` member of the answer.
   * GETs are retried on transient failures; other verbs never are.
   */
  async request<T = unknown>(
    method: Method,
    pathTemplate: string,
    pathParams: Record<string, string | number> = {},
    params: Params = {},
    call?: CallOptions,
  ): Promise<T> {
    const { signal, timeoutMs = this.timeoutMs, retries = this.getRetries, maxResponseBytes = this.maxResponseBytes, as = 'token' } = normalizeCall(call);
    const encoded = encodeParams(params);
    const inQuery = method === 'GET' || method === 'DELETE';
    const url = `${this.apiBase.href}${fillPath(pathTemplate, pathParams)}${inQuery && encoded ? `?${encoded}` : ''}`;
    const body = inQuery ? undefined : encoded;
    const attempts = method === 'GET' ? 1 + Math.max(0, retries) : 1;
    let lastError: ProxmoxError | undefined;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) {
        const backoff = this.retryBaseDelayMs * 2 ** (attempt - 1) * (0.75 + Math.random() * 0.5);
        try {
          await delay(backoff, signal);
        } catch {
          throw new ProxmoxError({ kind: 'aborted', method, path: pathTemplate, message: 'request aborted' });
        }
      }
      const started = Date.now();
      let raw: RawResponse;
      try {
        raw = await this.sendOnce(method, url, body, { timeoutMs, maxResponseBytes, as }, signal);
      } catch (e) {
        const err = e as Error & { failKind?: 'timeout' | 'aborted' | 'network' | 'protocol'; code?: string };
        lastError = new ProxmoxError({
          kind: err.failKind ?? 'network',
          method,
          path: pathTemplate,
          code: err.code,
          message: this.scrub(err.message),
        });
        this.logger?.debug({ method, path: pathTemplate, error: lastError.kind, code: err.code, ms: Date.now() - started }, 'proxmox request failed');
        if (lastError.kind === 'aborted' || !lastError.isTransient) throw lastError;
        continue;
      }
      this.logger?.debug({ method, path: pathTemplate, status: raw.status, ms: Date.now() - started }, 'proxmox request');
      if (raw.status >= 200 && raw.status < 300) {
        try {
          const parsed = JSON.parse(raw.body) as { data?: unknown };
          return (parsed?.data ?? null) as T;
        } catch {
          throw new ProxmoxError({ kind: 'protocol', method, path: pathTemplate, status: raw.status, message: 'answer is not JSON' });
        }
      }
      lastError = this.toError(method, pathTemplate, raw);
      if (!lastError.isTransient) throw lastError;
    }
    throw lastError ?? new ProxmoxError({ kind: 'network', method, path: pathTemplate, message: 'request failed' });
  }

  /** Sends a call that starts a Proxmox task and returns its UPID. */
  async task(method: Method, pathTemplate: string, pathParams: Record<string, string | number>, params: Params = {}, call?: CallOptions): Promise<string> {
    return upidIn(method, pathTemplate, await this.request(method, pathTemplate, pathParams, params, call));
  }

  /** As `task`, for a call Proxmox may finish without a task (inside its `background_delay`, or on releases that answer null): null then. */
  async taskOrNone(method: Method, pathTemplate: string, pathParams: Record<string, string | number>, params: Params = {}, call?: CallOptions): Promise<string | null> {
    const data = await this.request(method, pathTemplate, pathParams, params, call);
    return data === null || data === undefined || data === '' ? null : upidIn(method, pathTemplate, data);
  }
}
