/**
 * Whether a packet would pass a guest's NIC, decided as the chains pve-firewall compiles from the
 * firewall files decide it (Firewall.pm: compile, compile_iptables_filter,
 * generate_tap_rules_direction, ruleset_create_vm_chain, ruleset_generate_vm_rules,
 * ipt_rule_to_cmds, compile_ipsets, compile_ebtables_filter, generate_tap_layer2filter and the
 * standard chains PVEFW-Drop, PVEFW-Reject, PVEFW-reject, PVEFW-smurfs). Each packet is a new
 * connection; the host firewall, security groups, the cluster's `blacklist` ipset, IPS and logging
 * take no part.
 */
import { addressValue, cleanCidr, IPSET_REF, macToLinkLocal, netIpRange, parseIpOrCidr, parsePortSpec, SCOPED_ALIAS, type AddressRange } from './firewall-address';
import { isIcmp, resolveAlias, type FwConf, type FwIpsetEntry, type FwRule } from './firewall-config';
import { ruleText } from './firewall-format';
import { findMacro, macroRules, protocolNumber } from './firewall-names';

export interface Packet {
  /** `in`: towards the guest; `out`: sent by the guest. */
  direction: 'in' | 'out';
  /** The guest's NIC (`net0`). */
  iface: string;
  /** An IP packet, or an ARP packet (its sender address in `source`). */
  kind: 'ip' | 'arp';
  source: string;
  dest?: string;
  /** The frame's source MAC; for a packet the guest sends, its NIC's MAC unless given. */
  sourceMac?: string;
  /** `tcp`, `udp`, `icmp`, `icmpv6` or another name or number of `/etc/protocols`. */
  protocol?: string;
  dport?: number;
  sport?: number;
  /** For ICMP: the type's name (`echo-request`). */
  icmpType?: string;
}

export interface Verdict {
  verdict: 'ACCEPT' | 'DROP' | 'REJECT';
  /** The check that decided: `cluster.enable`, `net0.firewall`, `smurfs`, `options.enable`, `options.dhcp`, `options.macfilter`, `options.radv`, `ipfilter-net0`, `options.ndp`, `rule <pos>`, `policy_in`, `policy_out`, `ebtables`. */
  because: string;
  detail: string;
}

/** What the decision reads: the cluster's and the guest's firewall files and the guest's NICs. */
interface FirewallView {
  cluster: FwConf;
  guest: FwConf;
  /** Each `netN` of the guest's config: its MAC and whether it carries `firewall=1`. */
  nics: Record<string, { mac?: string; firewall: boolean }>;
}

type Action = Verdict['verdict'];

/** An option pve-firewall reads as on unless it is set to 0 (`!(defined($x) && $x == 0)`). */
const onUnlessZero = (value: string | number | undefined): boolean => !(value !== undefined && Number(value) === 0);

const versionOf = (address: string): 4 | 6 | undefined => addressValue(address)?.version;

/** A set as the kernel's `hash:net` with `nomatch` entries matches: the most specific entry decides. */
function inSet(entries: { range: AddressRange; nomatch: boolean }[], address: string): boolean {
  const a = addressValue(address);
  if (!a) return false;
  let best: { size: bigint; nomatch: boolean } | undefined;
  for (const e of entries) {
    if (e.range.version !== a.version || a.value < e.range.first || a.value > e.range.last) continue;
    const size = e.range.last - e.range.first;
    if (!best || size < best.size) best = { size, nomatch: e.nomatch };
  }
  return best !== undefined && !best.nomatch;
}

class RuleNotGenerated extends Error {}

/** generate_ipset_chains: an ipset's entries (errors left out, aliases resolved), a NIC's own link-local address added to its `ipfilter-netN`. */
function ipsetEntries(view: FirewallView, entries: FwIpsetEntry[], owner: FwConf, name: string): { range: AddressRange; nomatch: boolean }[] {
  const nic = /^ipfilter-(net\d+)$/.exec(name)?.[1];
  const own = owner === view.guest && nic !== undefined ? deviceAddresses(view, nic) : [];
  const out: { range: AddressRange; nomatch: boolean }[] = [];
  for (const entry of [...entries, ...own]) {
    if (entry.errors) continue;
    try {
      const alias = SCOPED_ALIAS.exec(entry.cidr);
      const cidr = alias ? resolveAlias(owner === view.guest ? view.guest : undefined, view.cluster, alias[2] as string, alias[1] ?? '').cidr : parseIpOrCidr(entry.cidr).cidr;
      const range = netIpRange(cleanCidr(cidr));
      if (typeof range !== 'string') out.push({ range, nomatch: entry.nomatch === 1 });
    } catch {
      // pve-firewall only warns about an entry it cannot resolve
    }
  }
  return out;
}

