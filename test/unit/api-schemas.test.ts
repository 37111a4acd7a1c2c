import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, pageOf } from '../../src/api/openapi';
import { createConnectionSchema, TOKEN_ID_PATTERN } from '../../src/api/schemas/connections';
import { createIpPoolSchema } from '../../src/api/schemas/ip-pools';
import { networksOverlap, parseNetwork } from '../../src/net/pool-networks';
import { canonicalAddress } from '../../src/net/ip';
import { createUserSchema } from '../../src/api/schemas/identity';
import { AppError } from '../../src/domain/errors';

describe('networks', () => {
  it('parses IPv4 and IPv6 CIDRs into canonical form and notices host bits', () => {
    expect(parseNetwork('198.51.100.0/24')).toMatchObject({ family: 4, prefix: 24, cidr: '198.51.100.0/24', exact: true });
    expect(parseNetwork('198.51.100.77/24')).toMatchObject({ cidr: '198.51.100.0/24', exact: false });
    expect(parseNetwork('2001:0DB8:0100:0000::/64')).toMatchObject({ family: 6, cidr: '2001:db8:100::/64', exact: true });
    expect(parseNetwork('2001:db8::1/64')).toMatchObject({ cidr: '2001:db8::/64', exact: false });
    expect(parseNetwork('::/0')).toMatchObject({ cidr: '::/0', exact: true });
    for (const bad of ['198.51.100.0', '198.51.100.0/33', '2001:db8::/129', '198.51.100/24', 'x/24', '198.51.100.0/-1', '']) {
      expect(parseNetwork(bad), bad).toBeUndefined();
    }
  });

  it('detects overlap within one family only', () => {
    const a = parseNetwork('10.0.0.0/16')!;
    expect(networksOverlap(a, parseNetwork('10.0.5.0/24')!)).toBe(true);
    expect(networksOverlap(parseNetwork('10.0.5.0/24')!, a)).toBe(true);
    expect(networksOverlap(a, parseNetwork('10.1.0.0/16')!)).toBe(false);
    expect(networksOverlap(parseNetwork('2001:db8::/48')!, parseNetwork('2001:db8:0:1::/64')!)).toBe(true);
    expect(networksOverlap(parseNetwork('::/0')!, a)).toBe(false);
  });

  it('writes addresses in RFC 5952 form', () => {
    expect(canonicalAddress('2001:0db8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
    expect(canonicalAddress('2001:db8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1');
    expect(canonicalAddress('::ffff:192.0.2.1')).toBe('::ffff:c000:201');
    expect(canonicalAddress('192.0.2.1')).toBe('192.0.2.1');
  });

  it('accepts a pool whose gateway is a host inside the network', () => {
    expect(createIpPoolSchema.safeParse({ cidr: '2001:db8:100::/64', gateway: '2001:db8:100::1', bridge: 'vmbr0', dns: [], family: 6 }).success).toBe(true);
    expect(createIpPoolSchema.safeParse({ cidr: '10.0.0.0/30', gateway: '10.0.0.2', bridge: 'vmbr0', dns: ['10.0.0.1'], family: 4 }).success).toBe(true);
    expect(createIpPoolSchema.safeParse({ cidr: '10.0.0.0/31', gateway: '10.0.0.1', bridge: 'vmbr0', dns: [], family: 4 }).success).toBe(false);
  });
});

describe('identity and connection schemas', () => {
  it('knows Proxmox VE token ids', () => {
    for (const good of ['root@pam!controlplane', 'svc.cp@pve!prov-1', 'ops@ldap-corp!a_b.c']) expect(TOKEN_ID_PATTERN.test(good), good).toBe(true);
    for (const bad of ['root@pam', 'root!token', '@pam!t', 'root@pam!1abc', 'ro ot@pam!t', 'root@pam!t!u']) expect(TOKEN_ID_PATTERN.test(bad), bad).toBe(false);
  });

  it('does not throw on a URL it cannot parse', () => {
    const result = createConnectionSchema.safeParse({ name: 'c', url: 'not a url', tokenId: 'root@pam!t', tokenSecret: 's', vmidRange: { start: 100, end: 200 }, nodes: [{ name: 'n', vcpus: 1, memoryMiB: 1024, diskGiB: 1 }] });
    expect(result.success).toBe(false);
  });

  it('lowercases emails and ties tenants to customers', () => {
    expect(createUserSchema.parse({ tenantId: 'ten_x', email: 'A@B.example', role: 'customer' }).email).toBe('a@b.example');
    expect(createUserSchema.safeParse({ email: 'a@b.example', role: 'customer' }).success).toBe(false);
    expect(createUserSchema.safeParse({ tenantId: null, email: 'a@b.example', role: 'admin' }).success).toBe(true);
  });
});

describe('cursors', () => {
  it('round-trips and pages with one extra row', () => {
    const rows = [3, 2, 1].map((n) => ({ id: `x_${n}`, createdAt: new Date(Date.UTC(2026, 0, n)) }));
    const page = pageOf(rows, 2);
    expect(page.items).toHaveLength(2);
    expect(decodeCursor(page.meta.nextCursor!)).toEqual({ id: 'x_2', createdAt: rows[1]!.createdAt });
    expect(pageOf(rows, 3).meta).toEqual({});
    expect(encodeCursor(rows[0]!)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('rejects a forged cursor as INVALID_INPUT', () => {
    for (const bad of ['!!!', Buffer.from('{"a":1}').toString('base64url'), Buffer.from('["not a date","x"]').toString('base64url'), Buffer.from('["2026-01-01T00:00:00Z",5]').toString('base64url')]) {
      expect(() => decodeCursor(bad)).toThrow(AppError);
    }
  });
});
