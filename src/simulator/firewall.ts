/**
 * The firewall API of a guest (`/nodes/{node}/qemu/{vmid}/firewall/…`: options, rules, ipsets,
 * aliases, refs) and the cluster's firewall options, as pve-firewall's API2/Firewall/{VM,Rules,
 * IPSet,Aliases,Cluster}.pm serve them; the guest's firewall file through its life (qemu-server
 * copies it with a clone, removes it with a destroy, carries it in a backup); and the packet
 * oracle's view of a guest.
 *
 * Like Proxmox, these calls read and write `/etc/pve/firewall/<vmid>.fw` whether or not the guest
 * exists, and only the options (`proxyto => 'node'`) reach the node named in the path.
 */
import { fail } from './call';
import type { SimCluster, SimGuest } from './cluster';
import { bool, splitProps } from './config-values';
import { cleanCidr, parseIpOrCidr, SCOPED_ALIAS } from './firewall-address';
import { CLUSTER_OPTIONS, paramError, perlTrue, resolveAlias, RULE_PROPERTIES, VM_OPTIONS, type FwConf, type FwIpsetEntry, type FwRule } from './firewall-config';
import { assertUnmodified, formatFwConf, listWithDigest, objectWithDigest } from './firewall-format';
import { parseFwConf } from './firewall-parse';
import { copyRuleData, verifyRule } from './firewall-rules';
import { judgePacket, type Packet, type Verdict } from './firewall-oracle';
import { netMac } from './guest-config';

const CLUSTER_FILE = 'cluster.fw';
const guestFile = (vmid: number): string => `${vmid}.fw`;

/** PVE::Tools::split_list: a list separated by commas, semicolons or spaces. */
const splitList = (text: string | undefined): string[] => (text ?? '').split(/[,;\s]+/).filter(Boolean);

function loadClusterFirewall(cluster: SimCluster): FwConf {
  return parseFwConf(cluster.firewallFiles.get(CLUSTER_FILE) ?? '', 'cluster');
}

/** load_vmfw_conf, with the cluster's file it refers to. */
function loadGuest(cluster: SimCluster, vmid: number): { conf: FwConf; clusterConf: FwConf } {
  const clusterConf = loadClusterFirewall(cluster);
  return { conf: parseFwConf(cluster.firewallFiles.get(guestFile(vmid)) ?? '', 'vm', clusterConf), clusterConf };
}

/** save_vmfw_conf: nothing left to write removes the file. */
function save(cluster: SimCluster, file: string, conf: FwConf): void {
  const text = formatFwConf(conf);
  if (text) cluster.firewallFiles.set(file, text);
  else cluster.firewallFiles.delete(file);
}

const BOOLEAN_OPTIONS = new Set(['enable', 'macfilter', 'dhcp', 'ndp', 'radv', 'ipfilter', 'ebtables']);

/** set_options of VM.pm and Cluster.pm: `delete` first, then the options given. */
function setOptions(conf: FwConf, known: readonly string[], p: Record<string, string>, enable: (value: string) => number): void {
  assertUnmodified(objectWithDigest(conf.options).digest, p.digest);
  for (const option of splitList(p.delete)) {
    if (!known.includes(option)) throw paramError('delete', `no such option '${option}'`);
    delete conf.options[option];
  }
  for (const key of known) {
    const value = p[key];
    if (value === undefined) continue;
    conf.options[key] = key === 'enable' ? enable(value) : BOOLEAN_OPTIONS.has(key) ? (bool(value) ? 1 : 0) : value;
  }
}

/** GET …/firewall: the directory index. */
export const firewallIndex = (): { name: string }[] => ['rules', 'aliases', 'ipset', 'refs', 'options'].map((name) => ({ name }));

/** GET …/firewall/options (proxied to the node): the options set, with their digest. */
export function guestOptions(cluster: SimCluster, node: string, vmid: number): Record<string, string | number> {
  cluster.checkNode(node);
  return objectWithDigest(loadGuest(cluster, vmid).conf.options).object;
}