/** compile_ipsets' device addresses: the link-local address of the NIC's MAC, and no other of fe80::/10. */
function deviceAddresses(view: FirewallView, nic: string): FwIpsetEntry[] {
  const { mac, firewall } = view.nics[nic] ?? { firewall: false };
  return firewall && mac ? [{ cidr: macToLinkLocal(mac) }, { cidr: 'fe80::/10', nomatch: 1 }] : [];
}

/** ipt_gen_src_or_dst_match: whether an address matches a rule's `source` or `dest`; throws when pve-firewall could not generate the rule. */
function addressMatches(view: FirewallView, spec: string, address: string): boolean {
  const ref = IPSET_REF.exec(spec);
  if (spec.startsWith('+')) {
    if (!ref) throw new RuleNotGenerated(`invalid security group name '${spec}'`);
    const scope = ref[1] ?? '';
    const name = ref[2] as string;
    const guestSet = !scope || scope === 'guest/' ? view.guest.ipsets.get(name) : undefined;
    const clusterSet = !guestSet && (!scope || scope === 'dc/') ? view.cluster.ipsets.get(name) : undefined;
    const entries = guestSet ?? clusterSet;
    if (!entries) throw new RuleNotGenerated(`no such ipset '${name}'`);
    return inSet(ipsetEntries(view, entries, guestSet ? view.guest : view.cluster, name), address);
  }
  const alias = SCOPED_ALIAS.exec(spec);
  const text = alias ? resolveAlias(view.guest, view.cluster, alias[2] as string, alias[1] ?? '').cidr : spec;
  const a = addressValue(address);
  return text.split(',').some((element) => {
    const range = netIpRange(element.includes('-') ? element : cleanCidr(element));
    return a !== undefined && typeof range !== 'string' && range.version === a.version && a.value >= range.first && a.value <= range.last;
  });
}

function portMatches(spec: string, port: number | undefined): boolean {
  return port !== undefined && parsePortSpec(spec, false).some((p) => typeof p !== 'string' && port >= p[0] && port <= p[1]);
}

/** The parts of ipt_rule_to_cmds a packet meets: addresses, protocol, ICMP type, ports. */
function ruleMatches(view: FirewallView, rule: FwRule, packet: Packet): boolean {
  if (rule.source && !addressMatches(view, rule.source, packet.source)) return false;
  if (rule.dest && (packet.dest === undefined || !addressMatches(view, rule.dest, packet.dest))) return false;
  if (!rule.proto) return true;
  if (protocolNumber(rule.proto) !== protocolNumber(packet.protocol ?? '')) return false;
  if (isIcmp(rule.proto)) {
    const type = rule['icmp-type'] ?? rule.dport;
    return type === undefined || type === 'any' || type === packet.icmpType;
  }
  if (rule.dport && !portMatches(rule.dport, packet.dport)) return false;
  return !rule.sport || portMatches(rule.sport, packet.sport);
}

/** A rule as the chain holds it: a macro's rules in its place (apply_macro), for the packet's IP version. */
function expand(rule: FwRule, version: 4 | 6): FwRule[] {
  const macro = rule.macro ? findMacro(rule.macro) : undefined;
  if (!macro) return [rule];
  return macroRules(macro, version).map(({ proto, dport, sport }) => ({ ...rule, proto, ...(dport !== undefined ? { dport } : {}), ...(sport !== undefined ? { sport } : {}) }));
}

const isMulticast = (address: string | undefined, version: 4 | 6): boolean =>
  address !== undefined && inSet([{ range: netIpRange(version === 4 ? '224.0.0.0/4' : 'ff00::/8') as AddressRange, nomatch: false }], address);
const isBroadcast = (address: string | undefined): boolean => address === '255.255.255.255';

/** PVEFW-reject: what a REJECT becomes (ICMP and broadcasts are dropped instead). */
function reject(packet: Packet, version: 4 | 6): Action {
  if (version === 4 && (isBroadcast(packet.dest) || isMulticast(packet.source, 4))) return 'DROP';
  if (isIcmp(packet.protocol)) return 'DROP';
  return 'REJECT';
}

