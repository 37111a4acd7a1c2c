/**
 * A server's inbound firewall as customers write it, and the Proxmox VE rules it compiles to.
 * Groups are compiled into each guest's own rules: Proxmox's cluster security groups would need
 * `Sys.Modify` on `/`, which the connection's token must not hold.
 */
import ipaddr from 'ipaddr.js';

/** At most this many rules per server (its groups' rules counted in) and per group. */
export const MAX_FIREWALL_RULES = 64;
/** At most this many sources per rule. */
export const MAX_RULE_SOURCES = 20;
export const MAX_RULE_COMMENT = 120;

export type FirewallAction = 'accept' | 'drop';
export type FirewallProtocol = 'tcp' | 'udp' | 'icmp' | 'any';

export interface FirewallRule {
  action: FirewallAction;
  protocol: FirewallProtocol;
  /** `443` or `8000-8100`; tcp and udp only. */
  port?: string;
  /** CIDRs or addresses; empty: from anywhere. */
  sources: string[];
  comment: string;
}

/** An entry of a server's list: a rule of its own, or a group's rules in its place. */
export type FirewallEntry = FirewallRule | { group: string };

export interface FirewallSpec {
  inboundPolicy: FirewallAction;
  rules: FirewallEntry[];
}

export const isGroupEntry = (entry: FirewallEntry): entry is { group: string } => 'group' in entry;

/** Why a source is not a CIDR or address, or undefined when it is one (in the canonical spelling `canonicalSource` gives). */
export function sourceProblem(text: string): string | undefined {
  if (text.includes('/')) {
    if (!ipaddr.isValidCIDR(text)) return 'not a CIDR';
    const [address, prefix] = ipaddr.parseCIDR(text);
    const network = address.kind() === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(text) : ipaddr.IPv6.networkAddressFromCIDR(text);
    if (network.toString() !== address.toString()) return `host bits set: the network is ${network.toString()}/${prefix}`;
    return undefined;
  }
  return ipaddr.isValid(text) ? undefined : 'not an IP address or CIDR';
}

/** A valid source as it is stored and written to Proxmox: the address in its shortest form. */
export function canonicalSource(text: string): string {
  if (!text.includes('/')) return ipaddr.parse(text).toString();
  const [address, prefix] = ipaddr.parseCIDR(text);
  return `${address.toString()}/${prefix}`;
}

const sourceFamily = (source: string): 4 | 6 => (ipaddr.parse(source.split('/')[0] as string).kind() === 'ipv4' ? 4 : 6);

/** Why a port is not `n` or `from-to` within 1–65535, or undefined when it is. */
export function portProblem(text: string): string | undefined {
  const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(text);
  if (!m) return 'a port (443) or a range (8000-8100)';
  const from = Number(m[1]);
  const to = m[2] === undefined ? from : Number(m[2]);
  if (from < 1 || to > 65535) return 'ports are 1-65535';
  if (from > to) return 'a range goes from the lower port to the higher';
  return undefined;
}