/** PUT …/firewall/options. */
export function setGuestOptions(cluster: SimCluster, node: string, vmid: number, p: Record<string, string>): null {
  cluster.checkNode(node);
  const { conf } = loadGuest(cluster, vmid);
  setOptions(conf, VM_OPTIONS, p, (value) => (bool(value) ? 1 : 0));
  save(cluster, guestFile(vmid), conf);
  return null;
}

/** GET /cluster/firewall/options. */
export function clusterOptions(cluster: SimCluster): Record<string, string | number> {
  return objectWithDigest(loadClusterFirewall(cluster).options).object;
}

/** PUT /cluster/firewall/options: an `enable` above 1 stands for "now" and lapses after a minute unless confirmed. */
export function setClusterOptions(cluster: SimCluster, p: Record<string, string>): null {
  const conf = loadClusterFirewall(cluster);
  setOptions(conf, CLUSTER_OPTIONS, p, (value) => (Number(value) > 1 ? Math.floor(Date.now() / 1000) : Number(value)));
  save(cluster, CLUSTER_FILE, conf);
  return null;
}

type Listed<T> = T & { digest: string };

/** GET …/firewall/rules: each rule with its position and the list's digest. */
export function guestRules(cluster: SimCluster, vmid: number): Listed<FwRule & { pos: number }>[] {
  return listWithDigest(loadGuest(cluster, vmid).conf.rules as unknown as Record<string, string>[]).list.map((rule, pos) => ({ ...(rule as unknown as Listed<FwRule>), pos }));
}

function ruleAt(rules: FwRule[], pos: number): FwRule {
  if (pos >= rules.length) throw fail(`no rule at position ${pos}`);
  return rules[pos] as FwRule;
}

const rulesDigest = (rules: FwRule[]): string => listWithDigest(rules as unknown as Record<string, string>[]).digest;

/** GET …/firewall/rules/{pos}. */
export function guestRule(cluster: SimCluster, vmid: number, pos: number): Listed<FwRule & { pos: number }> {
  const rules = guestRules(cluster, vmid);
  return ruleAt(rules, pos) as Listed<FwRule & { pos: number }>;
}

/** POST …/firewall/rules: the new rule goes first (`pos` and `digest` play no part), disabled unless `enable` is given. */
export function createGuestRule(cluster: SimCluster, vmid: number, p: Record<string, string>): null {
  const { conf, clusterConf } = loadGuest(cluster, vmid);
  const rule = {} as FwRule;
  copyRuleData(rule as unknown as Record<string, unknown>, p);
  verifyRule(rule, conf, clusterConf, 'vm', false);
  if (p.enable === undefined) rule.enable = 0;
  conf.rules.unshift(rule);
  save(cluster, guestFile(vmid), conf);
  return null;
}

/** PUT …/firewall/rules/{pos}: `moveto` moves the rule (before the one at that position) and ignores the rest. */
export function updateGuestRule(cluster: SimCluster, vmid: number, pos: number, p: Record<string, string>): null {
  const { conf, clusterConf } = loadGuest(cluster, vmid);
  assertUnmodified(rulesDigest(conf.rules), p.digest);
  const rule = ruleAt(conf.rules, pos);
  const moveto = p.moveto !== undefined ? Number(p.moveto) : undefined;
  if (moveto !== undefined && moveto !== pos) {
    const moved: FwRule[] = [];
    conf.rules.forEach((r, i) => {
      if (i === pos) return;
      if (i === moveto) moved.push(rule);
      moved.push(r);
    });
    if (moveto >= conf.rules.length) moved.push(rule);
    conf.rules = moved;
  } else {
    copyRuleData(rule as unknown as Record<string, unknown>, p);
    for (const property of splitList(p.delete)) {
      if (!(RULE_PROPERTIES as readonly string[]).includes(property)) throw paramError('delete', `no such property ('${property}')`);
      if (property === 'type' || property === 'action') throw paramError('delete', `unable to delete required property '${property}'`);
      delete (rule as unknown as Record<string, unknown>)[property];
    }
    verifyRule(rule, conf, clusterConf, 'vm', false);
  }
  save(cluster, guestFile(vmid), conf);
  return null;
}

