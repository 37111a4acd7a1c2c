import { describe, expect, it } from 'vitest';
import { addressAt, addressToBigInt, bigIntToAddress, cidrContains, lastUsableOrdinal, ordinalOf, parseCidr } from '../../src/net/ip';

describe('parseCidr', () => {
  it('reads an IPv4 network', () => {
    expect(parseCidr('198.51.100.0/24')).toEqual({ family: 4, network: 0xc6336400n, prefix: 24 });
    expect(parseCidr('10.0.0.0/8')).toEqual({ family: 4, network: 0x0a000000n, prefix: 8 });
    expect(parseCidr('0.0.0.0/0')).toEqual({ family: 4, network: 0n, prefix: 0 });
    expect(parseCidr('192.0.2.7/32')).toEqual({ family: 4, network: 0xc0000207n, prefix: 32 });
  });

  it('reads an IPv6 network, in any of its spellings', () => {
    const expected = { family: 6, network: 0x20010db8010000000000000000000000n, prefix: 64 };
    expect(parseCidr('2001:db8:100::/64')).toEqual(expected);
    expect(parseCidr('2001:0db8:0100:0000:0000:0000:0000:0000/64')).toEqual(expected);
    expect(parseCidr('2001:DB8:100::/64')).toEqual(expected);
    expect(parseCidr('::/0')).toEqual({ family: 6, network: 0n, prefix: 0 });
    expect(parseCidr('::1/128')).toEqual({ family: 6, network: 1n, prefix: 128 });
  });

  it('clears host bits, so any address inside names the same network', () => {
    expect(parseCidr('198.51.100.77/24')).toEqual(parseCidr('198.51.100.0/24'));
    expect(parseCidr('10.1.2.3/30').network).toBe(addressToBigInt('10.1.2.0'));
    expect(parseCidr('2001:db8::1/64')).toEqual(parseCidr('2001:db8::/64'));
    expect(parseCidr('2001:db8::ffff/126').network).toBe(addressToBigInt('2001:db8::fffc'));
  });

  it('refuses what is not a CIDR', () => {
    for (const bad of [
      '',
      '198.51.100.0',
      '198.51.100.0/',
      '198.51.100.0/33',
      '198.51.100.0/-1',
      '198.51.100.0/2.5',
      '198.51.100.0/ 24',
      '198.51.100/24',
      '256.0.0.0/8',
      'example.com/24',
      '/24',
      '2001:db8::/129',
      '2001:db8:::/64',
      '2001:db8::/x',
    ]) {
      expect(() => parseCidr(bad), JSON.stringify(bad)).toThrow(/not a CIDR/);
    }
  });

  it('refuses a CIDR with more than one prefix', () => {
    expect(() => parseCidr('10.0.0.0/8/16')).toThrow(/not a CIDR/);
  });
});

describe('addressToBigInt', () => {
  it('reads IPv4 and IPv6 addresses as numbers', () => {
    expect(addressToBigInt('0.0.0.0')).toBe(0n);
    expect(addressToBigInt('255.255.255.255')).toBe(0xffffffffn);
    expect(addressToBigInt('192.0.2.1')).toBe(0xc0000201n);
    expect(addressToBigInt('::')).toBe(0n);
    expect(addressToBigInt('::1')).toBe(1n);
    expect(addressToBigInt('1::')).toBe(1n << 112n);
    expect(addressToBigInt('2001:db8::1')).toBe(0x20010db8000000000000000000000001n);
    expect(addressToBigInt('ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff')).toBe((1n << 128n) - 1n);
  });

  it('reads an IPv6 address written with an embedded IPv4 part', () => {
    expect(addressToBigInt('::ffff:192.0.2.1')).toBe(addressToBigInt('::ffff:c000:201'));
    expect(addressToBigInt('64:ff9b::198.51.100.7')).toBe(addressToBigInt('64:ff9b::c633:6407'));
  });

  it('refuses what is not an address', () => {
    for (const bad of ['', 'localhost', '1.2.3', '1.2.3.4.5', '2001:db8:::1', '12345::']) {
      expect(() => addressToBigInt(bad), bad).toThrow(/not an IP address/);
    }
  });
});

