import { describe, expect, it } from 'vitest';
import { antiSpoofingOptionChanges, canonicalEntry, ipfilterEntries, ipsetChanges, withFirewallFlag } from '../../src/domain/anti-spoofing';

describe('the anti-spoofing ipset of a server', () => {
  it('holds each address as Proxmox reads it back: no /32 or /128, IPv6 compressed in lower case', () => {
    expect(ipfilterEntries([{ address: '198.51.100.7' }, { address: '2001:DB8:0:0:0:0:0:7' }])).toEqual(['198.51.100.7', '2001:db8::7']);
  });

  it('keeps a routed prefix as a network with its host bits cleared', () => {
    expect(canonicalEntry('2001:db8:1:2::5/64')).toBe('2001:db8:1:2::/64');
    expect(canonicalEntry('10.0.0.5/24')).toBe('10.0.0.0/24');
    expect(canonicalEntry('10.0.0.5/32')).toBe('10.0.0.5');
  });

  it('adds what is missing and removes what is not the server’s, a nomatch entry and an alias included', () => {
    const current = [{ cidr: '198.51.100.7' }, { cidr: '198.51.100.8' }, { cidr: '2001:db8::7', nomatch: 1 }, { cidr: 'dc/neighbour' }];
    expect(ipsetChanges(current, ['198.51.100.7', '2001:db8::7'])).toEqual({ add: ['2001:db8::7'], remove: ['198.51.100.8', '2001:db8::7', 'dc/neighbour'] });
  });

  it('changes nothing when the set already holds exactly the server’s addresses', () => {
    expect(ipsetChanges([{ cidr: '2001:db8::7' }, { cidr: '198.51.100.7' }], ['198.51.100.7', '2001:db8::7'])).toEqual({ add: [], remove: [] });
  });
});

describe('the anti-spoofing firewall options of a server', () => {
  it('switch the firewall, the IP filter and the MAC filter on, and accept inbound traffic when no policy is set', () => {
    expect(antiSpoofingOptionChanges({})).toEqual({ enable: 1, ipfilter: 1, macfilter: 1, policy_in: 'ACCEPT' });
  });

  it('leave an inbound policy the guest already has', () => {
    expect(antiSpoofingOptionChanges({ enable: 1, ipfilter: 0, macfilter: 1, policy_in: 'DROP' })).toEqual({ ipfilter: 1 });
  });

  it('are nothing to write when they hold', () => {
    expect(antiSpoofingOptionChanges({ enable: 1, ipfilter: 1, macfilter: 1, policy_in: 'ACCEPT', digest: 'x' })).toEqual({});
  });
});

describe('the NIC of a server', () => {
  it('carries firewall=1, everything else on its line kept', () => {
    expect(withFirewallFlag('virtio=BC:24:11:00:00:01,bridge=vmbr0,firewall=0,tag=20')).toBe('virtio=BC:24:11:00:00:01,bridge=vmbr0,tag=20,firewall=1');
    expect(withFirewallFlag('virtio=BC:24:11:00:00:01,bridge=vmbr0')).toBe('virtio=BC:24:11:00:00:01,bridge=vmbr0,firewall=1');
  });
});
