/**
 * How a Proxmox node reaches a URL, done for real from the simulator's process: `wget` as
 * pve-common's download_file_from_url runs it (`wget --progress=dot:giga -O <tmp> <url>`, its
 * output in the task log, its last error line in the task's failure: PVE::Cmd run_command with
 * `errmsg`: wget's blank lines are left out of the log, its last line becomes the failure instead of
 * a log line), and the HEAD request pve-manager's query-url-metadata makes with LWP::UserAgent.
 * The log lines follow GNU wget's own (http.c, connect.c, host.c, progress.c) in the C locale.
 * Where wget tries 20 times, the simulator tries once and gives up as wget does after its last try.
 */
import dns from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import net from 'node:net';

/** wget's --read-timeout default: 900 s. */
export const WGET_READ_TIMEOUT_MS = 900_000;
/** LWP::UserAgent's default timeout: 180 s. */
export const LWP_TIMEOUT_MS = 180_000;
/** wget follows up to 20 redirections (--max-redirect), LWP up to 7. */
const WGET_MAX_REDIRECT = 20;
const LWP_MAX_REDIRECT = 7;

/** dot:giga: each dot is 1 MiB, 8 dots a cluster, 32 dots (32 MiB) a row. */
const DOT_BYTES = 1024 * 1024;
const DOT_SPACING = 8;
const DOTS_IN_LINE = 32;
const ROW_BYTES = DOT_BYTES * DOTS_IN_LINE;

export interface WgetOptions {
  /** The file wget writes to (`-O`), as the log names it. */
  output: string;
  verifyCertificates: boolean;
  timeoutMs: number;
  signal: AbortSignal;
  /** A line for the task log. */
  log: (line: string) => void;
  /** Takes the next bytes of the body; false when the storage has no room for them. */
  write: (chunk: Buffer) => boolean;
}

/** How wget ended: the body's length, or what run_command dies with (its last stderr line, else its exit code). */
export type WgetOutcome = { ok: true; length: number } | { ok: false; failure: string };