/** DELETE …/firewall/rules/{pos}. */
export function deleteGuestRule(cluster: SimCluster, vmid: number, pos: number, p: Record<string, string>): null {
  const { conf } = loadGuest(cluster, vmid);
  assertUnmodified(rulesDigest(conf.rules), p.digest);
  ruleAt(conf.rules, pos);
  conf.rules.splice(pos, 1);
  save(cluster, guestFile(vmid), conf);
  return null;
}

/** The ipsets as GET …/firewall/ipset lists them: by name, with comments. */
function ipsetList(conf: FwConf): { list: Listed<{ name: string; comment?: string }>[]; digest: string } {
  const names = [...conf.ipsets.keys()].sort();
  return listWithDigest(names.map((name) => {
    const comment = conf.ipsetComments.get(name);
    return { name, ...(perlTrue(comment) ? { comment } : {}) };
  }));
}

/** GET …/firewall/ipset. */
export function guestIpsets(cluster: SimCluster, vmid: number): Listed<{ name: string; comment?: string }>[] {
  return ipsetList(loadGuest(cluster, vmid).conf).list;
}

/** POST …/firewall/ipset: a new ipset, or with `rename` an existing one renamed (and its comment changed). */
export function createGuestIpset(cluster: SimCluster, vmid: number, p: Record<string, string>): null {
  const { conf } = loadGuest(cluster, vmid);
  const name = p.name as string;
  if (p.rename) {
    assertUnmodified(ipsetList(conf).digest, p.digest);
    const entries = conf.ipsets.get(p.rename);
    if (!entries) throw paramError('name', `IPSet '${p.rename}' does not exist`);
    if (conf.ipsets.has(name) && name !== p.rename) throw paramError('name', `IPSet '${name}' does already exist`);
    conf.ipsets.delete(p.rename);
    conf.ipsets.set(name, entries);
    const comment = conf.ipsetComments.get(p.rename);
    conf.ipsetComments.delete(p.rename);
    if (comment) conf.ipsetComments.set(name, comment);
  } else {
    if (conf.ipsets.has(name)) throw paramError('name', `IPSet '${name}' already exists`);
    conf.ipsets.set(name, []);
  }
  if (p.comment !== undefined) conf.ipsetComments.set(name, p.comment);
  save(cluster, guestFile(vmid), conf);
  return null;
}

/** An ipset of the guest's file, or Proxmox's "no such IPSet". */
function ipsetOf(conf: FwConf, name: string): FwIpsetEntry[] {
  const entries = conf.ipsets.get(name);
  if (!entries) throw fail(`no such IPSet '${name}'`);
  return entries;
}

/** GET …/firewall/ipset/{name}: its entries with the list's digest. */
export function guestIpset(cluster: SimCluster, vmid: number, name: string): Listed<FwIpsetEntry>[] {
  return listWithDigest(ipsetOf(loadGuest(cluster, vmid).conf, name) as unknown as Record<string, string>[]).list as unknown as Listed<FwIpsetEntry>[];
}

/** DELETE …/firewall/ipset/{name}: only an empty one, unless `force`. */
export function deleteGuestIpset(cluster: SimCluster, vmid: number, name: string, p: Record<string, string>): null {
  const { conf } = loadGuest(cluster, vmid);
  if (ipsetOf(conf, name).length > 0 && !bool(p.force)) throw fail(`IPSet '${name}' is not empty`);
  conf.ipsets.delete(name);
  save(cluster, guestFile(vmid), conf);
  return null;
}

/** POST …/firewall/ipset/{name}: an address or network (host bits cleared, `/32` and `/128` dropped) or an alias. */
export function addGuestIpsetEntry(cluster: SimCluster, vmid: number, name: string, p: Record<string, string>): null {
  const { conf, clusterConf } = loadGuest(cluster, vmid);
  const entries = ipsetOf(conf, name);
  let cidr = p.cidr as string;
  const alias = SCOPED_ALIAS.exec(cidr);
  if (alias) {
    try {
      resolveAlias(conf, clusterConf, alias[2] as string, alias[1] ?? '');
    } catch (e) {
      throw fail((e as Error).message);
    }
  } else {
    cidr = parseIpOrCidr(cleanCidr(cidr)).cidr;
  }
  if (entries.some((e) => e.cidr === cidr)) throw paramError('cidr', `address '${cidr}' already exists`);
  if (/\/0+$/.test(cidr)) throw paramError('cidr', 'a zero prefix is not allowed in ipset entries');
  entries.unshift({ cidr, ...(bool(p.nomatch) ? { nomatch: 1 } : {}), ...(p.comment ? { comment: p.comment } : {}) });
  save(cluster, guestFile(vmid), conf);
  return null;
}