/** Critical ICMP types PVEFW-Drop and PVEFW-Reject accept. */
const CRITICAL_ICMP: Record<4 | 6, string[]> = { 4: ['fragmentation-needed', 'time-exceeded'], 6: ['destination-unreachable', 'time-exceeded', 'packet-too-big'] };
/** Microsoft SMB noise PVEFW-Drop drops and PVEFW-Reject rejects. */
const SMB_NOISE: { proto: string; dport: string; sport?: string }[] = [
  { proto: 'udp', dport: '135,445' },
  { proto: 'udp', dport: '137:139' },
  { proto: 'udp', dport: '1024:65535', sport: '137' },
  { proto: 'tcp', dport: '135,139,445' },
];

/** ruleset_add_chain_policy: a DROP or REJECT policy runs PVEFW-Drop or PVEFW-Reject before its final DROP or REJECT. */
function policy(name: string, packet: Packet, version: 4 | 6): { action: Action; detail: string } {
  if (name === 'ACCEPT') return { action: 'ACCEPT', detail: name };
  const proto = packet.protocol;
  const chain = name === 'DROP' ? 'PVEFW-Drop' : 'PVEFW-Reject';
  if (version === 6 && proto === 'tcp' && packet.dport === 43) return { action: reject(packet, version), detail: `${name} (${chain} rejects tcp/43 over IPv6)` };
  if ((version === 4 && (isBroadcast(packet.dest) || isMulticast(packet.dest, 4))) || (version === 6 && isMulticast(packet.dest, 6))) {
    return { action: 'DROP', detail: `${name} (${chain} drops broadcast and multicast)` };
  }
  if (isIcmp(proto) && packet.icmpType !== undefined && CRITICAL_ICMP[version].includes(packet.icmpType)) {
    return { action: 'ACCEPT', detail: `${name} (${chain} accepts ICMP ${packet.icmpType})` };
  }
  const smb = SMB_NOISE.some((n) => n.proto === proto && portMatches(n.dport, packet.dport) && (n.sport === undefined || portMatches(n.sport, packet.sport)));
  if ((proto === 'udp' && (packet.dport === 1900 || packet.sport === 53)) || (smb && name === 'DROP')) {
    return { action: 'DROP', detail: `${name} (${chain} drops it without logging)` };
  }
  return { action: name === 'DROP' ? 'DROP' : reject(packet, version), detail: name };
}

/**
 * The verdict on a packet at a guest's NIC: the cluster switch, the NIC's `firewall=1`, the
 * guest's `enable`, then the chain of its direction in pve-firewall's order (for a packet the
 * guest sends: DHCP, MAC filter, router advertisements, IP filter, NDP; for one it receives:
 * smurfs, DHCP, NDP), its rules in order, and its policy. ARP from the guest meets the MAC filter
 * and the ARP filter of ebtables.
 */
