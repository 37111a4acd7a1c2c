/**
 * Anti-spoofing, as Proxmox's firewall enforces it for one guest: with `ipfilter` on, packets the
 * guest sends from an address outside its ipset `ipfilter-net0` are dropped (and, for IPv4, ARP
 * for any other address); with `macfilter` on, frames from a MAC other than the NIC's. Proxmox
 * adds only the MAC-derived IPv6 link-local address by itself, so every address the server holds
 * is put in the set, and nothing else.
 */
import ipaddr from 'ipaddr.js';

/** The ipset pve-firewall reads for net0's IP filter (PVE::Firewall's `ipfilter-<iface>`). */
export const IPFILTER_IPSET = 'ipfilter-net0';

/** The guest firewall options anti-spoofing holds at these values. */
export const ANTI_SPOOFING_OPTIONS = { enable: 1, ipfilter: 1, macfilter: 1 } as const;

/**
 * Switching a guest's firewall on with no `policy_in` set makes it DROP every inbound packet: the
 * option is written as ACCEPT only when the guest sets none (a customer's inbound policy stands).
 */
export const INBOUND_POLICY_WHEN_UNSET = 'ACCEPT';

/** An entry of the set as Proxmox reads it back: a host address without its /32 or /128, IPv6 compressed in lower case. */
export function canonicalEntry(cidr: string): string {
  const [address, bits] = cidr.includes('/') ? ipaddr.parseCIDR(cidr) : [ipaddr.parse(cidr), undefined];
  if (bits === undefined || bits === (address.kind() === 'ipv4' ? 32 : 128)) return address.toString();
  const network = address.kind() === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(cidr) : ipaddr.IPv6.networkAddressFromCIDR(cidr);
  return `${network.toString()}/${bits}`;
}

/** The set a server's addresses make: each IPv4 address as /32, each IPv6 address as /128 (or a routed prefix as given). */
export function ipfilterEntries(addresses: readonly { address: string }[]): string[] {
  return [...new Set(addresses.map((a) => canonicalEntry(a.address)))].sort();
}

/** What turns the current set into exactly the wanted one: a `nomatch` entry or one we do not want goes, a wanted one missing comes. */
export function ipsetChanges(current: readonly { cidr: string; nomatch?: number }[], wanted: readonly string[]): { add: string[]; remove: string[] } {
  const wantedSet = new Set(wanted);
  const keep = new Set<string>();
  const remove: string[] = [];
  for (const entry of current) {
    const canonical = safeCanonical(entry.cidr);
    if (canonical !== null && wantedSet.has(canonical) && !entry.nomatch) keep.add(canonical);
    else remove.push(entry.cidr);
  }
  return { add: wanted.filter((cidr) => !keep.has(cidr)), remove };
}

/** An alias name (or anything else that is no address) is never one of ours. */
function safeCanonical(cidr: string): string | null {
  try {
    return canonicalEntry(cidr);
  } catch {
    return null;
  }
}

/** The options to write so that anti-spoofing holds, or an empty object when it already does. */
export function antiSpoofingOptionChanges(current: Readonly<Record<string, unknown>>): Record<string, string | number> {
  const changes: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(ANTI_SPOOFING_OPTIONS)) if (Number(current[key] ?? 0) !== value) changes[key] = value;
  if (current.policy_in === undefined) changes.policy_in = INBOUND_POLICY_WHEN_UNSET;
  return changes;
}

/** A `netN` line with `firewall=1`, every other part as it was (`virtio=…,bridge=vmbr0,firewall=0` → `…,firewall=1`). */
export function withFirewallFlag(line: string): string {
  const parts = line.split(',').filter((part) => !part.startsWith('firewall='));
  return [...parts, 'firewall=1'].join(',');
}