const two = (n: number) => String(n).padStart(2, '0');
/** wget's datetime_str: local time `%Y-%m-%d %H:%M:%S`. */
const stamp = (d = new Date()) => `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;

/** utils.c human_readable(n, 10, 1): `1.2K`, `417M`. */
function humanReadable(n: number): string {
  if (n < 1024) return String(n);
  const powers = 'KMGTPE';
  let value = n;
  for (let i = 0; i < powers.length; i++) {
    if (value / 1024 < 1024 || i === powers.length - 1) {
      const v = value / 1024;
      return `${v.toFixed(v < 10 ? 1 : 0)}${powers[i] as string}`;
    }
    value = Math.floor(value / 1024);
  }
  return String(n);
}

/** retr.c calc_rate: bytes per second in units of 1024, and the unit's index. */
function calcRate(bytes: number, seconds: number): { rate: number; unit: number } {
  let rate = bytes / Math.max(seconds, 0.0005);
  let unit = 0;
  while (rate >= 1024 && unit < 4) {
    rate /= 1024;
    unit++;
  }
  return { rate, unit };
}

const rateDigits = (rate: number) => (rate >= 99.95 ? 0 : rate >= 9.995 ? 1 : 2);

/** progress.c eta_to_human_short, condensed: `5s`, `1m5s`, `2h3m`, `4d5h`. */
function shortDuration(secs: number): string {
  if (secs < 100) return `${secs}s`;
  if (secs < 100 * 60) return `${Math.floor(secs / 60)}m${secs % 60}s`;
  if (secs < 48 * 3600) return `${Math.floor(secs / 3600)}h${Math.floor(secs / 60) % 60}m`;
  if (secs < 100 * 86_400) return `${Math.floor(secs / 86_400)}d${Math.floor(secs / 3600) % 24}h`;
  return `${Math.floor(secs / 86_400)}d`;
}

/** utils.c print_decimal. */
function printDecimal(n: number): string {
  if (n >= 9.95) return n.toFixed(0);
  if (n >= 0.95) return n.toFixed(1);
  if (n >= 0.001) return String(Number(n.toPrecision(1)));
  if (n >= 0.0005) return n.toFixed(3);
  return '0';
}

/** The dot:giga progress rows of one download, each written to the log once it is full (and the last at the end). */
class DotProgress {
  private rows = 0;
  private received = 0;
  private rowStartedMs: number;

  constructor(
    private readonly total: number | undefined,
    private readonly startedMs: number,
    private readonly log: (line: string) => void,
  ) {
    this.rowStartedMs = startedMs;
  }

  private dots(count: number): string {
    let text = '';
    for (let i = 0; i < DOTS_IN_LINE; i++) text += `${i % DOT_SPACING === 0 ? ' ' : ''}${i < count ? '.' : ' '}`;
    return text;
  }

  private stats(bytesThisRow: number, done: boolean): string {
    const now = Date.now();
    const shown = this.rows * ROW_BYTES + (done ? this.received - this.rows * ROW_BYTES : 0);
    const percent = this.total ? `${String(Math.floor((100 * (done ? this.received : shown)) / this.total)).padStart(3)}%` : '';
    const { rate, unit } = calcRate(bytesThisRow, (now - this.rowStartedMs) / 1000);
    const speed = ` ${rate.toFixed(rateDigits(rate)).padStart(4)}${' KMGT'[unit] as string}`;
    this.rowStartedMs = now;
    const elapsed = (now - this.startedMs) / 1000;
    if (done) return `${percent}${speed}=${elapsed >= 10 ? shortDuration(Math.round(elapsed)) : `${printDecimal(elapsed)}s`}`;
    const eta = this.total ? ` ${shortDuration(Math.round((elapsed * Math.max(0, this.total - shown)) / Math.max(shown, 1)))}` : '';
    return `${percent}${speed}${eta}`;
  }

  add(bytes: number): void {
    this.received += bytes;
    while (this.received >= (this.rows + 1) * ROW_BYTES) {
      const row = this.rows;
      this.rows++;
      this.log(`${String((row * ROW_BYTES) / 1024).padStart(6)}K${this.dots(DOTS_IN_LINE)}${this.stats(ROW_BYTES, false)}`);
    }
  }

  finish(): void {
    const inRow = this.received - this.rows * ROW_BYTES;
    this.log(`${String((this.rows * ROW_BYTES) / 1024).padStart(6)}K${this.dots(Math.floor(inRow / DOT_BYTES))}${this.stats(inRow, true)}`);
  }
}

/** getaddrinfo's gai_strerror texts for what node's resolver reports. */
function resolverError(code: string | undefined): string {
  if (code === 'EAI_AGAIN') return 'Temporary failure in name resolution';
  if (code === 'ENODATA') return 'No address associated with hostname';
  return 'Name or service not known';
}

/** strerror texts of the socket errors a connection meets. */
function socketError(code: string | undefined, fallback: string): string {
  const texts: Record<string, string> = {
    ECONNREFUSED: 'Connection refused',
    ETIMEDOUT: 'Connection timed out',
    ECONNRESET: 'Connection reset by peer',
    EHOSTUNREACH: 'No route to host',
    ENETUNREACH: 'Network is unreachable',
  };
  return (code && texts[code]) ?? fallback;
}

const FINAL_CONNECT_ERRORS = new Set(['ECONNREFUSED', 'ENETUNREACH', 'EHOSTUNREACH']);
const TLS_ERRORS = new Set(['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'CERT_HAS_EXPIRED', 'ERR_TLS_CERT_ALTNAME_INVALID', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY']);

interface Target {
  url: URL;
  host: string;
  port: number;
  address: string;
}

/** Resolves the URL's host as wget does, logging `Resolving …` unless it is an address. */
async function resolve(url: URL, log: (line: string) => void): Promise<Target | string> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (net.isIP(host)) return { url, host, port, address: host };
  try {
    const addresses = await dns.lookup(host, { all: true });
    log(`Resolving ${host} (${host})... ${addresses.map((a) => a.address).join(', ')}`);
    return { url, host, port, address: (addresses[0] as { address: string }).address };
  } catch (e) {
    log(`Resolving ${host} (${host})... failed: ${resolverError((e as NodeJS.ErrnoException).code)}.`);
    return `wget: unable to resolve host address '${host}'`;
  }
}

type Response = { response: IncomingMessage } | { error: NodeJS.ErrnoException; connected: boolean } | { timedOut: true; connected: boolean };

/** One request to the resolved address: the response head, or why none came. */
function request(target: Target, method: 'GET' | 'HEAD', o: { verifyCertificates: boolean; timeoutMs: number; signal: AbortSignal; userAgent: string }, onConnect: () => void): Promise<Response> {
  return new Promise((done) => {
    const secure = target.url.protocol === 'https:';
    const options = {
      method,
      host: target.address,
      port: target.port,
      path: `${target.url.pathname}${target.url.search}`,
      headers: { Host: target.url.host, 'User-Agent': o.userAgent, Accept: '*/*' },
      // a connection of its own, as a wget process has
      agent: false,
      signal: o.signal,
      ...(secure ? { servername: net.isIP(target.host) ? undefined : target.host, rejectUnauthorized: o.verifyCertificates } : {}),
    };
    let connected = false;
    const req = (secure ? https : http).request(options, (response) => done({ response }));
    req.setTimeout(o.timeoutMs, () => {
      done({ timedOut: true, connected });
      req.destroy();
    });
    req.on('socket', (socket) => socket.once(secure ? 'secureConnect' : 'connect', () => {
      connected = true;
      onConnect();
    }));
    req.on('error', (error: NodeJS.ErrnoException) => done({ error, connected }));
    req.end();
  });
}

/**
 * Downloads `url` as wget does for Proxmox (following redirections), writing the body through
 * `o.write` and the log through `o.log`; resolves with the body's length or run_command's failure.
 */
export async function wget(url: string, o: WgetOptions): Promise<WgetOutcome> {
  let current = new URL(url);
  for (let redirects = 0; ; redirects++) {
    o.log(`--${stamp()}--  ${current.href}`);
    const target = await resolve(current, o.log);
    if (typeof target === 'string') return { ok: false, failure: target };
    const connecting = net.isIP(target.host) ? `Connecting to ${target.address}:${target.port}... ` : `Connecting to ${target.host} (${target.host})|${target.address}|:${target.port}... `;
    const answer = await request(target, 'GET', { ...o, userAgent: 'Wget/1.21.3' }, () => o.log(`${connecting}connected.`));
    if (o.signal.aborted) return { ok: false, failure: 'got interrupted by signal' };
    if (!('response' in answer)) {
      if (!answer.connected) {
        const reason = 'timedOut' in answer ? 'Connection timed out' : socketError(answer.error.code, answer.error.message);
        if ('error' in answer && TLS_ERRORS.has(answer.error.code ?? '')) {
          o.log(`${connecting}connected.`);
          o.log(`ERROR: The certificate of '${target.host}' is not trusted.`);
          return { ok: false, failure: `To connect to ${target.host} insecurely, use \`--no-check-certificate'.` };
        }
        // a refused or unreachable connection is final for wget (retryable_socket_connect_error); a timed out one is retried, then given up
        if ('error' in answer && FINAL_CONNECT_ERRORS.has(answer.error.code ?? '')) return { ok: false, failure: `${connecting}failed: ${reason}.` };
        o.log(`${connecting}failed: ${reason}.`);
        o.log('Giving up.');
        return { ok: false, failure: 'exit code 4' };
      }
      const reason = 'timedOut' in answer ? 'Connection timed out' : socketError(answer.error.code, answer.error.message);
      o.log(`HTTP request sent, awaiting response... Read error (${reason}) in headers.`);
      o.log('Giving up.');
      return { ok: false, failure: 'exit code 4' };
    }
    const { response } = answer;
    const status = response.statusCode ?? 0;
    const message = response.statusMessage ?? '';
    o.log(`HTTP request sent, awaiting response... ${status} ${message}`);
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location) {
      response.resume();
      const next = new URL(location, current);
      o.log(`Location: ${next.href} [following]`);
      if (redirects + 1 > WGET_MAX_REDIRECT) return { ok: false, failure: `${WGET_MAX_REDIRECT} redirections exceeded.` };
      current = next;
      continue;
    }
    if (status < 200 || status >= 300) {
      response.resume();
      o.log(`${stamp()} ERROR ${status}: ${message}.`);
      return { ok: false, failure: 'exit code 8' };
    }
    return receive(response, o);
  }
}

