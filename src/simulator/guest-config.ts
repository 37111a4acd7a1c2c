/**
 * A guest's configuration: how it is shown (typed values, masked password, digest) and how a
 * change is checked and applied (networks, disks, cloud-init snippets, resize).
 */
import crypto from 'node:crypto';
import { fail, SimHttpError, type CallContext } from './call';
import type { SimCluster, SimGuest } from './cluster';
import { DISK_KEY, bool, diskSize, formatSize, isCdrom, joinProps, parseSize, randomMac, splitProps } from './config-values';
import { guestTask } from './guest-tasks';
import { allocateDisk, checkCicustom } from './storage';

const NET_MODELS = new Set([
  'e1000', 'e1000-82540em', 'e1000-82544gc', 'e1000-82545em', 'e1000e', 'i82551', 'i82557b', 'i82559er',
  'ne2k_isa', 'ne2k_pci', 'pcnet', 'rtl8139', 'virtio', 'vmxnet3',
]);

/** Config keys that take no part in the stored configuration. */
const NON_CONFIG_PARAMS = new Set(['node', 'vmid', 'digest', 'delete', 'background_delay', 'skiplock', 'force', 'revert']);

/** The `digest` Proxmox answers with a config, and checks a change against. */
export function digest(config: Record<string, string | number>): string {
  const text = Object.keys(config)
    .sort()
    .map((k) => `${k}: ${config[k]}`)
    .join('\n');
  return crypto.createHash('sha1').update(text).digest('hex');
}

/** Types a config value as Proxmox answers it: integers/booleans as numbers. */
function typed(cluster: SimCluster, key: string, value: string | number): string | number {
  const t = cluster.configTypes(key);
  if ((t === 'integer' || t === 'boolean' || t === 'number') && typeof value === 'string' && /^-?\d+(?:\.\d+)?$/.test(value)) {
    return Number(value);
  }
  if (t === 'string' && typeof value === 'number') return String(value);
  return value;
}

/** The configuration as GET .../config shows it. */
export function configView(cluster: SimCluster, g: SimGuest): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(g.config)) out[k] = typed(cluster, k, v);
  if (out.cipassword !== undefined) out.cipassword = '**********';
  out.digest = digest(g.config);
  return out;
}

/** A `netN` value as Proxmox stores it: `model=MAC` first (a MAC made up when missing), the bridge checked. */
export function normalizeNet(cluster: SimCluster, value: string): string {
  const { first, props } = splitProps(value);
  let model: string | undefined;
  let mac: string | undefined;
  const rest = new Map<string, string>();
  const entries: [string, string][] = first ? [['model', first], ...props] : [...props];
  for (const [k, v] of entries) {
    if (k === 'model') model = v;
    else if (k === 'macaddr') mac = v;
    else if (NET_MODELS.has(k)) {
      model = k;
      mac = v;
    } else rest.set(k, v);
  }
  if (!model) throw new SimHttpError(400, 'Parameter verification failed.', { net: 'model: property is missing' });
  const bridge = rest.get('bridge');
  if (bridge !== undefined) {
    const b = cluster.bridges.get(bridge);
    if (!b) throw fail(`bridge '${bridge}' does not exist`);
    if (rest.has('tag') && !b.vlanAware) throw fail(`vlan aware feature need to be enabled to use trunks or tag on bridge '${bridge}'`);
  }
  const sorted = new Map([...rest].sort(([a], [b]) => a.localeCompare(b)));
  return joinProps(`${model}=${(mac ?? randomMac()).toUpperCase()}`, sorted);
}

/** The MAC of a `netN` value (`virtio=BC:24:11:…` or `macaddr=…`). */
export function netMac(value: string): string | undefined {
  const { first, props } = splitProps(value);
  const entries: [string, string][] = first ? [['model', first], ...props] : [...props];
  return entries.find(([k]) => k === 'macaddr' || NET_MODELS.has(k))?.[1];
}