function entryOf(entries: FwIpsetEntry[], cidr: string): FwIpsetEntry {
  const entry = entries.find((e) => e.cidr === cidr);
  if (!entry) throw paramError('cidr', 'no such IP/Network');
  return entry;
}

/** GET …/firewall/ipset/{name}/{cidr}: the entry as written (`10.0.0.1`, not `10.0.0.1/32`). */
export function guestIpsetEntry(cluster: SimCluster, vmid: number, name: string, cidr: string): Listed<FwIpsetEntry> {
  return entryOf(guestIpset(cluster, vmid, name), cidr) as Listed<FwIpsetEntry>;
}

/** PUT …/firewall/ipset/{name}/{cidr}: `nomatch` and `comment` replaced (left out: cleared). */
export function updateGuestIpsetEntry(cluster: SimCluster, vmid: number, name: string, cidr: string, p: Record<string, string>): null {
  const { conf } = loadGuest(cluster, vmid);
  const entries = ipsetOf(conf, name);
  assertUnmodified(listWithDigest(entries as unknown as Record<string, string>[]).digest, p.digest);
  const entry = entryOf(entries, cidr);
  entry.nomatch = p.nomatch !== undefined && bool(p.nomatch) ? 1 : undefined;
  entry.comment = p.comment;
  save(cluster, guestFile(vmid), conf);
  return null;
}

/** DELETE …/firewall/ipset/{name}/{cidr}: no error when the entry is not there. */
export function removeGuestIpsetEntry(cluster: SimCluster, vmid: number, name: string, cidr: string, p: Record<string, string>): null {
  const { conf } = loadGuest(cluster, vmid);
  const entries = ipsetOf(conf, name);
  assertUnmodified(listWithDigest(entries as unknown as Record<string, string>[]).digest, p.digest);
  conf.ipsets.set(
    name,
    entries.filter((e) => e.cidr !== cidr),
  );
  save(cluster, guestFile(vmid), conf);
  return null;
}

const aliasList = (conf: FwConf) => listWithDigest([...conf.aliases.keys()].sort().map((key) => ({ ...conf.aliases.get(key) }) as Record<string, string>));

/** GET …/firewall/aliases. */
export function guestAliases(cluster: SimCluster, vmid: number): Record<string, string | number>[] {
  return aliasList(loadGuest(cluster, vmid).conf).list;
}

/** POST …/firewall/aliases. */
export function createGuestAlias(cluster: SimCluster, vmid: number, p: Record<string, string>): null {
  const { conf } = loadGuest(cluster, vmid);
  const name = p.name as string;
  if (conf.aliases.has(name.toLowerCase())) throw paramError('name', `alias '${name}' already exists`);
  const cidr = p.cidr as string;
  conf.aliases.set(name.toLowerCase(), { name, cidr, ipversion: parseIpOrCidr(cidr).ipversion, ...(p.comment ? { comment: p.comment } : {}) });
  save(cluster, guestFile(vmid), conf);
  return null;
}

/** GET …/firewall/aliases/{name}. */
export function guestAlias(cluster: SimCluster, vmid: number, name: string): Record<string, string | number> {
  const alias = loadGuest(cluster, vmid).conf.aliases.get(name.toLowerCase());
  if (!alias) throw paramError('name', 'no such alias');
  return { ...alias };
}

