import { describe, expect, it } from 'vitest';
import { canonicalAddress, cidrSize, cidrsOverlap, formatCidr, lastUsableOrdinal, parseCidr } from '../../src/net/ip';

describe('formatCidr', () => {
  it('writes the network address in its shortest form, then the prefix', () => {
    expect(formatCidr(parseCidr('198.51.100.77/24'))).toBe('198.51.100.0/24');
    expect(formatCidr(parseCidr('2001:0DB8:0100:0000::/64'))).toBe('2001:db8:100::/64');
    expect(formatCidr(parseCidr('2001:db8::1/64'))).toBe('2001:db8::/64');
    expect(formatCidr(parseCidr('::/0'))).toBe('::/0');
    expect(formatCidr(parseCidr('0.0.0.0/0'))).toBe('0.0.0.0/0');
  });
});

describe('canonicalAddress', () => {
  it('writes addresses in RFC 5952 form', () => {
    expect(canonicalAddress('2001:0db8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
    expect(canonicalAddress('2001:db8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1');
    expect(canonicalAddress('2001:DB8::A')).toBe('2001:db8::a');
    expect(canonicalAddress('::ffff:192.0.2.1')).toBe('::ffff:c000:201');
    expect(canonicalAddress('192.0.2.1')).toBe('192.0.2.1');
  });

  it('returns what is not an address as written', () => {
    for (const text of ['', 'localhost', '1.2.3', '2001:db8:::1']) expect(canonicalAddress(text)).toBe(text);
  });
});

describe('cidrsOverlap', () => {
  const overlap = (a: string, b: string) => cidrsOverlap(parseCidr(a), parseCidr(b));

  it('is true when either network contains the other, in both argument orders', () => {
    expect(overlap('10.0.0.0/16', '10.0.5.0/24')).toBe(true);
    expect(overlap('10.0.5.0/24', '10.0.0.0/16')).toBe(true);
    expect(overlap('10.0.0.0/24', '10.0.0.0/24')).toBe(true);
    expect(overlap('2001:db8::/48', '2001:db8:0:1::/64')).toBe(true);
  });

  it('is false for disjoint networks, also adjacent ones', () => {
    expect(overlap('10.0.0.0/16', '10.1.0.0/16')).toBe(false);
    expect(overlap('192.0.2.0/25', '192.0.2.128/25')).toBe(false);
    expect(overlap('2001:db8::/64', '2001:db8:0:1::/64')).toBe(false);
  });

  it('never relates networks of different families', () => {
    expect(overlap('::/0', '10.0.0.0/16')).toBe(false);
    expect(overlap('0.0.0.0/0', '::/0')).toBe(false);
  });
});

describe('cidrSize', () => {
  it('counts every address of the network, network and broadcast included', () => {
    expect(cidrSize(parseCidr('198.51.100.0/24'))).toBe(256n);
    expect(cidrSize(parseCidr('192.0.2.0/30'))).toBe(4n);
    expect(cidrSize(parseCidr('192.0.2.1/32'))).toBe(1n);
    expect(cidrSize(parseCidr('0.0.0.0/0'))).toBe(1n << 32n);
    expect(cidrSize(parseCidr('2001:db8::/64'))).toBe(1n << 64n);
  });

  it('is two more than the last usable ordinal of a normal IPv4 pool', () => {
    const cidr = parseCidr('10.20.0.0/22');
    expect(cidrSize(cidr)).toBe(lastUsableOrdinal(cidr) + 2n);
  });
});