describe('addressAt and ordinalOf', () => {
  it('count addresses from the network address, which is ordinal 0', () => {
    const v4 = parseCidr('198.51.100.0/24');
    expect(addressAt(v4, 0n)).toBe('198.51.100.0');
    expect(addressAt(v4, 1n)).toBe('198.51.100.1');
    expect(addressAt(v4, 254n)).toBe('198.51.100.254');
    expect(ordinalOf(v4, '198.51.100.77')).toBe(77n);

    const v6 = parseCidr('2001:db8:100::/64');
    expect(addressAt(v6, 1n)).toBe('2001:db8:100::1');
    expect(addressAt(v6, 0x10000n)).toBe('2001:db8:100::1:0');
    expect(ordinalOf(v6, '2001:db8:100::a')).toBe(10n);
  });

  it('carry across octet boundaries', () => {
    const wide = parseCidr('10.0.0.0/16');
    expect(addressAt(wide, 256n)).toBe('10.0.1.0');
    expect(addressAt(wide, 65_534n)).toBe('10.0.255.254');
  });

  it('are inverse to each other across a whole IPv4 pool', () => {
    for (const text of ['198.51.100.0/24', '10.20.0.0/22', '192.0.2.0/30']) {
      const cidr = parseCidr(text);
      for (let ordinal = 0n; ordinal <= lastUsableOrdinal(cidr) + 1n; ordinal++) {
        const address = addressAt(cidr, ordinal);
        expect(ordinalOf(cidr, address)).toBe(ordinal);
        expect(cidrContains(cidr, address)).toBe(true);
      }
    }
  });

  it('are inverse to each other for IPv6, up to the capped last ordinal', () => {
    const cidr = parseCidr('2001:db8:100::/64');
    for (const ordinal of [1n, 2n, 255n, 256n, 0xffffn, 0x10000n, 0x1_0000_0001n, lastUsableOrdinal(cidr)]) {
      const address = addressAt(cidr, ordinal);
      expect(ordinalOf(cidr, address)).toBe(ordinal);
      expect(addressToBigInt(address)).toBe(cidr.network + ordinal);
    }
  });

  it('agree on an address written in a non-canonical way', () => {
    const cidr = parseCidr('2001:db8:100::/64');
    expect(ordinalOf(cidr, '2001:0DB8:0100:0000:0000:0000:0000:0007')).toBe(7n);
  });
});

describe('lastUsableOrdinal', () => {
  const last = (text: string) => lastUsableOrdinal(parseCidr(text));

  it('skips the IPv4 network and broadcast addresses', () => {
    expect(last('198.51.100.0/24')).toBe(254n);
    expect(last('10.0.0.0/16')).toBe(65_534n);
    expect(last('192.0.2.0/30')).toBe(2n);
    expect(last('192.0.2.0/29')).toBe(6n);
  });

  it('keeps the upper address of an IPv4 /31 (point-to-point, no broadcast) and offers nothing on a /32', () => {
    expect(last('192.0.2.0/31')).toBe(1n);
    expect(last('192.0.2.1/32')).toBe(0n);
  });

  it('has no broadcast address to skip in IPv6', () => {
    expect(last('2001:db8::/126')).toBe(3n);
    expect(last('2001:db8::/127')).toBe(1n);
    expect(last('2001:db8::/128')).toBe(0n);
    expect(last('2001:db8::/112')).toBe(0xffffn);
  });

  it('caps large IPv6 pools at 2^32 addresses', () => {
    expect(last('2001:db8::/96')).toBe((1n << 32n) - 1n);
    expect(last('2001:db8::/95')).toBe(1n << 32n);
    expect(last('2001:db8:100::/64')).toBe(1n << 32n);
    expect(last('2001:db8::/32')).toBe(1n << 32n);
    expect(last('::/0')).toBe(1n << 32n);
  });

  it('always names an address inside the network', () => {
    for (const text of ['198.51.100.0/24', '192.0.2.0/30', '192.0.2.0/31', '2001:db8::/126', '2001:db8:100::/64']) {
      const cidr = parseCidr(text);
      expect(cidrContains(cidr, addressAt(cidr, lastUsableOrdinal(cidr))), text).toBe(true);
    }
  });
});

