import { addressToBigInt, type Cidr, cidrContains, cidrSize, cidrsOverlap, formatCidr, ordinalOf, parseCidr } from './ip';

/** The network of an IP pool: how its text is read, and what its gateway must be. */

export interface Network extends Cidr {
  /** Canonical text: the network address in its shortest form, then the prefix length. */
  cidr: string;
  /** The text named the network address itself (no host bits set). */
  exact: boolean;
}

/** Parses `address/prefix`; undefined when it is not one. Host bits are cleared. */
export function parseNetwork(text: string): Network | undefined {
  const match = /^([^/]+)\/\d{1,3}$/.exec(text);
  if (!match?.[1]) return undefined;
  let net: Cidr;
  try {
    net = parseCidr(text);
  } catch {
    return undefined;
  }
  return { ...net, cidr: formatCidr(net), exact: net.network === addressToBigInt(match[1]) };
}

/** Two networks of one family overlap when either contains the other's network address. */
export const networksOverlap: (a: Network, b: Network) => boolean = cidrsOverlap;

/** What is wrong with a pool's network and gateway, by field (the first problem found). */
export function ipPoolProblems(pool: { cidr: string; gateway: string; family: 4 | 6 }): { field: string; message: string }[] {
  const net = parseNetwork(pool.cidr);
  if (!net) return [{ field: 'cidr', message: 'a network in CIDR notation, e.g. 198.51.100.0/24' }];
  if (net.family !== pool.family) return [{ field: 'family', message: `the CIDR is IPv${net.family}` }];
  const problems: { field: string; message: string }[] = [];
  if (!net.exact) problems.push({ field: 'cidr', message: `host bits are set; the network is ${net.cidr}` });
  if (net.family === 4 ? net.prefix < 8 || net.prefix > 30 : net.prefix < 32 || net.prefix > 126) {
    return [...problems, { field: 'cidr', message: net.family === 4 ? 'prefix length must be 8..30' : 'prefix length must be 32..126' }];
  }
  const ordinal = cidrContains(net, pool.gateway) ? ordinalOf(net, pool.gateway) : undefined;
  if (ordinal === undefined) {
    problems.push({ field: 'gateway', message: `an IPv${net.family} address inside ${net.cidr}` });
  } else if (ordinal === 0n || (net.family === 4 && ordinal === cidrSize(net) - 1n)) {
    problems.push({ field: 'gateway', message: 'a host address, not the network or broadcast address' });
  }
  return problems;
}
