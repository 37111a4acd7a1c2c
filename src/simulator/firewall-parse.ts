/**
 * Reading a firewall file as pve-firewall does (Firewall.pm generic_fw_config_parser, parse_fw_rule,
 * parse_vmfw_option, parse_clusterfw_option, parse_alias): names lower-cased, host bits cleared,
 * every rule checked by verify_rule with its errors kept on it.
 */
import { NAME_PATTERN, SCOPED_ALIAS, parseIpOrCidr } from './firewall-address';
import { perlTrue, resolveAlias, type FwAlias, type FwConf, type FwIpsetEntry, type FwRule, type RuleEnv } from './firewall-config';
import { verifyRule } from './firewall-rules';

const emptyConf = (): FwConf => ({ options: {}, aliases: new Map(), ipsets: new Map(), ipsetComments: new Map(), rules: [] });

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