describe('bigIntToAddress', () => {
  it('writes IPv4 in dotted decimal', () => {
    expect(bigIntToAddress(0n, 4)).toBe('0.0.0.0');
    expect(bigIntToAddress(0xc0000201n, 4)).toBe('192.0.2.1');
    expect(bigIntToAddress(0xffffffffn, 4)).toBe('255.255.255.255');
  });

  it('writes IPv6 in RFC 5952 form: lower case, no leading zeros, the longest zero run as ::', () => {
    expect(bigIntToAddress(0x20010db8000000000000000000000001n, 6)).toBe('2001:db8::1');
    expect(bigIntToAddress(1n, 6)).toBe('::1');
    expect(bigIntToAddress(0n, 6)).toBe('::');
    expect(bigIntToAddress(1n << 112n, 6)).toBe('1::');
    expect(bigIntToAddress(0x20010db8000000000001000000000001n, 6)).toBe('2001:db8::1:0:0:1');
    expect(bigIntToAddress(0x20010db800000000000000000000abcdn, 6)).toBe('2001:db8::abcd');
    expect(bigIntToAddress(0xfe800000000000000000000000000000n, 6)).toBe('fe80::');
  });

  it('does not compress a single zero group', () => {
    expect(bigIntToAddress(0x20010db8000000010001000100010001n, 6)).toBe('2001:db8:0:1:1:1:1:1');
    expect(bigIntToAddress(0x00010002000300040005000600070000n, 6)).toBe('1:2:3:4:5:6:7:0');
  });

  it('compresses the first of two equally long zero runs', () => {
    expect(bigIntToAddress(0x20010db8000000000001000000000001n, 6)).toBe('2001:db8::1:0:0:1');
    expect(bigIntToAddress(0x00000000000100010000000000010001n, 6)).toBe('::1:1:0:0:1:1');
  });

  it('prefers a longer zero run that comes later', () => {
    expect(bigIntToAddress(0x20010000000100000000000000000001n, 6)).toBe('2001:0:1::1');
  });

  it('writes full addresses without compression', () => {
    expect(bigIntToAddress((1n << 128n) - 1n, 6)).toBe('ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff');
  });

  it('round-trips with addressToBigInt', () => {
    for (const address of ['2001:db8::1', '::1', '::', 'fe80::1:2', '2001:db8:0:1:1:1:1:1', '1:2:3:4:5:6:7:8', '2001:db8:100::']) {
      expect(bigIntToAddress(addressToBigInt(address), 6)).toBe(address);
    }
  });
});

describe('cidrContains', () => {
  it('holds for addresses inside the network, from its first to its last', () => {
    const cidr = parseCidr('198.51.100.0/24');
    expect(cidrContains(cidr, '198.51.100.0')).toBe(true);
    expect(cidrContains(cidr, '198.51.100.1')).toBe(true);
    expect(cidrContains(cidr, '198.51.100.255')).toBe(true);
  });

  it('fails for addresses just outside', () => {
    const cidr = parseCidr('198.51.100.0/24');
    expect(cidrContains(cidr, '198.51.99.255')).toBe(false);
    expect(cidrContains(cidr, '198.51.101.0')).toBe(false);
    expect(cidrContains(parseCidr('192.0.2.4/30'), '192.0.2.8')).toBe(false);
  });

  it('works for IPv6', () => {
    const cidr = parseCidr('2001:db8:100::/64');
    expect(cidrContains(cidr, '2001:db8:100::1')).toBe(true);
    expect(cidrContains(cidr, '2001:db8:100:0:ffff:ffff:ffff:ffff')).toBe(true);
    expect(cidrContains(cidr, '2001:db8:100:1::')).toBe(false);
    expect(cidrContains(cidr, '2001:db8:ff::1')).toBe(false);
  });

  it('holds for everything of its family in a /0 and only the address itself in a full-length prefix', () => {
    expect(cidrContains(parseCidr('0.0.0.0/0'), '203.0.113.9')).toBe(true);
    expect(cidrContains(parseCidr('::/0'), '2001:db8::1')).toBe(true);
    expect(cidrContains(parseCidr('192.0.2.1/32'), '192.0.2.1')).toBe(true);
    expect(cidrContains(parseCidr('192.0.2.1/32'), '192.0.2.2')).toBe(false);
  });

  it('never holds for an address of the other family', () => {
    expect(cidrContains(parseCidr('10.0.0.0/8'), '::a00:1')).toBe(false);
    expect(cidrContains(parseCidr('0.0.0.0/0'), '::1')).toBe(false);
    expect(cidrContains(parseCidr('::/96'), '10.0.0.1')).toBe(false);
  });
});
