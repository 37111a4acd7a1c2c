/**
 * A thin typed client for the Proxmox VE REST API (API token auth).
 *
 * Rules it keeps:
 * - mutating calls (POST/PUT/DELETE) are sent exactly once; a timeout or a dropped
 *   connection surfaces as a ProxmoxError whose `outcomeUnknown` is true;
 * - GETs are retried a few times with backoff on transient failures;
 * - TLS trust is per client (own https.Agent), never process-wide;
 * - https only, unless the connection is a plaintext lab endpoint (plaintextLab);
 * - an answer is read up to a size cap, never buffered whole beyond it;
 * - the token secret never appears in an error or a log line.
 */
import http from 'node:http';
import https from 'node:https';
import WebSocket from 'ws';
import { delay } from './delay';
import { ProxmoxError } from './errors';
import { isUpid, parseUpid } from './upid';
import { ProxmoxTaskWatcher } from './task-watcher';
import type { ProxmoxTaskResult, WaitForProxmoxTaskOptions } from './tasks';
import type {
  ClusterVmResource,
  ListProxmoxTasksOptions,
  NodeListEntry,
  NodeStatus,
  NodeStorage,
  StorageVolume,
  ProxmoxTaskListEntry,
  ProxmoxTaskStatus,
  RrdTimeframe,
  VmConfig,
  VmRrdPoint,
  VmStatus,
} from './wire';

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

export interface ClusterIdentity {
  clusterName: string | null;
  nodes: string[];
}

export interface CloneVmOptions {
  newid: number;
  name: string;
  full?: boolean;
  target?: string;
  storage?: string;
  description?: string;
  pool?: string;
}

export interface ShutdownOptions {
  timeoutSeconds?: number;
  forceStop?: boolean;
}