/** Reads a 2xx body as wget does: `Length:`, `Saving to:`, the dot rows, then `saved [n/total]` or why it stopped. */
function receive(response: IncomingMessage, o: WgetOptions): Promise<WgetOutcome> {
  const lengthHeader = response.headers['content-length'];
  const total = lengthHeader !== undefined ? Number(lengthHeader) : undefined;
  const type = (response.headers['content-type'] ?? '').split(';')[0]?.trim();
  const length = total === undefined ? 'unspecified' : `${total}${total >= 1024 ? ` (${humanReadable(total)})` : ''}`;
  o.log(`Length: ${length}${type ? ` [${type}]` : ''}`);
  o.log(`Saving to: '${o.output}'`);
  const startedMs = Date.now();
  const progress = new DotProgress(total, startedMs, o.log);
  let received = 0;
  const rate = () => {
    const { rate: r, unit } = calcRate(received, (Date.now() - startedMs) / 1000);
    return `${r.toFixed(rateDigits(r))} ${['B/s', 'KB/s', 'MB/s', 'GB/s', 'TB/s'][unit] as string}`;
  };
  return new Promise((done) => {
    let settled = false;
    const settle = (outcome: WgetOutcome) => {
      if (settled) return;
      settled = true;
      response.destroy();
      done(outcome);
    };
    const timer = () => setTimeout(() => {
      // wget's read timeout: the row so far, then the byte it stopped at, and it gives up
      progress.finish();
      o.log(`${stamp()} (${rate()}) - Read error at byte ${received}${total !== undefined ? `/${total}` : ''} (Connection timed out). Giving up.`);
      settle({ ok: false, failure: 'exit code 4' });
    }, o.timeoutMs);
    let idle = timer();
    response.on('data', (chunk: Buffer) => {
      if (settled) return;
      clearTimeout(idle);
      if (!o.write(chunk)) {
        settle({ ok: false, failure: `Cannot write to '${o.output}' (No space left on device).` });
        return;
      }
      received += chunk.length;
      progress.add(chunk.length);
      idle = timer();
    });
    response.on('end', () => {
      clearTimeout(idle);
      if (settled) return;
      if (total !== undefined && received < total) {
        progress.finish();
        o.log(`${stamp()} (${rate()}) - Connection closed at byte ${received}. Giving up.`);
        settle({ ok: false, failure: 'exit code 4' });
        return;
      }
      progress.finish();
      o.log(`${stamp()} (${rate()}) - '${o.output}' saved [${received}${total !== undefined ? `/${total}` : ''}]`);
      settle({ ok: true, length: received });
    });
    response.on('error', () => {
      clearTimeout(idle);
      settle({ ok: false, failure: o.signal.aborted ? 'got interrupted by signal' : 'exit code 4' });
    });
  });
}