/** PUT …/firewall/aliases/{name}: `cidr` and `comment` replaced, optionally renamed. */
export function updateGuestAlias(cluster: SimCluster, vmid: number, name: string, p: Record<string, string>): null {
  const { conf } = loadGuest(cluster, vmid);
  assertUnmodified(aliasList(conf).digest, p.digest);
  const key = name.toLowerCase();
  if (!conf.aliases.has(key)) throw paramError('name', 'no such alias');
  const cidr = p.cidr as string;
  const alias = { name, cidr, ipversion: parseIpOrCidr(cidr).ipversion, ...(p.comment ? { comment: p.comment } : {}) };
  conf.aliases.set(key, alias);
  const rename = p.rename?.toLowerCase();
  if (rename && rename !== key) {
    if (conf.aliases.has(rename)) throw paramError('name', `alias '${p.rename}' already exists`);
    conf.aliases.delete(key);
    conf.aliases.set(rename, { ...alias, name: p.rename as string });
  }
  save(cluster, guestFile(vmid), conf);
  return null;
}

/** DELETE …/firewall/aliases/{name}: no error when it is not there. */
export function removeGuestAlias(cluster: SimCluster, vmid: number, name: string, p: Record<string, string>): null {
  const { conf } = loadGuest(cluster, vmid);
  assertUnmodified(aliasList(conf).digest, p.digest);
  conf.aliases.delete(name.toLowerCase());
  save(cluster, guestFile(vmid), conf);
  return null;
}

/** GET …/firewall/refs: the ipsets and aliases a rule may name, the cluster's (`dc`) then the guest's. */
export function guestRefs(cluster: SimCluster, vmid: number, type: string | undefined): Record<string, string>[] {
  const { conf, clusterConf } = loadGuest(cluster, vmid);
  const refs = (c: FwConf, scope: string): Record<string, string>[] => [
    ...(type === undefined || type === 'ipset'
      ? [...c.ipsets.keys()].sort().map((name) => ({ type: 'ipset', name, ref: `+${name}`, scope, ...(c.ipsetComments.get(name) ? { comment: c.ipsetComments.get(name) as string } : {}) }))
      : []),
    ...(type === undefined || type === 'alias'
      ? [...c.aliases.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, a]) => ({ type: 'alias', name, ref: name, scope, ...(a.comment ? { comment: a.comment } : {}) }))
      : []),
  ];
  return [...refs(clusterConf, 'dc'), ...refs(conf, 'guest')];
}

/** qemu-server's remove_vmfw_conf: a destroyed guest's firewall file goes with it (with or without `purge`). */
export function removeGuestFirewall(cluster: SimCluster, vmid: number): void {
  cluster.firewallFiles.delete(guestFile(vmid));
}

/** clone_vmfw_conf: the new guest starts with the source's firewall file (or none). */
export function cloneGuestFirewall(cluster: SimCluster, from: number, to: number): void {
  const text = cluster.firewallFiles.get(guestFile(from));
  if (text === undefined) cluster.firewallFiles.delete(guestFile(to));
  else cluster.firewallFiles.set(guestFile(to), text);
}

/** The guest's firewall file as vzdump puts it into an archive (`qemu-server.fw`), if it has one. */
export const guestFirewallFile = (cluster: SimCluster, vmid: number): string | undefined => cluster.firewallFiles.get(guestFile(vmid));

/** A restore writes the archive's firewall file over the guest's; an archive without one leaves the guest's as it was. */
export function restoreGuestFirewall(cluster: SimCluster, vmid: number, text: string | undefined): void {
  if (text !== undefined) cluster.firewallFiles.set(guestFile(vmid), text);
}

/** The packet oracle's verdict at one of a guest's NICs, from its config and the firewall files. */
export function judgeGuestPacket(cluster: SimCluster, guest: SimGuest, packet: Packet): Verdict {
  const { conf, clusterConf } = loadGuest(cluster, guest.vmid);
  const nics: Record<string, { mac?: string; firewall: boolean }> = {};
  for (const [key, value] of Object.entries(guest.config)) {
    if (!/^net\d+$/.test(key)) continue;
    const mac = netMac(String(value));
    nics[key] = { ...(mac ? { mac } : {}), firewall: bool(splitProps(String(value)).props.get('firewall')) };
  }
  return judgePacket({ cluster: clusterConf, guest: conf, nics }, packet);
}
