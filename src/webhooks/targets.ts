import { lookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import type { TargetPolicy } from './policy';

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

/** A URL's host without the brackets of an IPv6 literal. */
export const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

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
