/**
 * Firewall configuration files as pve-firewall keeps them (`/etc/pve/firewall/<vmid>.fw`,
 * `cluster.fw`): how Firewall.pm parses them (generic_fw_config_parser, parse_fw_rule,
 * parse_vmfw_option, parse_clusterfw_option, parse_alias), writes them back (save_vmfw_conf and
 * its format_* helpers), checks a rule (verify_rule) and computes the digests its API answers
 * with (copy_list_with_digest, copy_opject_with_digest). Every API write goes through the file
 * text, so what a client reads back is what Proxmox would read back (names lower-cased, `/32`
 * dropped, entries sorted, a rule's `enable` always set).
 */
import crypto from 'node:crypto';
import { fail, SimHttpError } from './call';
import { IPSET_REF, NAME_PATTERN, SCOPED_ALIAS, parseAddressList, parseIpOrCidr, parsePortSpec, verifyIpOrCidr, verifyIpOrCidrOrAlias } from './firewall-address';
import { ICMP_TYPE_NAMES, ICMPV6_TYPE_NAMES, findMacro, macroRules, protocolNumber } from './firewall-names';

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

interface FwAlias {
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
const PROTOCOLS_WITH_PORTS = new Set(['udp', '17', 'udplite', '136', 'tcp', '6', 'dccp', '33', 'sctp', '132']);
export const isIcmp = (proto: string | undefined): boolean => proto === 'icmp' || proto === 'icmpv6' || proto === 'ipv6-icmp';

/** Perl's truth of a string: neither empty nor "0". */
export const perlTrue = (value: string | number | undefined): value is string | number => value !== undefined && value !== '' && value !== '0' && value !== 0;

const emptyConf = (): FwConf => ({ options: {}, aliases: new Map(), ipsets: new Map(), ipsetComments: new Map(), rules: [] });

type RuleEnv = 'vm' | 'cluster';

const MAX_IPSET_NAME = 64;

/** parse_vmfw_option / parse_clusterfw_option: the option a line sets, or undefined when it cannot be read. */
function parseOption(line: string, env: RuleEnv, nowSeconds: number): [string, string | number] | undefined {
  const levels = 'emerg|alert|crit|err|warning|notice|info|debug|nolog';
  if (env === 'cluster') {
    let m = /^(enable):\s*(\d+)\s*$/i.exec(line);
    if (m) {
      const value = Number(m[2]);
      // `enable` set to a timestamp (the anti-lockout first call) lapses after a minute
      return ['enable', value > 1 && nowSeconds - value > 60 ? 0 : value];
    }
    m = /^(ebtables):\s*(0|1)\s*$/i.exec(line);
    if (m) return ['ebtables', Number(m[2])];
    m = /^(policy_(in|out|forward)):\s*(ACCEPT|DROP|REJECT)\s*$/i.exec(line);
    if (m) return [(m[1] as string).toLowerCase(), (m[3] as string).toUpperCase()];
    m = /^(log_ratelimit):\s*(\S+)\s*$/.exec(line);
    return m ? ['log_ratelimit', m[2] as string] : undefined;
  }
  let m = /^(enable|dhcp|ndp|radv|macfilter|ipfilter|ips):\s*(0|1)\s*$/i.exec(line);
  if (m) return [(m[1] as string).toLowerCase(), Number(m[2])];
  m = new RegExp(`^(log_level_in|log_level_out):\\s*((${levels})\\s*)?$`, 'i').exec(line);
  if (m) return [(m[1] as string).toLowerCase(), m[2] ? (m[3] as string).toLowerCase() : ''];
  m = /^(policy_(in|out)):\s*(ACCEPT|DROP|REJECT)\s*$/i.exec(line);
  return m ? [(m[1] as string).toLowerCase(), (m[3] as string).toUpperCase()] : undefined;
}

/** parse_fw_rule: a `[RULES]` line, checked (errors kept on the rule); throws when the line cannot be read. */
function parseRuleLine(text: string, conf: FwConf, cluster: FwConf | undefined): FwRule {
  let line = text;
  const rule: Partial<FwRule> = {};
  const comment = /#\s*(.*?)\s*$/.exec(line);
  if (comment) {
    rule.comment = comment[1] as string;
    line = line.slice(0, comment.index);
  }
  rule.enable = line.startsWith('|') ? 0 : 1;
  if (line.startsWith('|')) line = line.slice(1);
  const head = /^(\S+)\s+(\S+)\s*/.exec(line);
  if (!head) throw new Error(`unable to parse rule: ${line}`);
  line = line.slice(head[0].length);
  rule.type = (head[1] as string).toLowerCase();
  rule.action = head[2] as string;
  if (['in', 'out', 'forward'].includes(rule.type)) {
    const macro = /^(\S+)\((ACCEPT|DROP|REJECT)\)$/.exec(rule.action);
    if (macro) {
      rule.macro = macro[1] as string;
      rule.action = macro[2] as string;
    }
  }
  const options: [RegExp, keyof FwRule][] = [
    [/^(?:-p|--?proto) (\S+)\s*/, 'proto'],
    [/^--?dport (\S+)\s*/, 'dport'],
    [/^--?sport (\S+)\s*/, 'sport'],
    [/^--?source (\S+)\s*/, 'source'],
    [/^--?dest (\S+)\s*/, 'dest'],
    [/^--?log (emerg|alert|crit|err|warning|notice|info|debug|nolog)\s*/, 'log'],
    [/^--?icmp-type (\S+)\s*/, 'icmp-type'],
  ];
  while (line.length > 0) {
    const iface = /^-i (\S+)\s*/.exec(line);
    if (iface) {
      rule.iface = iface[1] as string;
      line = line.slice(iface[0].length);
      continue;
    }
    if (rule.type === 'group') break;
    const found = options.map(([re, key]) => [re.exec(line), key] as const).find(([m]) => m);
    if (!found) break;
    const [m, key] = found as [RegExpExecArray, keyof FwRule];
    (rule as Record<string, string>)[key] = m[1] as string;
    line = line.slice(m[0].length);
  }
  if (line.length > 0) throw new Error(`unable to parse rule parameters: ${line}`);
  return verifyRule(rule as FwRule, conf, cluster, 'vm', true);
}

/** parse_alias. */
function parseAliasLine(text: string): FwAlias | undefined {
  const comment = /\s*#\s*(.*?)\s*$/.exec(text);
  const line = comment ? text.slice(0, comment.index) : text;
  const m = /^(\S+)\s(\S+)$/.exec(line);
  if (!m) return undefined;
  const { cidr, ipversion } = parseIpOrCidr(m[2] as string);
  return { name: m[1] as string, cidr, ipversion, ...(comment && perlTrue(comment[1]) ? { comment: comment[1] } : {}) };
}

/** resolve_alias: an alias of the guest, then of the cluster (a scope picks one); throws "no such alias". */
export function resolveAlias(conf: FwConf | undefined, cluster: FwConf | undefined, name: string, scope: string): FwAlias {
  const key = name.toLowerCase();
  const found = (scope !== 'dc/' ? conf?.aliases.get(key) : undefined) ?? (scope !== 'guest/' ? cluster?.aliases.get(key) : undefined);
  if (!found) throw new Error(`no such alias '${name}'`);
  return found;
}

/** An `[IPSET]` line (generic_fw_config_parser's ipset section). */
function parseIpsetLine(text: string, conf: FwConf, cluster: FwConf | undefined, seen: Set<string>): FwIpsetEntry {
  const comment = /#\s*(.*?)\s*$/.exec(text);
  const line = comment ? text.slice(0, comment.index) : text;
  const m = /^(!)?\s*(\S+)\s*$/.exec(line);
  let cidr = m?.[2] ?? '';
  const errors: Record<string, string> = {};
  try {
    const alias = SCOPED_ALIAS.exec(cidr);
    if (alias) resolveAlias(conf, cluster, alias[2] as string, alias[1] ?? '');
    else cidr = parseIpOrCidr(cidr).cidr;
    if (seen.has(cidr)) throw new Error(`duplicate ipset entry for '${cidr}'`);
  } catch (e) {
    errors.cidr = (e as Error).message;
  }
  if (/\/0+$/.test(cidr)) errors.cidr = 'a zero prefix is not allowed in ipset entries\n';
  seen.add(cidr);
  return {
    cidr,
    ...(m?.[1] ? { nomatch: 1 } : {}),
    ...(comment && perlTrue(comment[1]) ? { comment: comment[1] } : {}),
    ...(Object.keys(errors).length > 0 ? { errors } : {}),
  };
}

/**
 * generic_fw_config_parser for a guest's file (`vm`) or the cluster's (`cluster`): lines it
 * cannot read are left out, as pve-firewall only logs them. `cluster` is the cluster's parsed
 * file, whose aliases and ipsets a guest's rules may name.
 */
export function parseFwConf(text: string, env: RuleEnv, cluster?: FwConf, nowSeconds = Math.floor(Date.now() / 1000)): FwConf {
  const conf = emptyConf();
  let section: 'options' | 'aliases' | 'rules' | 'ipset' | undefined;
  let ipset: FwIpsetEntry[] = [];
  let seen = new Set<string>();
  for (const raw of text.split('\n')) {
    const line = raw.replace(/^[ \t]+|[ \t\r]+$/g, '');
    if (line === '' || line.startsWith('#')) continue;
    if (/^\[options\]$/i.test(line)) section = 'options';
    else if (/^\[aliases\]$/i.test(line)) section = 'aliases';
    else if (/^\[rules\]$/i.test(line)) section = 'rules';
    else if (/^\[ipset\s+(\S+)\]\s*(?:#\s*(.*?)\s*)?$/i.test(line)) {
      const [, name, comment] = /^\[ipset\s+(\S+)\]\s*(?:#\s*(.*?)\s*)?$/i.exec(line) as RegExpExecArray;
      const lower = (name as string).toLowerCase();
      if (lower.length > MAX_IPSET_NAME || !NAME_PATTERN.test(lower)) {
        section = undefined;
        continue;
      }
      section = 'ipset';
      ipset = [];
      seen = new Set();
      conf.ipsets.set(lower, ipset);
      if (perlTrue(comment)) conf.ipsetComments.set(lower, comment);
    } else if (section === 'options') {
      const option = parseOption(line, env, nowSeconds);
      if (option) conf.options[option[0]] = option[1];
    } else if (section === 'aliases') {
      try {
        const alias = parseAliasLine(line);
        if (alias) conf.aliases.set(alias.name.toLowerCase(), alias);
      } catch {
        // an alias pve-firewall cannot read is only logged
      }
    } else if (section === 'rules') {
      try {
        conf.rules.push(parseRuleLine(line, conf, cluster));
      } catch {
        // likewise a rule
      }
    } else if (section === 'ipset') {
      ipset.push(parseIpsetLine(line, conf, cluster, seen));
    }
  }
  return conf;
}

const byString = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** format_rules: one line per rule. */
function formatRules(rules: FwRule[]): string {
  return rules
    .map((r) => {
      let line = (r.enable !== undefined && !perlTrue(r.enable) ? '|' : '') + r.type.toUpperCase();
      line += perlTrue(r.macro) ? ` ${r.macro}(${r.action})` : ` ${r.action}`;
      if (perlTrue(r.iface)) line += ` -i ${r.iface}`;
      if (r.type !== 'group') {
        if (perlTrue(r.source)) line += ` -source ${r.source}`;
        if (perlTrue(r.dest)) line += ` -dest ${r.dest}`;
        if (perlTrue(r.proto)) line += ` -p ${r.proto}`;
        if (perlTrue(r.dport)) line += ` -dport ${r.dport}`;
        if (perlTrue(r.sport)) line += ` -sport ${r.sport}`;
        if (perlTrue(r.log)) line += ` -log ${r.log}`;
        if (r['icmp-type'] !== undefined && r['icmp-type'] !== '') line += ` -icmp-type ${r['icmp-type']}`;
      }
      if (perlTrue(r.comment) && !/^\s*$/.test(r.comment)) line += ` # ${r.comment}`;
      return `${line}\n`;
    })
    .join('');
}

/** save_vmfw_conf (and save_clusterfw_conf, which adds security groups the simulator has none of): the file's text, empty for nothing. */
export function formatFwConf(conf: FwConf): string {
  let raw = '';
  const options = Object.entries(conf.options);
  if (options.length > 0) raw += `[OPTIONS]\n\n${options.map(([k, v]) => `${k}: ${v}\n`).join('')}\n`;
  if (conf.aliases.size > 0) {
    raw += '[ALIASES]\n\n';
    for (const key of [...conf.aliases.keys()].sort(byString)) {
      const a = conf.aliases.get(key) as FwAlias;
      raw += `${a.name} ${a.cidr}${perlTrue(a.comment) && !/^\s*$/.test(a.comment) ? ` # ${a.comment}` : ''}\n`;
    }
    raw += '\n';
  }
  for (const name of [...conf.ipsets.keys()].sort(byString)) {
    const comment = conf.ipsetComments.get(name);
    raw += perlTrue(comment) ? `[IPSET ${name}] # ${comment}\n\n` : `[IPSET ${name}]\n\n`;
    const byCidr = new Map<string, FwIpsetEntry>();
    for (const entry of conf.ipsets.get(name) as FwIpsetEntry[]) if (!byCidr.has(entry.cidr)) byCidr.set(entry.cidr, entry);
    for (const cidr of [...byCidr.keys()].sort(byString)) {
      const e = byCidr.get(cidr) as FwIpsetEntry;
      raw += `${perlTrue(e.nomatch) ? '!' : ''}${e.cidr}${perlTrue(e.comment) && !/^\s*$/.test(e.comment) ? ` # ${e.comment}` : ''}\n`;
    }
    raw += '\n';
  }
  if (conf.rules.length > 0) raw += `[RULES]\n\n${formatRules(conf.rules)}\n`;
  return raw;
}

/** The text of one rule as the file holds it (for the packet oracle's answers). */
export const ruleText = (rule: FwRule): string => formatRules([rule]).trim();

type DigestValue = string | number | undefined | Record<string, string>;

/** copy_list_with_digest: the entries with undefined members left out, each with the list's digest (over every plain member). */
export function listWithDigest<T extends Record<string, DigestValue>>(list: T[]): { list: (T & { digest: string })[]; digest: string } {
  const sha = crypto.createHash('sha1');
  const copies = list.map((entry) => {
    const copy: Record<string, DigestValue> = {};
    for (const key of Object.keys(entry).sort(byString)) {
      const value = entry[key];
      if (value === undefined) continue;
      copy[key] = value;
      if (typeof value !== 'object') sha.update(`${key}:${value}\n`, 'utf8');
    }
    return copy;
  });
  const digest = sha.digest('hex');
  return { list: copies.map((c) => ({ ...c, digest }) as T & { digest: string }), digest };
}

/** copy_opject_with_digest: the object with its digest. */
export function objectWithDigest(object: Record<string, string | number>): { object: Record<string, string | number>; digest: string } {
  const sha = crypto.createHash('sha1');
  const copy: Record<string, string | number> = {};
  for (const key of Object.keys(object).sort(byString)) {
    copy[key] = object[key] as string | number;
    sha.update(`${key}:${object[key]}\n`);
  }
  const digest = sha.digest('hex');
  return { object: { ...copy, digest }, digest };
}

/** PVE::Tools::assert_if_modified. */
export function assertUnmodified(current: string, given: string | undefined): void {
  if (given && current !== given) throw fail('detected modified configuration - file changed by other user? Try again.');
}

export const paramError = (param: string, message: string): SimHttpError => new SimHttpError(400, 'Parameter verification failed.', { [param]: message });

/** Which rule types each place allows (`$rule_env_direction_lookup`). */
const RULE_TYPES: Record<RuleEnv, string[]> = { vm: ['in', 'out', 'group'], cluster: ['in', 'out', 'forward', 'group'] };

/**
 * Firewall.pm's verify_rule: with `noerr` (reading a file) every error is kept on the rule, else
 * the first one is the API's 400. Also settles the rule's `ipversion` and the macro's spelling.
 */
export function verifyRule(rule: FwRule, conf: FwConf | undefined, cluster: FwConf | undefined, env: RuleEnv, noerr: boolean): FwRule {
  const errors: Record<string, string> = { ...(rule.errors ?? {}) };
  let errorCount = 0;
  const addError = (param: string, message: string): void => {
    if (!noerr) throw paramError(param, message);
    errorCount++;
    errors[param] ??= message;
  };
  let ipversion: number | undefined;
  const setIpVersion = (version: number | undefined): void => {
    if (!version) return;
    if (ipversion && version !== ipversion) throw new Error('detected mixed ipv4/ipv6 addresses in rule');
    ipversion = version;
  };
  const checkIpsetOrAlias = (name: 'source' | 'dest'): void => {
    const value = rule[name];
    if (!perlTrue(value)) return;
    if (value.startsWith('+')) {
      const m = IPSET_REF.exec(value);
      if (!m) addError(name, `invalid ipset name '${value}'`);
      else if (!cluster?.ipsets.has(m[2] as string) && !conf?.ipsets.has(m[2] as string)) addError(name, `no such ipset '${m[2]}'`);
      return;
    }
    const alias = SCOPED_ALIAS.exec(value);
    if (!alias) return;
    const scope = alias[1] ?? '';
    const key = (alias[2] as string).toLowerCase();
    if (!cluster?.aliases.has(key) && !conf?.aliases.has(key)) addError(name, `no such alias '${value}'`);
    const found = (scope !== 'dc/' ? conf?.aliases.get(key) : undefined) ?? (scope !== 'guest/' ? cluster?.aliases.get(key) : undefined);
    setIpVersion(found?.ipversion);
  };

  const { type, action } = rule;
  if (!type) addError('type', 'missing property');
  if (!action) addError('action', 'missing property');
  if (type) {
    if (!RULE_TYPES[env].includes(type)) addError('type', `invalid rule type '${type}' for rule_env '${env}'`);
    if (type === 'in' || type === 'out' || type === 'forward') {
      if (type === 'forward' && action === 'REJECT') addError('action', 'cannot define REJECT rules on forward chain');
      if (action && !/^(ACCEPT|DROP|REJECT)$/.test(action)) addError('action', `unknown action '${action}'`);
    } else if (type === 'group') {
      if (action && !NAME_PATTERN.test(action)) addError('action', 'invalid characters in security group name');
    } else {
      addError('type', `unknown rule type '${type}'`);
    }
  }
  if (perlTrue(rule.iface)) {
    const ifaceError = verifyIface(rule.iface);
    if (ifaceError) addError('iface', ifaceError);
    if (!/^net(\d+)$/.test(rule.iface)) addError('iface', "value does not match the regex pattern 'net\\d+'");
  }
  if (perlTrue(rule.macro)) {
    const macro = findMacro(rule.macro);
    if (macro) rule.macro = macro.name;
    else addError('macro', `unknown macro '${rule.macro}'`);
  }
  const proto = rule.proto;
  let icmp = false;
  if (perlTrue(proto)) {
    if (protocolNumber(proto) === undefined) addError('proto', `unknown protocol '${proto}'`);
    if (proto === 'icmp') setIpVersion(4);
    if (proto === 'icmpv6' || proto === 'ipv6-icmp') setIpVersion(6);
    icmp = isIcmp(proto);
  }
  if (perlTrue(rule.dport)) {
    try {
      parsePortSpec(rule.dport, icmp);
    } catch (e) {
      addError('dport', (e as Error).message);
    }
    if (!perlTrue(proto)) addError('proto', "missing property - 'dport' requires this property");
    if (!PROTOCOLS_WITH_PORTS.has(proto ?? '') && !icmp) addError('dport', `protocol '${proto ?? ''}' does not support ports`);
  }
  const icmpType = rule['icmp-type'];
  if (perlTrue(icmpType)) {
    if (!icmp) addError('proto', "missing property - 'icmp-type' requires this property");
    if (perlTrue(rule.dport)) addError('icmp-type', "'icmp-type' cannot be specified together with 'dport'");
    if (proto === 'icmp' && !ICMP_TYPE_NAMES.has(icmpType)) addError('icmp-type', `invalid icmp-type '${icmpType}' for proto 'icmp'`);
    else if ((proto === 'icmpv6' || proto === 'ipv6-icmp') && !ICMPV6_TYPE_NAMES.has(icmpType)) addError('icmp-type', `invalid icmp-type '${icmpType}' for proto '${proto}'`);
  }
  if (perlTrue(rule.sport)) {
    try {
      parsePortSpec(rule.sport, false);
    } catch (e) {
      addError('sport', (e as Error).message);
    }
    if (!perlTrue(proto)) addError('proto', "missing property - 'sport' requires this property");
    if (!PROTOCOLS_WITH_PORTS.has(proto ?? '')) addError('sport', `protocol '${proto ?? ''}' does not support ports`);
  }
  for (const name of ['source', 'dest'] as const) {
    const value = rule[name];
    if (!perlTrue(value)) continue;
    try {
      setIpVersion(parseAddressList(value));
    } catch (e) {
      if (e instanceof SimHttpError) throw e;
      addError(name, (e as Error).message);
    }
    checkIpsetOrAlias(name);
  }
  if (ipversion) rule.ipversion = ipversion;
  if (perlTrue(rule.macro) && errorCount === 0) checkMacro(rule, addError);
  if (errorCount > 0) rule.errors = errors;
  return rule;
}

/** apply_macro's check of a rule's own protocol and ports against the macro's. */
function checkMacro(rule: FwRule, addError: (param: string, message: string) => void): void {
  const macro = findMacro(rule.macro as string);
  if (!macro) return;
  const version = rule.ipversion === 4 || rule.ipversion === 6 ? rule.ipversion : undefined;
  const templates = version ? macroRules(macro, version) : macro.rules;
  for (const template of templates) {
    for (const key of ['proto', 'dport', 'sport'] as const) {
      const own = rule[key];
      const fixed = template[key];
      if (own !== undefined && fixed !== undefined && own !== fixed) addError(key, `parameter '${key}' already define in macro (value = '${fixed}')`);
    }
  }
}

/** The `pve-iface` format (PVE::JSONSchema::pve_verify_iface): undefined when valid. */
function verifyIface(name: string): string | undefined {
  return /^[a-z][a-z0-9_]{1,20}([:.]\d+)?$/i.test(name) ? undefined : `invalid network interface name '${name}'`;
}

/** A rule written through the API: `''` or `-` removes a property (copy_rule_data). */
export function copyRuleData(rule: Record<string, unknown>, params: Record<string, string>): void {
  for (const key of RULE_PROPERTIES) {
    const value = params[key];
    // Proxmox copies `pos` and `digest` too, but never writes them to the file
    if (key === 'pos' || key === 'digest') continue;
    if (value === undefined) continue;
    if (value === '' || value === '-') delete rule[key];
    else rule[key] = key === 'enable' ? Number(value) : value;
  }
}

/** The schema formats of the firewall's parameters (pve-firewall registers them): undefined when valid. */
export const FIREWALL_FORMATS: Record<string, (value: string) => string | undefined> = {
  'pve-fw-addr-spec': (v) => formatCheck(() => parseAddressList(v)),
  'pve-fw-dport-spec': (v) => formatCheck(() => parsePortSpec(v, true)),
  'pve-fw-sport-spec': (v) => formatCheck(() => parsePortSpec(v, false)),
  'pve-fw-protocol-spec': (v) => (perlTrue(v) && protocolNumber(v) === undefined ? `invalid format - unknown protocol '${v}'` : undefined),
  'pve-fw-icmp-type-spec': (v) => (v !== '' && !ICMP_TYPE_NAMES.has(v) && !ICMPV6_TYPE_NAMES.has(v) ? `invalid format - invalid icmp-type value '${v}'` : undefined),
  IPorCIDR: (v) => prefixed(verifyIpOrCidr(v)),
  IPorCIDRorAlias: (v) => prefixed(verifyIpOrCidrOrAlias(v)),
  'pve-iface': (v) => formatCheck(() => {
    const error = verifyIface(v);
    if (error) throw new Error(error);
  }),
};

const prefixed = (error: string | undefined): string | undefined => (error === undefined ? undefined : `invalid format - ${error}`);

function formatCheck(check: () => unknown): string | undefined {
  try {
    check();
    return undefined;
  } catch (e) {
    return `invalid format - ${(e as Error).message}`;
  }
}
