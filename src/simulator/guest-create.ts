/**
 * Guests made from nothing, and guests made templates: qemu-server's create_vm (API2/Qemu.pm; a
 * `qmcreate` task whose guest exists locked `create` meanwhile and vanishes again if it fails,
 * its disks created, imported from an image or attached as create_disks does) and template
 * (`qmtemplate`: the guest's disks become base volumes and it carries `template: 1`).
 */
import crypto from 'node:crypto';
import { fail, SimHttpError, type CallContext } from './call';
import type { SimCluster, SimGuest } from './cluster';
import { DISK_KEY, bool, isCdrom, joinProps, splitProps } from './config-values';
import { byDriveOrder, checkDriveParam, createDrive, isCloudinitVolume, parseDrive, resolveCdromAlias } from './drives';
import { normalizeNet } from './guest-config';
import { bootGuest } from './guest-operations';
import { guestTask } from './guest-tasks';
import { checkCicustom, storagePath } from './storage';

/** Parameters of a create that are not config keys. */
const CREATE_PARAMS = new Set(['node', 'vmid', 'archive', 'storage', 'force', 'unique', 'pool', 'start', 'bwlimit', 'live-restore', 'ha-managed', 'import-working-storage']);

/** get_default_bootdevices: the first disk, the first CD-ROM, the first NIC. */
function defaultBootOrder(config: Record<string, string | number>): string {
  const drives = Object.keys(config).filter((k) => DISK_KEY.test(k) && !/^(?:efidisk|tpmstate)/.test(k)).sort(byDriveOrder);
  const disk = drives.find((k) => !isCdrom(String(config[k])));
  const cdrom = drives.find((k) => isCdrom(String(config[k])));
  const nic = Object.keys(config).filter((k) => /^net\d+$/.test(k)).sort((a, b) => Number(a.slice(3)) - Number(b.slice(3)))[0];
  const devices = [disk, cdrom, nic].filter((d): d is string => d !== undefined);
  return devices.length > 0 ? `order=${devices.join(';')}` : '';
}

/** PVE::GuestHelpers get_unique_tags: sorted, each once, `;`-separated. */
const uniqueTags = (tags: string) => [...new Set(tags.split(/[;,\s]+/).filter(Boolean))].sort().join(';');

/**
 * POST /nodes/{node}/qemu without `archive`: the checks qemu-server makes before the task (the
 * VMID free, the pool, each drive parameter, bridges, snippets), then a `qmcreate` task. The guest
 * exists at once with only `lock: create`; the task creates its drives (a failure removes it
 * again, and the disks made so far), writes its config with a boot order, SMBIOS uuid and VM
 * generation id, and starts it when `start` asks.
 */
