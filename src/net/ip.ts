import { isIPv4, isIPv6 } from 'node:net';

/** Address arithmetic for pools: an address is the network plus an ordinal. */

export interface Cidr {
  family: 4 | 6;
  network: bigint;
  prefix: number;
}

const BITS = { 4: 32, 6: 128 } as const;

function ipv4ToBigInt(address: string): bigint {
  return address.split('.').reduce((acc, octet) => (acc << 8n) | BigInt(Number(octet)), 0n);
}

function ipv6ToBigInt(written: string): bigint {
  // An embedded IPv4 tail (`::ffff:192.0.2.1`) stands for the last two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(written)?.[1];
  const v4 = dotted ? ipv4ToBigInt(dotted) : null;
  const address = dotted && v4 !== null ? `${written.slice(0, -dotted.length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}` : written;
  const [head = '', tail = ''] = address.split('::');
  const headParts = head ? head.split(':') : [];
  const tailParts = address.includes('::') ? (tail ? tail.split(':') : []) : [];
  const missing = 8 - headParts.length - tailParts.length;
  const parts = [...headParts, ...Array<string>(address.includes('::') ? missing : 0).fill('0'), ...tailParts];
  return parts.reduce((acc, part) => (acc << 16n) | BigInt(parseInt(part, 16)), 0n);
}

export function addressToBigInt(address: string): bigint {
  if (isIPv4(address)) return ipv4ToBigInt(address);
  if (isIPv6(address)) return ipv6ToBigInt(address);
  throw new Error(`not an IP address: ${address}`);
}

export function bigIntToAddress(value: bigint, family: 4 | 6): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 255n)).join('.');
  const groups = [...Array(8).keys()].map((i) => ((value >> BigInt(112 - i * 16)) & 0xffffn).toString(16));
  // Compress the longest run of zero groups, as RFC 5952 asks.
  let bestStart = -1;
  let bestLength = 0;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > bestLength && j - i > 1) [bestStart, bestLength] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  if (bestStart < 0) return groups.join(':');
  return `${groups.slice(0, bestStart).join(':')}::${groups.slice(bestStart + bestLength).join(':')}`;
}

export function parseCidr(cidr: string): Cidr {
  const parts = cidr.split('/');
  if (parts.length !== 2) throw new Error(`not a CIDR: ${cidr}`);
  const [address = '', prefixText = ''] = parts;
  const family = isIPv4(address) ? 4 : isIPv6(address) ? 6 : undefined;
  const prefix = Number(prefixText);
  if (!family || !/^\d+$/.test(prefixText) || prefix > BITS[family]) throw new Error(`not a CIDR: ${cidr}`);
  const hostBits = BigInt(BITS[family] - prefix);
  const network = (addressToBigInt(address) >> hostBits) << hostBits;
  return { family, network, prefix };
}

/** Canonical text: the network address in its shortest form, then the prefix length. */
export function formatCidr(cidr: Cidr): string {
  return `${bigIntToAddress(cidr.network, cidr.family)}/${cidr.prefix}`;
}

/** Canonical text of an address (`2001:0db8::0001` → `2001:db8::1`); anything else is returned as written. */
export function canonicalAddress(address: string): string {
  const family = isIPv4(address) ? 4 : isIPv6(address) ? 6 : undefined;
  return family ? bigIntToAddress(addressToBigInt(address), family) : address;
}

export function cidrContains(cidr: Cidr, address: string): boolean {
  if ((cidr.family === 4 ? isIPv4(address) : isIPv6(address)) === false) return false;
  const hostBits = BigInt(BITS[cidr.family] - cidr.prefix);
  return (addressToBigInt(address) >> hostBits) << hostBits === cidr.network;
}

/** Two networks of one family overlap when either contains the other's network address. */
export function cidrsOverlap(a: Cidr, b: Cidr): boolean {
  if (a.family !== b.family) return false;
  const hostBits = BigInt(BITS[a.family] - Math.min(a.prefix, b.prefix));
  return a.network >> hostBits === b.network >> hostBits;
}

/** How many addresses the network spans, network and broadcast addresses included. */
export function cidrSize(cidr: Cidr): bigint {
  return 1n << BigInt(BITS[cidr.family] - cidr.prefix);
}

/**
 * Ordinals a pool may hand out: 1 .. last, skipping the network address (0) and, for IPv4, the
 * broadcast address. Very large IPv6 pools are capped: nobody assigns 2^64 guests.
 */
export function lastUsableOrdinal(cidr: Cidr): bigint {
  const size = cidrSize(cidr);
  if (cidr.family === 4) return size <= 2n ? size - 1n : size - 2n;
  const cap = 1n << 32n;
  return size - 1n < cap ? size - 1n : cap;
}

export function addressAt(cidr: Cidr, ordinal: bigint): string {
  return bigIntToAddress(cidr.network + ordinal, cidr.family);
}

export function ordinalOf(cidr: Cidr, address: string): bigint {
  return addressToBigInt(address) - cidr.network;
}
