import { lookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { TargetPolicy } from './policy';

/** IPv6 global unicast (RFC 4291); the rest of the IPv6 space is special-purpose or unassigned. */
const GLOBAL_UNICAST_IPV6 = ipaddr.parseCIDR('2000::/3');

/**
 * Whether a webhook may reach this address when private targets are not allowed: it must be
 * globally reachable unicast. ipaddr.js names the IANA special-purpose ranges (loopback, private,
 * link-local, CGNAT, 192.0.0.0/24, documentation, benchmarking, 240.0.0.0/4, multicast, NAT64,
 * 6to4, Teredo, ORCHID, …); anything it calls other than `unicast` is refused, and so is IPv6
 * outside 2000::/3. An IPv4-mapped address (::ffff:a.b.c.d) is judged as the IPv4 address it names.
 */
export function isPublicAddress(address: string): boolean {
  if (!isIP(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const ipv6 = parsed as ipaddr.IPv6;
  if (ipv6.isIPv4MappedAddress()) return isPublicAddress(ipv6.toIPv4Address().toString());
  return ipv6.range() === 'unicast' && ipv6.match(GLOBAL_UNICAST_IPV6);
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

/** Refuses a target any of whose addresses is not public, unless the policy allows it. */
export function assertPublic(addresses: string[], policy: TargetPolicy): void {
  if (policy.allowPrivate) return;
  if (!addresses.every(isPublicAddress)) throw new WebhookTargetError('must not point at a loopback, link-local, private or other special-purpose address');
}

/**
 * A DNS lookup for an outgoing connection (a webhook delivery, an image's checksum file) that
 * refuses private addresses: the address checked is the address connected to, so a name that
 * resolves differently later (DNS rebinding) cannot slip past a check made earlier. Not request-filtering-agent: its fixed rule is not the one
 * isPublicAddress applies (and the API applies at registration); see docs/security.md.
 */
export function guardedLookup(policy: TargetPolicy): LookupFunction {
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
