import ipaddr from 'ipaddr.js';

/** The IPv6 prefix one subscriber gets at least (RFC 6177): every address in it is theirs to rotate through. */
const IPV6_SUBSCRIBER_PREFIX = 64;

/**
 * What the per-address sign-in lockout counts a client address as: an IPv4 address itself (an
 * IPv4-mapped IPv6 address included), or the /64 an IPv6 address lies in, written
 * `2001:db8:1:2::/64`. Text that is no address (a trusted proxy may forward anything) counts as itself.
 */
export function lockoutPrefix(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/${IPV6_SUBSCRIBER_PREFIX}`).toString()}/${IPV6_SUBSCRIBER_PREFIX}`;
}
