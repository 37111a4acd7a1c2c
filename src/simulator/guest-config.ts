/**
 * A guest's configuration: how it is shown (typed values, masked password, digest, pending
 * changes) and how a change is checked and applied (networks, disks, CD-ROMs, boot order,
 * cloud-init snippets, resize), at once or, on a running guest, at its next start.
 */
import crypto from 'node:crypto';
import { fail, SimHttpError, type CallContext } from './call';
import type { SimCluster, SimGuest } from './cluster';
import { DISK_KEY, bool, diskSize, formatSize, isCdrom, joinProps, parseSize, randomMac, splitProps } from './config-values';
import { byDriveOrder, checkDriveParam, createDrive, isCloudinitVolume, parseDrive, resolveCdromAlias } from './drives';
import { guestTask } from './guest-tasks';
import { checkCicustom } from './storage';

const NET_MODELS = new Set([
  'e1000', 'e1000-82540em', 'e1000-82544gc', 'e1000-82545em', 'e1000e', 'i82551', 'i82557b', 'i82559er',
  'ne2k_isa', 'ne2k_pci', 'pcnet', 'rtl8139', 'virtio', 'vmxnet3',
]);

/** Config keys that take no part in the stored configuration. */
const NON_CONFIG_PARAMS = new Set(['node', 'vmid', 'digest', 'delete', 'background_delay', 'skiplock', 'force', 'revert']);

/** The `digest` Proxmox answers with a config, and checks a change against: of the whole file, its [PENDING] section too. */
export function digest(g: Pick<SimGuest, 'config' | 'pending' | 'pendingDelete'>): string {
  const lines = (values: Record<string, string | number>) => Object.keys(values).sort().map((k) => `${k}: ${values[k]}`);
  const pending = g.pending || g.pendingDelete ? ['[PENDING]', ...lines(g.pending ?? {}), ...(g.pendingDelete?.length ? [`delete: ${g.pendingDelete.join(',')}`] : [])] : [];
  return crypto.createHash('sha1').update([...lines(g.config), ...pending].join('\n')).digest('hex');
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

/**
 * The configuration as GET .../config shows it: with the pending changes taken in, unless
 * `current` asks for the values in effect (pve-guest-common's load_current_config).
 */
export function configView(cluster: SimCluster, g: SimGuest, current = false): Record<string, string | number> {
  const values: Record<string, string | number> = { ...g.config };
  if (!current) {
    Object.assign(values, g.pending);
    for (const key of g.pendingDelete ?? []) delete values[key];
  }
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(values)) out[k] = typed(cluster, k, v);
  if (out.cipassword !== undefined) out.cipassword = '**********';
  out.digest = digest(g);
  return out;
}

/**
 * GET .../pending: every key with its current value, its pending value, or a pending delete
 * (pve-guest-common's config_with_pending_array); values as the config file holds them (strings).
 */
export function pendingView(g: SimGuest): object[] {
  const masked = (key: string, value: string | number) => (key === 'cipassword' ? '**********' : String(value));
  const entries: object[] = Object.entries({ ...g.config, digest: digest(g) }).map(([key, value]) => ({
    key,
    value: masked(key, value),
    ...(g.pending?.[key] !== undefined ? { pending: masked(key, g.pending[key] as string | number) } : {}),
    ...(g.pendingDelete?.includes(key) ? { delete: 1 } : {}),
  }));
  for (const [key, value] of Object.entries(g.pending ?? {})) if (g.config[key] === undefined) entries.push({ key, pending: masked(key, value) });
  for (const key of g.pendingDelete ?? []) if (g.config[key] === undefined) entries.push({ key, delete: 1 });
  return entries;
}

/** Applies the pending changes (a start, an API reboot, or a change while the guest is stopped: vmconfig_apply_pending). */
export function applyPending(g: SimGuest): void {
  for (const key of g.pendingDelete ?? []) delete g.config[key];
  Object.assign(g.config, g.pending);
  delete g.pending;
  delete g.pendingDelete;
}