export function createGuest(cluster: SimCluster, ctx: CallContext, node: string, p: Record<string, string>): string {
  cluster.checkNode(node);
  const vmid = Number(p.vmid);
  const existing = cluster.guests.get(vmid);
  if (existing) throw fail(`unable to create VM ${vmid} - VM ${vmid} already exists on node '${existing.node}'`);
  if (p.pool !== undefined && !cluster.pools.has(p.pool)) throw new SimHttpError(403, `Permission check failed (pool '${p.pool}' does not exist)`);
  if (p.storage !== undefined && !cluster.storages.has(p.storage)) throw fail(`storage '${p.storage}' does not exist`);
  const params = resolveCdromAlias(p);
  const values: [string, string | number][] = [];
  for (const [key, raw] of Object.entries(params)) {
    if (CREATE_PARAMS.has(key)) continue;
    if (DISK_KEY.test(key)) checkDriveParam(cluster, key, raw, p.storage);
    if (key === 'cicustom') checkCicustom(cluster, node, raw);
    const type = cluster.configTypes(key);
    values.push([key, /^net\d+$/.test(key) ? normalizeNet(cluster, raw) : type === 'boolean' ? (bool(raw) ? 1 : 0) : type === 'integer' ? Number(raw) : raw]);
  }
  const guest: SimGuest = { vmid, node, status: 'stopped', config: { lock: 'create' }, files: {}, snapshots: new Map(), ...(p.pool !== undefined ? { pool: p.pool } : {}) };
  cluster.addGuest(guest);
  let upid = '';
  upid = guestTask(cluster, ctx, {
    node,
    type: 'qmcreate',
    id: String(vmid),
    vmid,
    holdFile: true,
    defaultFaultLock: 'create',
    run: () => {
      const config: Record<string, string | number> = {};
      const log = cluster.taskLog(upid);
      const target = { vmid, node, config };
      try {
        for (const [key, value] of [...values].sort(([a], [b]) => a.localeCompare(b))) {
          config[key] = DISK_KEY.test(key) ? createDrive(cluster, target, key, String(value), log, p.storage) : value;
        }
      } catch (e) {
        throw new Error(`unable to create VM ${vmid} - ${(e as Error).message}`);
      }
      if (config.boot === undefined) config.boot = defaultBootOrder(config);
      if (config.tags !== undefined) config.tags = uniqueTags(String(config.tags));
      config.smbios1 ??= `uuid=${crypto.randomUUID()}`;
      if (config.vmgenid === undefined || config.vmgenid === '1') config.vmgenid = crypto.randomUUID();
      if (config.template === 1) makeBaseVolumes(cluster, config);
      guest.config = config;
      if (bool(p.start) && config.template !== 1) {
        log.push('Execute autostart');
        bootGuest(cluster, guest);
      }
    },
    onFail: () => {
      // qmcreate removes the config file it made (and the disks, which were never written to it)
      if (cluster.guests.get(vmid) === guest && ctx.fault?.mode !== 'lock') cluster.removeGuest(vmid);
    },
  });
  return upid;
}

/** Storage types whose volumes can be a template's base (volume_has_feature 'template'): thick LVM cannot. */
const NO_BASE_TYPES = new Set(['lvm', 'iscsi', 'iscsidirect']);

/**
 * template_create: each disk (not CD-ROMs or the cloud-init drive; only `disk` when given) becomes a
 * base volume, `vm-<id>-disk-<n>` → `base-<id>-disk-<n>`.
 */
function makeBaseVolumes(cluster: SimCluster, config: Record<string, string | number>, disk?: string): void {
  for (const [key, value] of Object.entries(config)) {
    if (!DISK_KEY.test(key) || (disk !== undefined && key !== disk)) continue;
    const { file } = parseDrive(String(value));
    if (isCdrom(String(value)) || isCloudinitVolume(file)) continue;
    const storage = cluster.storages.get(file.slice(0, file.indexOf(':')));
    if (!storage || NO_BASE_TYPES.has(storage.type ?? 'lvmthin')) continue;
    const { first, props } = splitProps(String(value));
    const based = storagePath(storage) !== undefined ? first.replace(/\/vm-(\d+-disk-\d+\.\w+)$/, '/base-$1') : first.replace(/:vm-(\d+-disk-\d+)$/, ':base-$1');
    config[key] = joinProps(based, props);
  }
}

/**
 * POST /nodes/{node}/qemu/{vmid}/template: refused for a locked or running guest, a guest with
 * snapshots, or a template; a `qmtemplate` task holding the config file turns it into one.
 */
export function convertToTemplate(cluster: SimCluster, ctx: CallContext, node: string, vmid: number, p: Record<string, string>): string {
  const g = cluster.guestOn(node, vmid);
  cluster.checkMutable(g);
  if (g.snapshots.size > 0) throw fail('unable to create template, because VM contains snapshots');
  if (g.config.template === 1 && p.disk === undefined) throw fail("you can't convert a template to a template");
  if (g.status === 'running') throw fail("you can't convert a VM to template if VM is running");
  return guestTask(cluster, ctx, {
    node,
    type: 'qmtemplate',
    id: String(vmid),
    vmid,
    holdFile: true,
    run: () => {
      const guest = cluster.guests.get(vmid);
      if (!guest) throw new Error(`Configuration file '${cluster.configPath(node, vmid)}' does not exist`);
      if (guest.status === 'running') throw new Error("you can't convert a VM to template if VM is running");
      guest.config.template = 1;
      makeBaseVolumes(cluster, guest.config, p.disk);
    },
  });
}
