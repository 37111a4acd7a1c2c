/**
 * Firewall configuration files as pve-firewall keeps them (`/etc/pve/firewall/<vmid>.fw`,
 * `cluster.fw`): what a parsed file holds and the names Firewall.pm gives its parts. Reading one
 * is firewall-parse.ts, writing it back and the API's digests firewall-format.ts, checking a rule
 * firewall-rules.ts. Every API write goes through the file text, so what a client reads back is
 * what Proxmox would read back (names lower-cased, `/32` dropped, entries sorted, a rule's
 * `enable` always set).
 */
import { SimHttpError } from './call';

export interface FwRule {
  type: string;
  action: string;
  enable?: number;
  macro?: string;
  iface?: string;
  source?: string;
  dest?: string;
  proto?: string;
  dport?: string;
  sport?: string;
  log?: string;
  'icmp-type'?: string;
  comment?: string;
  /** Set by verify_rule when the addresses or protocol fix it. */
  ipversion?: number;
  /** What verify_rule found wrong with a rule read from the file (it takes no part in the firewall). */
  errors?: Record<string, string>;
}

export interface FwIpsetEntry {
  cidr: string;
  nomatch?: number;
  comment?: string;
  errors?: Record<string, string>;
}

export interface FwAlias {
  name: string;
  cidr: string;
  ipversion: 4 | 6;
  comment?: string;
}

/** One firewall file, parsed. */
export interface FwConf {
  options: Record<string, string | number>;
  /** By lower-cased name. */
  aliases: Map<string, FwAlias>;
  /** By name (lower-cased when read). */
  ipsets: Map<string, FwIpsetEntry[]>;
  ipsetComments: Map<string, string>;
  rules: FwRule[];
}

/** Rule properties an API call may set (Firewall.pm `$rule_properties`). */
export const RULE_PROPERTIES = ['pos', 'digest', 'type', 'action', 'macro', 'iface', 'source', 'dest', 'proto', 'enable', 'log', 'sport', 'dport', 'comment', 'icmp-type'] as const;
/** What a VM's `[OPTIONS]` may hold through the API (`$vm_option_properties`). */
export const VM_OPTIONS = ['enable', 'macfilter', 'dhcp', 'ndp', 'radv', 'ipfilter', 'policy_in', 'policy_out', 'log_level_in', 'log_level_out'] as const;
/** What the cluster's `[OPTIONS]` may hold through the API (`$cluster_option_properties`). */
export const CLUSTER_OPTIONS = ['enable', 'ebtables', 'policy_in', 'policy_out', 'policy_forward', 'log_ratelimit'] as const;

/** Protocols whose rules may name ports (`$PROTOCOLS_WITH_PORTS`). */
export const PROTOCOLS_WITH_PORTS = new Set(['udp', '17', 'udplite', '136', 'tcp', '6', 'dccp', '33', 'sctp', '132']);
export const isIcmp = (proto: string | undefined): boolean => proto === 'icmp' || proto === 'icmpv6' || proto === 'ipv6-icmp';

/** Perl's truth of a string: neither empty nor "0". */
export const perlTrue = (value: string | number | undefined): value is string | number => value !== undefined && value !== '' && value !== '0' && value !== 0;

export type RuleEnv = 'vm' | 'cluster';

/** resolve_alias: an alias of the guest, then of the cluster (a scope picks one); throws "no such alias". */
export function resolveAlias(conf: FwConf | undefined, cluster: FwConf | undefined, name: string, scope: string): FwAlias {
  const key = name.toLowerCase();
  const found = (scope !== 'dc/' ? conf?.aliases.get(key) : undefined) ?? (scope !== 'guest/' ? cluster?.aliases.get(key) : undefined);
  if (!found) throw new Error(`no such alias '${name}'`);
  return found;
}

export const paramError = (param: string, message: string): SimHttpError => new SimHttpError(400, 'Parameter verification failed.', { [param]: message });