/** Drops pending values equal to what is in effect, and an empty [PENDING] section (cleanup_pending). */
function cleanupPending(g: SimGuest): void {
  for (const [key, value] of Object.entries(g.pending ?? {})) if (String(g.config[key]) === String(value)) delete g.pending?.[key];
  if (g.pending && Object.keys(g.pending).length === 0) delete g.pending;
  if (g.pendingDelete) g.pendingDelete = g.pendingDelete.filter((key) => g.config[key] !== undefined);
  if (g.pendingDelete?.length === 0) delete g.pendingDelete;
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

/** Drives a running guest cannot lose at once (vmconfig_hotplug_pending skips unplugging them): their delete waits for the next start. */
const COLD_UNPLUG = /^(?:efidisk|ide|sata|tpmstate)\d+$/;

/** The devices of a `boot` value's `order=` list. */
export const bootOrder = (boot: string | number | undefined): string[] =>
  /(?:^|,)order=([^,]*)/.exec(String(boot ?? ''))?.[1]?.split(/[;\s]+/).filter(Boolean) ?? [];

const printBootOrder = (devices: string[]) => (devices.length > 0 ? `order=${devices.join(';')}` : '');

/**
 * Checks a config change as qemu-server's update_vm_api does before it changes anything (the
 * digest, `cdrom` as an alias of `ide2`, deletes that clash with values, drive parameters, bridges,
 * snippets); returns the change to apply in the task (or at once): drives created, the boot order
 * checked and kept in step with added and deleted CD-ROMs, and on a running guest the boot order
 * and the removal of drives that cannot be unplugged left pending until its next start.
 */
function prepareConfig(cluster: SimCluster, g: SimGuest, input: Record<string, string>): (log: string[]) => void {
  if (input.digest !== undefined && input.digest !== digest(g)) {
    throw fail('detected modified configuration - file changed by other user? Try again.');
  }
  const params = resolveCdromAlias(input);
  const deletes = (params.delete ?? '').split(/[,;\s]+/).filter(Boolean).map((key) => (key === 'cdrom' ? 'ide2' : key));
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
    if (DISK_KEY.test(key)) checkDriveParam(cluster, key, raw);
    if (key === 'cicustom') checkCicustom(cluster, g.node, raw);
    if (key === 'template' && value === 1 && g.status === 'running') throw fail("you can't convert a running VM to a template");
    changes.push([key, value]);
  }
  return (log) => {
    const guest = cluster.guests.get(g.vmid) ?? g;
    const running = guest.status === 'running';
    if (!running) applyPending(guest);
    const effective = () => ({ ...guest.config, ...guest.pending });
    // the order in effect, which deletes and added CD-ROMs edit (update_vm_api's @bootorder)
    let order = bootOrder(guest.config.boot);
    let orderEdited = false;
    const pendingDeletes = new Set(guest.pendingDelete);
    for (const key of deletes) {
      if (guest.pending?.[key] !== undefined) delete guest.pending[key];
      if (order.includes(key) && !deletes.includes('boot')) {
        order = order.filter((device) => device !== key);
        orderEdited = true;
      }
      if (running && (COLD_UNPLUG.test(key) || key === 'boot')) pendingDeletes.add(key);
      else delete guest.config[key];
    }
    const values = new Map<string, string | number>();
    for (const [key, value] of changes) {
      if (DISK_KEY.test(key)) {
        const drive = createDrive(cluster, guest, key, String(value), log);
        values.set(key, drive);
        const { file, props } = parseDrive(drive);
        // a CD-ROM drive added while a boot order is set joins it, to be bootable
        if (order.length > 0 && props.get('media') === 'cdrom' && !isCloudinitVolume(file) && !order.includes(key)) {
          order.push(key);
          orderEdited = true;
        }
      } else if (key === 'boot') {
        const devices = bootOrder(value);
        const known = { ...effective(), ...Object.fromEntries(changes) };
        const missing = devices.find((device) => known[device] === undefined || deletes.includes(device));
        if (missing) throw new Error(`invalid bootorder: device '${missing}' does not exist'`);
        values.set(key, devices.length > 0 ? printBootOrder(devices) : value);
      } else {
        values.set(key, value);
      }
    }
    if (orderEdited && !values.has('boot')) values.set('boot', printBootOrder(order));
    for (const [key, value] of values) {
      pendingDeletes.delete(key);
      if (running && key === 'boot') (guest.pending ??= {})[key] = value;
      else guest.config[key] = value;
    }
    guest.pendingDelete = [...pendingDeletes];
    cleanupPending(guest);
    // a NIC's `rate` applies to the running guest's tap at once (qemu-server `vmconfig_update_net`)
    cluster.usage.observe(guest);
  };
}

/** POST (async: a qmconfig task) or PUT (applied at once) /nodes/{node}/qemu/{vmid}/config. */
export function setConfig(cluster: SimCluster, ctx: CallContext, node: string, vmid: number, p: Record<string, string>, async: boolean): string | null {
  const g = cluster.guestOn(node, vmid);
  cluster.checkMutable(g);
  const apply = prepareConfig(cluster, g, p);
  if (!async) {
    apply([]);
    return null;
  }
  let upid = '';
  upid = guestTask(cluster, ctx, { node, type: 'qmconfig', id: String(vmid), vmid, holdFile: true, run: () => apply(cluster.taskLog(upid)) });
  return upid;
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

/**
 * The ISO image a guest boots from as it starts: the first device of its boot order (qemu-server's
 * device_bootorder; without `order=`, the legacy `cdn`: CD-ROMs, the `bootdisk`, NICs) that holds
 * something to boot; undefined when that is a disk or nothing is (the firmware falls back to the disk).
 */
export function bootIso(g: SimGuest): string | undefined {
  const drives = Object.keys(g.config).filter((key) => DISK_KEY.test(key)).sort(byDriveOrder);
  const isCd = (key: string) => {
    const { file, props } = parseDrive(String(g.config[key]));
    return props.get('media') === 'cdrom' && !isCloudinitVolume(file);
  };
  const order = bootOrder(g.config.boot);
  const legacy = order.length > 0 ? undefined : (/^(?:legacy=)?([acdn]{1,4})/.exec(String(g.config.boot ?? ''))?.[1] ?? 'cdn');
  const devices = legacy === undefined
    ? order
    : [...legacy].flatMap((kind) => (kind === 'd' ? drives.filter(isCd) : kind === 'c' ? drives.filter((key) => key === g.config.bootdisk) : []));
  for (const device of devices) {
    const value = g.config[device];
    if (value === undefined || !DISK_KEY.test(device)) continue;
    if (!isCd(device)) return undefined;
    const iso = /^[^:]+:iso\/(.+)$/.exec(parseDrive(String(value)).file)?.[1];
    if (iso) return iso;
  }
  return undefined;
}
