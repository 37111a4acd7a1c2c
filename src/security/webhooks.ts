import { createHmac, randomBytes } from 'node:crypto';
import { lookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** A webhook signing secret: 256 random bits, recognisable by its prefix in secret scanners. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * The `Pvecp-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed
 * with the endpoint's secret (its UTF-8 bytes). The timestamp lets a receiver refuse replays.
 */
export function signWebhook(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/** Addresses a webhook may not reach unless private targets are allowed. */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address is loopback, link-local, private or otherwise not on the public internet. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family !== 6) return true;
  // IPv4-mapped (::ffff:a.b.c.d) is judged as the IPv4 address it names.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ? PRIVATE.check(mapped[1], 'ipv4') : PRIVATE.check(address, 'ipv6');
}

export class WebhookTargetError extends Error {
  override name = 'WebhookTargetError';
}

export interface TargetPolicy {
  /** Plain `http` is allowed (outside production). */
  allowHttp: boolean;
  /** Loopback, link-local and private addresses are allowed. */
  allowPrivate: boolean;
}

/** The URL a webhook may be registered with: http(s), no credentials, and http only where allowed. Throws WebhookTargetError. */
export function checkWebhookUrl(raw: string, policy: TargetPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookTargetError('must be an absolute URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) throw new WebhookTargetError(policy.allowHttp ? 'must be http or https' : 'must be https');
  if (url.username || url.password) throw new WebhookTargetError('must not carry credentials');
  if (url.hash) throw new WebhookTargetError('must not carry a fragment');
  return url;
}

const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Every address the URL's host resolves to (the host itself when it is an IP literal). */
export async function resolveTarget(url: URL): Promise<string[]> {
  const host = bareHost(url);
  if (isIP(host)) return [host];
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) => lookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found))));
  return addresses.map((a) => a.address);
}

/** Refuses a target any of whose addresses is private, unless the policy allows it. */
export function assertPublic(addresses: string[], policy: TargetPolicy): void {
  if (policy.allowPrivate) return;
  if (addresses.some(isPrivateAddress)) throw new WebhookTargetError('must not point at a loopback, link-local or private address');
}

/**
 * A DNS lookup for the delivery's connection that refuses private addresses: the address checked
 * is the address connected to, so a name that resolves differently later (DNS rebinding) cannot
 * slip past a check made earlier.
 */
function guardedLookup(policy: TargetPolicy): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, found) => {
      if (error) return callback(error, '', 0);
      const addresses = found as unknown as LookupAddress[];
      try {
        assertPublic(
          addresses.map((a) => a.address),
          policy,
        );
      } catch (refusal) {
        return callback(refusal as NodeJS.ErrnoException, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };
}

export interface WebhookResponse {
  /** The HTTP status; null when no answer came (the error says why). */
  status: number | null;
  error: string | null;
}

const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * POSTs one webhook body. Never throws for the receiver's sake: a refusal of the target, a
 * connection error or a timeout is an answer without a status. Redirects are not followed.
 */
export function postWebhook(rawUrl: string, body: string, headers: Record<string, string>, policy: TargetPolicy, timeoutMs: number): Promise<WebhookResponse> {
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = checkWebhookUrl(rawUrl, policy);
      const host = bareHost(url);
      // An IP literal is connected to without a lookup: check it here.
      if (isIP(host)) assertPublic([host], policy);
    } catch (error) {
      return resolve({ status: null, error: describe(error) });
    }
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup(policy),
        timeout: timeoutMs,
        agent: false,
      },
      (response) => {
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) response.destroy();
        });
        const done = () => resolve({ status: response.statusCode ?? null, error: null });
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      },
    );
    request.on('timeout', () => request.destroy(new WebhookTargetError(`no answer within ${timeoutMs} ms`)));
    request.on('error', (error) => resolve({ status: null, error: describe(error) }));
    request.end(body);
  });
}

/** A short, secret-free reason for a failed attempt (the URL and headers are never part of it). */
function describe(error: unknown): string {
  if (error instanceof WebhookTargetError) return `target refused: ${error.message}`;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code) return `connection failed: ${code}`;
  return 'connection failed';
}