export interface MigrateOptions {
  target: string;
  online?: boolean;
  withLocalDisks?: boolean;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface RawResponse {
  status: number;
  statusText: string;
  body: string;
}

/** Encodes sshkeys the way Proxmox expects ("urlencoded" format: %20 for spaces, %0A between keys). */
export function encodeSshKeys(keys: string | string[]): string {
  const text = Array.isArray(keys) ? keys.join('\n') : keys;
  return encodeURIComponent(text);
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

export function assertNode(node: string): void {
  if (!/^[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?$/.test(node)) throw new TypeError('invalid node name');
}

/** Path parameters of one guest, both checked. */
export function guestParams(node: string, vmid: number): { node: string; vmid: number } {
  assertNode(node);
  assertVmid(vmid);
  return { node, vmid };
}

export function assertVmid(vmid: number): void {
  if (!Number.isInteger(vmid) || vmid < 100 || vmid > 999_999_999) throw new TypeError('invalid VMID');
}

/** Proxmox VE's ordinary answers (task logs, configs, node lists) are far below this. */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** The largest cluster whose guests one /cluster/resources?type=vm read must take in. */
export const MAX_LISTED_GUESTS = 50_000;

/**
 * The cap of a /cluster/resources?type=vm answer. One guest's entry measures about 315 bytes in
 * the simulator (a 32-character name, the counters of a guest up for weeks) and up to about 420
 * with a 63-character name, tags and a pool; 1 KiB per guest leaves room for longer tags and
 * fields a real cluster adds (HA state, locks): about 49 MiB for MAX_LISTED_GUESTS.
 */
export const CLUSTER_RESOURCES_MAX_BYTES = MAX_LISTED_GUESTS * 1024;

export class ProxmoxClient {
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
  /** One per node, shared by every wait on this client (see ProxmoxTaskWatcher). */
  private readonly taskWatchers = new Map<string, ProxmoxTaskWatcher>();

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
      this.agent = new https.Agent({
        keepAlive: true,
        ...(opts.caCert ? { ca: opts.caCert } : {}),
        rejectUnauthorized: !opts.insecureTls,
      });
    } else {
      this.transport = http;
      this.agent = new http.Agent({ keepAlive: true });
    }
  }

  /**
   * A WebSocket to an API path (vncwebsocket), authenticated with the token as every call is: from
   * a server the `Authorization` header works where a browser would need a cookie.
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

  /**
   * A user's ticket for a password (POST /access/ticket, sent without the token). The password
   * is never part of an error: a refusal reads "authentication failure".
   */
  async userTicket(username: string, password: string, call?: CallOptions): Promise<UserTicket> {
    const data = await this.request<{ ticket?: unknown; CSRFPreventionToken?: unknown }>('POST', '/access/ticket', {}, { username, password }, { ...normalizeCall(call), as: 'anonymous' });
    if (typeof data?.ticket !== 'string' || typeof data.CSRFPreventionToken !== 'string') {
      throw new ProxmoxError({ kind: 'protocol', method: 'POST', path: '/access/ticket', message: 'login answer without ticket or CSRFPreventionToken' });
    }
    return { ticket: data.ticket, csrfToken: data.CSRFPreventionToken };
  }

  // ---------------------------------------------------------------- transport

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

  private expectUpid(method: Method, path: string, data: unknown): string {
    if (!isUpid(data)) {
      throw new ProxmoxError({ kind: 'protocol', method, path, message: 'expected a task id (UPID) in the answer' });
    }
    return data;
  }

  private expectUpidOrNull(method: Method, path: string, data: unknown): string | null {
    if (data === null || data === undefined || data === '') return null;
    return this.expectUpid(method, path, data);
  }

  private async task(method: Method, path: string, pp: Record<string, string | number>, params: Params, call?: CallOptions): Promise<string> {
    return this.expectUpid(method, path, await this.request(method, path, pp, params, call));
  }

  // ---------------------------------------------------------------- cluster

  /** GET /cluster/resources?type=vm: every guest of the cluster, up to MAX_LISTED_GUESTS of them (CLUSTER_RESOURCES_MAX_BYTES). */
  async clusterResources(call?: CallOptions): Promise<ClusterVmResource[]> {
    const options = call instanceof AbortSignal ? { signal: call } : call;
    const data = await this.request<ClusterVmResource[]>('GET', '/cluster/resources', {}, { type: 'vm' }, { maxResponseBytes: CLUSTER_RESOURCES_MAX_BYTES, ...options });
    return Array.isArray(data) ? data : [];
  }

  /**
   * GET /cluster/status: the cluster's name (null for a standalone node) and its nodes' names;
   * what tells two connections to the same cluster apart from two clusters.
   */
  async clusterIdentity(call?: CallOptions): Promise<ClusterIdentity> {
    const data = await this.request<{ type: string; name: string }[]>('GET', '/cluster/status', {}, {}, call);
    const entries = Array.isArray(data) ? data : [];
    return {
      clusterName: entries.find((e) => e.type === 'cluster')?.name ?? null,
      nodes: entries.filter((e) => e.type === 'node').map((e) => e.name),
    };
  }

  /** GET /access/permissions?path=P: the privileges the calling token holds on that path. */
  async privilegesOn(path: string, call?: CallOptions): Promise<Set<string>> {
    const data = await this.request<Record<string, Record<string, number>>>('GET', '/access/permissions', {}, { path }, call);
    return new Set(Object.keys(data?.[path] ?? {}));
  }

  /** GET /cluster/nextid?vmid=N: true when the VMID is unused right now (reserves nothing). */
  async isVmidFree(vmid: number, call?: CallOptions): Promise<boolean> {
    assertVmid(vmid);
    try {
      const data = await this.request<unknown>('GET', '/cluster/nextid', {}, { vmid }, call);
      return String(data) === String(vmid);
    } catch (e) {
      if (e instanceof ProxmoxError && e.kind === 'http' && e.status === 400) return false;
      throw e;
    }
  }

  async listNodes(call?: CallOptions): Promise<NodeListEntry[]> {
    const data = await this.request<NodeListEntry[]>('GET', '/nodes', {}, {}, call);
    return Array.isArray(data) ? data : [];
  }

  async nodeStatus(node: string, call?: CallOptions): Promise<NodeStatus> {
    assertNode(node);
    return this.request<NodeStatus>('GET', '/nodes/{node}/status', { node }, {}, call);
  }

  /** GET /nodes/{node}/storage: the storages a node can use, with their content types. */
  async listStorages(node: string, call?: CallOptions): Promise<NodeStorage[]> {
    assertNode(node);
    const data = await this.request<NodeStorage[]>('GET', '/nodes/{node}/storage', { node }, {}, call);
    return Array.isArray(data) ? data : [];
  }

  /** GET /nodes/{node}/storage/{storage}/content?content=images[&vmid=N]: volumes on a storage. */
  async listStorageContent(node: string, storage: string, vmid?: number, call?: CallOptions): Promise<StorageVolume[]> {
    if (vmid !== undefined) assertVmid(vmid);
    return this.storageContent(node, storage, { content: 'images', vmid }, call);
  }

  /** GET /nodes/{node}/storage/{storage}/content?content=snippets: the snippet files that node sees (it answers itself). */
  async listSnippets(node: string, storage: string, call?: CallOptions): Promise<StorageVolume[]> {
    return this.storageContent(node, storage, { content: 'snippets' }, call);
  }

  private async storageContent(node: string, storage: string, query: Params, call?: CallOptions): Promise<StorageVolume[]> {
    assertNode(node);
    if (!/^[a-z][a-z0-9\-_.]*[a-z0-9]$/i.test(storage)) throw new TypeError('invalid storage id');
    const data = await this.request<StorageVolume[]>('GET', '/nodes/{node}/storage/{storage}/content', { node, storage }, query, call);
    return Array.isArray(data) ? data : [];
  }

  // ---------------------------------------------------------------- guests

  /** POST /nodes/{node}/qemu/{vmid}/clone → UPID (type qmclone, id = template VMID). */
  async cloneVm(node: string, templateVmid: number, o: CloneVmOptions, call?: CallOptions): Promise<string> {
    const template = guestParams(node, templateVmid);
    assertVmid(o.newid);
    return this.task(
      'POST',
      '/nodes/{node}/qemu/{vmid}/clone',
      template,
      { newid: o.newid, name: o.name, full: o.full, target: o.target, storage: o.storage, description: o.description, pool: o.pool },
      call,
    );
  }

  /** GET .../config (current values, including `digest`). */
  async getVmConfig(node: string, vmid: number, call?: CallOptions): Promise<VmConfig> {
    return this.request<VmConfig>('GET', '/nodes/{node}/qemu/{vmid}/config', guestParams(node, vmid), {}, call);
  }

  private configParams(params: Params): Params {
    const out: Params = { ...params };
    const keys = out.sshkeys;
    if (typeof keys === 'string') out.sshkeys = encodeSshKeys(keys);
    return out;
  }

  /**
   * POST .../config (asynchronous). Returns the qmconfig UPID, or null when Proxmox finished
   * inside `background_delay`. `sshkeys` is given in plain text; the client encodes it.
   */
  async setVmConfigAsync(node: string, vmid: number, params: Params, call?: CallOptions): Promise<string | null> {
    const path = '/nodes/{node}/qemu/{vmid}/config';
    const data = await this.request('POST', path, guestParams(node, vmid), this.configParams(params), call);
    return this.expectUpidOrNull('POST', path, data);
  }

  /** PUT .../config (synchronous). `sshkeys` is given in plain text; the client encodes it. */
  async setVmConfigSync(node: string, vmid: number, params: Params, call?: CallOptions): Promise<void> {
    await this.request('PUT', '/nodes/{node}/qemu/{vmid}/config', guestParams(node, vmid), this.configParams(params), call);
  }

  /** PUT .../resize with an absolute size in GiB (idempotent). UPID since PVE 8.0, null before. */
  async resizeDisk(node: string, vmid: number, disk: string, sizeGiB: number, call?: CallOptions): Promise<string | null> {
    const guest = guestParams(node, vmid);
    if (!Number.isInteger(sizeGiB) || sizeGiB <= 0) throw new TypeError('sizeGiB must be a positive integer');
    const path = '/nodes/{node}/qemu/{vmid}/resize';
    const data = await this.request('PUT', path, guest, { disk, size: `${sizeGiB}G` }, call);
    return this.expectUpidOrNull('PUT', path, data);
  }

  async vmStatus(node: string, vmid: number, call?: CallOptions): Promise<VmStatus> {
    return this.request<VmStatus>('GET', '/nodes/{node}/qemu/{vmid}/status/current', guestParams(node, vmid), {}, call);
  }

  /** The guest's usage over `timeframe`, oldest point first, averaged (`AVERAGE`) or peaks (`MAX`) per point. */
  async vmUsage(node: string, vmid: number, timeframe: RrdTimeframe, cf: 'AVERAGE' | 'MAX' = 'AVERAGE', call?: CallOptions): Promise<VmRrdPoint[]> {
    return this.request<VmRrdPoint[]>('GET', '/nodes/{node}/qemu/{vmid}/rrddata', guestParams(node, vmid), { timeframe, cf }, call);
  }

  async startVm(node: string, vmid: number, call?: CallOptions): Promise<string> {
    return this.task('POST', '/nodes/{node}/qemu/{vmid}/status/start', guestParams(node, vmid), {}, call);
  }

  async stopVm(node: string, vmid: number, call?: CallOptions): Promise<string> {
    return this.task('POST', '/nodes/{node}/qemu/{vmid}/status/stop', guestParams(node, vmid), {}, call);
  }

  async shutdownVm(node: string, vmid: number, o: ShutdownOptions = {}, call?: CallOptions): Promise<string> {
    return this.task(
      'POST',
      '/nodes/{node}/qemu/{vmid}/status/shutdown',
      guestParams(node, vmid),
      { timeout: o.timeoutSeconds, forceStop: o.forceStop },
      call,
    );
  }

  async rebootVm(node: string, vmid: number, call?: CallOptions): Promise<string> {
    return this.task('POST', '/nodes/{node}/qemu/{vmid}/status/reboot', guestParams(node, vmid), {}, call);
  }

  async migrateVm(node: string, vmid: number, o: MigrateOptions, call?: CallOptions): Promise<string> {
    const guest = guestParams(node, vmid);
    assertNode(o.target);
    return this.task(
      'POST',
      '/nodes/{node}/qemu/{vmid}/migrate',
      guest,
      { target: o.target, online: o.online, 'with-local-disks': o.withLocalDisks },
      call,
    );
  }

  /** DELETE /nodes/{node}/qemu/{vmid}?purge=1&destroy-unreferenced-disks=1 → qmdestroy UPID. */
  async destroyVm(node: string, vmid: number, call?: CallOptions): Promise<string> {
    return this.task('DELETE', '/nodes/{node}/qemu/{vmid}', guestParams(node, vmid), { purge: 1, 'destroy-unreferenced-disks': 1 }, call);
  }

  /** POST .../agent/ping; throws when the guest agent does not answer. */
  async agentPing(node: string, vmid: number, call?: CallOptions): Promise<void> {
    await this.request('POST', '/nodes/{node}/qemu/{vmid}/agent/ping', guestParams(node, vmid), {}, call);
  }

  // ---------------------------------------------------------------- tasks

  /** GET /nodes/{node-in-the-UPID}/tasks/{upid}/status */
  async taskStatus(upid: string, call?: CallOptions): Promise<ProxmoxTaskStatus> {
    if (!isUpid(upid)) throw new TypeError('not a Proxmox task id');
    const node = upid.split(':')[1] as string;
    return this.request<ProxmoxTaskStatus>('GET', '/nodes/{node}/tasks/{upid}/status', { node, upid }, {}, call);
  }

  async listTasks(node: string, o: ListProxmoxTasksOptions = {}, call?: CallOptions): Promise<ProxmoxTaskListEntry[]> {
    assertNode(node);
    const data = await this.request<ProxmoxTaskListEntry[]>(
      'GET',
      '/nodes/{node}/tasks',
      { node },
      { typefilter: o.typefilter, vmid: o.vmid, source: o.source, limit: o.limit, since: o.since },
      call,
    );
    return Array.isArray(data) ? data : [];
  }

  /**
   * Waits until a task stops, watched by its node's task watcher. "OK" and "WARNINGS: N" resolve;
   * other exits throw ProxmoxTaskError (the guarantees of waitForProxmoxTask in tasks.ts).
   */
  waitForProxmoxTask(upid: string, opts: WaitForProxmoxTaskOptions = {}): Promise<ProxmoxTaskResult> {
    const { node } = parseUpid(upid);
    let watcher = this.taskWatchers.get(node);
    if (!watcher) {
      watcher = new ProxmoxTaskWatcher(this, node);
      this.taskWatchers.set(node, watcher);
    }
    return watcher.wait(upid, opts);
  }
}