/** A rule's problems by field (relative to the rule), beyond its shape. */
export function ruleProblems(rule: FirewallRule): Record<string, string> {
  const problems: Record<string, string> = {};
  if (rule.port !== undefined) {
    if (rule.protocol !== 'tcp' && rule.protocol !== 'udp') problems.port = 'only tcp and udp rules have ports';
    else {
      const problem = portProblem(rule.port);
      if (problem) problems.port = problem;
    }
  }
  rule.sources.forEach((source, i) => {
    const problem = sourceProblem(source);
    if (problem) problems[`sources.${i}`] = problem;
  });
  if (/[\r\n#]/.test(rule.comment)) problems.comment = 'one line, without #';
  return problems;
}

/** What marks a Proxmox rule as written by us; the rest of the comment says where it came from. */
export const RULE_MARKER = 'pvecp';

/** A rule as Proxmox VE holds it in a guest's rule list, with the properties we write. */
export interface ProxmoxRule {
  type: 'in';
  action: 'ACCEPT' | 'DROP';
  proto?: string;
  dport?: string;
  source?: string;
  comment: string;
  enable: 1;
}

const markedComment = (comment: string, groupId?: string) => `${RULE_MARKER}${groupId ? ` ${groupId}` : ''}:${comment ? ` ${comment}` : ''}`;

/** Whether a rule's comment carries our marker. */
export const isOurRule = (comment: string | undefined): boolean => comment !== undefined && new RegExp(`^${RULE_MARKER}( fwg_[a-z0-9]+)?:`).test(comment);

/**
 * One customer rule as Proxmox rules: Proxmox refuses a rule mixing IPv4 and IPv6 sources, and
 * its `icmp` is ICMPv4 only, so a rule may become one rule per address family.
 */
function compileRule(rule: FirewallRule, groupId?: string): ProxmoxRule[] {
  const base = { type: 'in' as const, action: rule.action === 'accept' ? ('ACCEPT' as const) : ('DROP' as const), comment: markedComment(rule.comment, groupId), enable: 1 as const };
  const families = rule.sources.length === 0 ? [undefined] : ([4, 6] as const).filter((f) => rule.sources.some((s) => sourceFamily(s) === f));
  const out: ProxmoxRule[] = [];
  for (const family of families) {
    const sources = family === undefined ? [] : rule.sources.filter((s) => sourceFamily(s) === family);
    const source = sources.length > 0 ? { source: sources.join(',') } : {};
    if (rule.protocol === 'icmp') {
      if (family !== 6) out.push({ ...base, proto: 'icmp', ...source });
      if (family !== 4) out.push({ ...base, proto: 'ipv6-icmp', ...source });
    } else if (rule.protocol === 'any') {
      out.push({ ...base, ...source });
    } else {
      out.push({ ...base, proto: rule.protocol, ...(rule.port ? { dport: rule.port.replace('-', ':') } : {}), ...source });
    }
  }
  return out;
}

/** The server's entries with each group's rules in its place (an unknown group contributes nothing). */
export function expandEntries(rules: FirewallEntry[], groups: ReadonlyMap<string, FirewallRule[]>): { rule: FirewallRule; groupId?: string }[] {
  return rules.flatMap((entry) => (isGroupEntry(entry) ? (groups.get(entry.group) ?? []).map((rule) => ({ rule, groupId: entry.group })) : [{ rule: entry }]));
}

/** The guest's whole rule list, in order. */
export function compileFirewall(spec: FirewallSpec, groups: ReadonlyMap<string, FirewallRule[]>): ProxmoxRule[] {
  return expandEntries(spec.rules, groups).flatMap(({ rule, groupId }) => compileRule(rule, groupId));
}

/** A rule as Proxmox answers it in a guest's rule list (the properties that decide what it does). */
export interface HeldRule {
  type?: string;
  action?: string;
  proto?: string;
  dport?: string;
  sport?: string;
  source?: string;
  dest?: string;
  macro?: string;
  iface?: string;
  comment?: string;
  enable?: number | string;
}

/** A rule's properties as they compare (Proxmox answers `enable` as a number, absent as disabled). */
export function ruleKey(rule: HeldRule): string {
  return JSON.stringify([rule.type, rule.action, rule.proto ?? '', rule.dport ?? '', rule.sport ?? '', rule.source ?? '', rule.dest ?? '', rule.macro ?? '', rule.iface ?? '', rule.comment ?? '', Number(rule.enable ?? 0)]);
}

/** The next write that brings Proxmox's rules one step closer to what we want; null when they agree. */
export type RuleStep = { op: 'delete'; pos: number } | { op: 'move'; from: number; to: number } | { op: 'insert'; at: number; rule: ProxmoxRule };

/**
 * The guest's rules as they should be: ours exactly as compiled, first and in order; rules
 * someone else wrote (no marker) kept after them in their own order. Converging one write at a
 * time, each against the list just read, the first position where they differ is fixed by
 * removing a rule not wanted from there on, moving a wanted one up from further down, or
 * inserting it. Every step fixes a position or shortens the list, so a retry after any crash
 * starts from what Proxmox holds and never duplicates a rule.
 */
export function nextRuleStep(held: HeldRule[], ours: ProxmoxRule[]): RuleStep | null {
  const heldKeys = held.map(ruleKey);
  const wanted: HeldRule[] = [...ours, ...held.filter((rule) => !isOurRule(rule.comment))];
  const wantedKeys = wanted.map(ruleKey);
  const n = Math.max(heldKeys.length, wantedKeys.length);
  for (let i = 0; i < n; i++) {
    const heldHere = heldKeys[i];
    if (heldHere === wantedKeys[i]) continue;
    if (heldHere !== undefined && !wantedKeys.slice(i).includes(heldHere)) return { op: 'delete', pos: i };
    if (i >= wantedKeys.length) return { op: 'delete', pos: i };
    const further = heldKeys.indexOf(wantedKeys[i] as string, i + 1);
    if (further > i) return { op: 'move', from: further, to: i };
    // Only our rules are ever missing: the others are the held ones.
    return { op: 'insert', at: i, rule: ours[i] as ProxmoxRule };
  }
  return null;
}