export function judgePacket(view: FirewallView, packet: Packet): Verdict {
  const decide = (verdict: Action, because: string, detail: string): Verdict => ({ verdict, because, detail });
  const options = view.guest.options;
  const nic = view.nics[packet.iface] ?? { firewall: false };
  if (!Number(view.cluster.options.enable ?? 0)) return decide('ACCEPT', 'cluster.enable', 'the cluster firewall is off: no rule is compiled');
  if (!nic.firewall) return decide('ACCEPT', `${packet.iface}.firewall`, `${packet.iface} has no firewall=1: its traffic bypasses the firewall bridge`);
  const version = versionOf(packet.source) as 4 | 6;
  if (packet.kind === 'ip' && packet.direction === 'in' && version === 4 && packet.source !== '0.0.0.0' && (isBroadcast(packet.source) || isMulticast(packet.source, 4))) {
    return decide('DROP', 'smurfs', `a broadcast or multicast source (${packet.source}) is dropped by PVEFW-smurfs`);
  }
  if (!Number(options.enable ?? 0)) return decide('ACCEPT', 'options.enable', "the guest's firewall is off");
  const mac = nic.mac?.toLowerCase();
  const sourceMac = (packet.sourceMac ?? (packet.direction === 'out' ? nic.mac : undefined))?.toLowerCase();
  const macfilter = onUnlessZero(options.macfilter) && mac !== undefined;
  const ipfilterName = `ipfilter-${packet.iface}`;
  const ipfilterSet = view.guest.ipsets.get(ipfilterName);

  if (packet.kind === 'arp') return judgeArp(view, packet, { macfilter, mac, sourceMac, ipfilterName, ipfilterSet });

  const proto = packet.protocol;
  const udp = (sport: number, dport: number): boolean => proto === 'udp' && packet.sport === sport && packet.dport === dport;
  const icmpv6 = (type: string): boolean => version === 6 && (proto === 'icmpv6' || proto === 'ipv6-icmp') && packet.icmpType === type;
  const out = packet.direction === 'out';
  if (onUnlessZero(options.dhcp) && (version === 4 ? udp(out ? 68 : 67, out ? 67 : 68) : udp(out ? 546 : 547, out ? 547 : 546))) {
    return decide('ACCEPT', 'options.dhcp', 'DHCP is allowed unless dhcp is 0');
  }
  if (out) {
    if (macfilter && sourceMac !== mac) return decide('DROP', 'options.macfilter', `source MAC ${packet.sourceMac} is not ${packet.iface}'s ${nic.mac}`);
    if (version === 6 && !Number(options.radv ?? 0) && icmpv6('router-advertisement')) return decide('DROP', 'options.radv', 'router advertisements need radv');
    if (Number(options.ipfilter ?? 0) || ipfilterSet) {
      const entries = ipsetEntries(view, ipfilterSet ?? [], view.guest, ipfilterName);
      if (!inSet(entries, packet.source)) return decide('DROP', ipfilterName, `source ${packet.source} is not in ${ipfilterName}`);
    }
  }
  const ndpTypes = ['router-solicitation', ...(!out || Number(options.radv ?? 0) ? ['router-advertisement'] : []), 'neighbor-solicitation', 'neighbor-advertisement'];
  if (onUnlessZero(options.ndp) && ndpTypes.some(icmpv6)) return decide('ACCEPT', 'options.ndp', 'neighbor discovery is allowed unless ndp is 0');

  for (const [pos, rule] of view.guest.rules.entries()) {
    if ((rule.iface && rule.iface !== packet.iface) || !rule.enable || rule.errors || (rule.ipversion && rule.ipversion !== version)) continue;
    if (rule.type !== packet.direction) continue;
    let matched: boolean;
    try {
      matched = expand(rule, version).some((r) => ruleMatches(view, r, packet));
    } catch {
      // a rule pve-firewall fails to compile (an alias or ipset it cannot resolve) is left out
      continue;
    }
    if (!matched) continue;
    const action = rule.action === 'REJECT' ? reject(packet, version) : (rule.action as Action);
    return decide(action, `rule ${pos}`, ruleText(rule));
  }
  const policyName = out ? 'policy_out' : 'policy_in';
  const chosen = String(options[policyName] ?? (out ? 'ACCEPT' : 'DROP'));
  const { action, detail } = policy(chosen, packet, version);
  return decide(action, policyName, `${policyName} ${detail}`);
}

/** compile_ebtables_filter / generate_tap_layer2filter for an ARP packet. */
function judgeArp(
  view: FirewallView,
  packet: Packet,
  o: { macfilter: boolean; mac?: string; sourceMac?: string; ipfilterName: string; ipfilterSet?: FwIpsetEntry[] },
): Verdict {
  const decide = (verdict: Action, because: string, detail: string): Verdict => ({ verdict, because, detail });
  if (packet.direction === 'in') return decide('ACCEPT', 'ebtables', 'ebtables filters ARP only from the guest');
  if (!onUnlessZero(view.cluster.options.ebtables)) return decide('ACCEPT', 'ebtables', 'the cluster has ebtables off');
  const arpAddresses: string[] = [];
  try {
    for (const entry of o.ipfilterSet ?? []) {
      const { cidr, ipversion } = parseIpOrCidr(entry.cidr);
      if (ipversion === 4) arpAddresses.push(cidr);
    }
  } catch {
    return decide('ACCEPT', 'ebtables', `${o.ipfilterName} names an alias: pve-firewall generates no ebtables rules for this guest`);
  }
  if (o.macfilter && o.sourceMac !== o.mac) return decide('DROP', 'options.macfilter', `source MAC ${packet.sourceMac} is not ${packet.iface}'s`);
  if (arpAddresses.length > 0 && !addressMatches(view, arpAddresses.join(','), packet.source)) {
    return decide('DROP', o.ipfilterName, `ARP from ${packet.source}, which is not in ${o.ipfilterName}`);
  }
  return decide('ACCEPT', 'ebtables', 'ebtables lets it pass');
}