/** Checks and normalizes a config change; returns the function that applies it. */
function prepareConfig(cluster: SimCluster, g: SimGuest, params: Record<string, string>): () => void {
  if (params.digest !== undefined && params.digest !== digest(g.config)) {
    throw fail('detected modified configuration - file changed by other user? Try again.');
  }
  const deletes = (params.delete ?? '').split(/[,;\s]+/).filter(Boolean);
  const changes: [string, string | number][] = [];
  for (const [key, raw] of Object.entries(params)) {
    if (NON_CONFIG_PARAMS.has(key)) continue;
    if (deletes.includes(key)) {
      throw new SimHttpError(400, 'Parameter verification failed.', { delete: `you can't use '-${key}' and '-delete ${key}' at the same time` });
    }
    let value: string | number = raw;
    const type = cluster.configTypes(key);
    if (type === 'boolean') value = bool(raw) ? 1 : 0;
    else if (type === 'integer') value = Number(raw);
    if (/^net\d+$/.test(key)) value = normalizeNet(cluster, raw);
    if (DISK_KEY.test(key)) {
      const m = /^([a-z][a-z0-9\-_.]*[a-z0-9]):(\d+)(,.*)?$/i.exec(raw);
      if (m && !isCdrom(raw)) value = allocateDisk(cluster, g.vmid, m[1] as string, Number(m[2]), m[3] ?? '');
      else if (/^([a-z][a-z0-9\-_.]*[a-z0-9]):/i.test(raw)) {
        const storage = raw.split(':')[0] as string;
        if (storage !== 'none' && !cluster.storages.has(storage) && !isCdrom(raw)) throw fail(`storage '${storage}' does not exist`);
      }
    }
    if (key === 'cicustom') checkCicustom(cluster, g.node, raw);
    if (key === 'template' && value === 1 && g.status === 'running') throw fail("you can't convert a running VM to a template");
    changes.push([key, value]);
  }
  return () => {
    for (const d of deletes) delete g.config[d];
    for (const [k, v] of changes) g.config[k] = v;
    // a NIC's `rate` applies to the running guest's tap at once (qemu-server `vmconfig_update_net`)
    cluster.usage.observe(g);
  };
}

/** POST (async: a qmconfig task) or PUT (applied at once) /nodes/{node}/qemu/{vmid}/config. */
export function setConfig(cluster: SimCluster, ctx: CallContext, node: string, vmid: number, p: Record<string, string>, async: boolean): string | null {
  const g = cluster.guestOn(node, vmid);
  cluster.checkMutable(g);
  const apply = prepareConfig(cluster, g, p);
  if (!async) {
    apply();
    return null;
  }
  return guestTask(cluster, ctx, { node, type: 'qmconfig', id: String(vmid), vmid, holdFile: true, run: apply });
}

/** PUT /nodes/{node}/qemu/{vmid}/resize: grows a disk, absolute (`32G`) or relative (`+2G`). */
export function resize(cluster: SimCluster, ctx: CallContext, node: string, vmid: number, p: Record<string, string>): string {
  const g = cluster.guestOn(node, vmid);
  cluster.checkMutable(g);
  const disk = p.disk as string;
  const size = p.size as string;
  return guestTask(cluster, ctx, {
    node,
    type: 'resize',
    id: String(vmid),
    vmid,
    holdFile: true,
    run: () => {
      const current = cluster.guests.get(vmid)?.config[disk];
      if (current === undefined) throw new Error(`disk '${disk}' does not exist`);
      const text = String(current);
      if (isCdrom(text)) throw new Error("you can't resize a cdrom");
      const old = diskSize(text);
      const relative = size.startsWith('+');
      const delta = parseSize(relative ? size.slice(1) : size) ?? 0;
      const next = relative ? old + delta : delta;
      if (next < old) throw new Error('shrinking disks is not supported');
      if (next === old) return;
      const { first, props } = splitProps(text);
      props.set('size', formatSize(next));
      (cluster.guests.get(vmid) as SimGuest).config[disk] = joinProps(first, props);
    },
  });
}
