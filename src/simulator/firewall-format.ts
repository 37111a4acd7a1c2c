/**
 * Writing a firewall file back as pve-firewall does (save_vmfw_conf and its format_* helpers), and
 * the digests its API answers with (copy_list_with_digest, copy_opject_with_digest).
 */
import crypto from 'node:crypto';
import { fail } from './call';
import { perlTrue, type FwAlias, type FwConf, type FwIpsetEntry, type FwRule } from './firewall-config';

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