/** What query-url-metadata's HEAD request gets: the answer's status line and headers, or LWP's own 500 when there is none. */
export interface HeadAnswer {
  status: number;
  statusLine: string;
  headers: IncomingMessage['headers'];
}

/** LWP::UserAgent's HEAD (redirections followed); a connection that fails becomes LWP's `500 Can't connect …`, a silent server `500 read timeout`. */
export async function lwpHead(url: string, o: { verifyCertificates: boolean; timeoutMs: number }): Promise<HeadAnswer> {
  let current = new URL(url);
  const signal = new AbortController().signal;
  for (let redirects = 0; ; redirects++) {
    const target = await resolve(current, () => undefined);
    const where = `${current.hostname}:${current.port || (current.protocol === 'https:' ? 443 : 80)}`;
    if (typeof target === 'string') return lwpError(`Can't connect to ${where} (Name or service not known)`);
    const answer = await request(target, 'HEAD', { ...o, signal, userAgent: 'Proxmox VE' }, () => undefined);
    if ('timedOut' in answer) return lwpError('read timeout');
    if ('error' in answer) {
      if (TLS_ERRORS.has(answer.error.code ?? '')) return lwpError(`Can't connect to ${where} (certificate verify failed)`);
      return lwpError(answer.connected ? socketError(answer.error.code, answer.error.message) : `Can't connect to ${where} (${socketError(answer.error.code, answer.error.message)})`);
    }
    const { response } = answer;
    response.resume();
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location && redirects < LWP_MAX_REDIRECT) {
      current = new URL(response.headers.location, current);
      continue;
    }
    return { status, statusLine: `${status} ${response.statusMessage ?? ''}`, headers: response.headers };
  }
}

const lwpError = (message: string): HeadAnswer => ({ status: 500, statusLine: `500 ${message}`, headers: {} });
