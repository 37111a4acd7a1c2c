/**
 * A firewall rule checked as pve-firewall's verify_rule checks it, a rule written through the API
 * (copy_rule_data), and the schema formats of the firewall's parameters.
 */
import { SimHttpError } from './call';
import { IPSET_REF, NAME_PATTERN, SCOPED_ALIAS, parseAddressList, parsePortSpec, verifyIpOrCidr, verifyIpOrCidrOrAlias } from './firewall-address';
import { PROTOCOLS_WITH_PORTS, RULE_PROPERTIES, isIcmp, paramError, perlTrue, type FwConf, type FwRule, type RuleEnv } from './firewall-config';
import { ICMP_TYPE_NAMES, ICMPV6_TYPE_NAMES, findMacro, macroRules, protocolNumber } from './firewall-names';

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
