/**
 * What changes a guest as a whole, each call a task: clone, power (start, stop, shutdown,
 * reboot), migrate and destroy.
 */
import crypto from 'node:crypto';
import { fail, SimHttpError, type CallContext } from './call';
import type { SimCluster, SimGuest } from './cluster';
import { DISK_KEY, bool, isCdrom, joinProps, splitProps } from './config-values';
import { cloneGuestFirewall, removeGuestFirewall } from './firewall';
import { applyPending, bootIso, normalizeNet } from './guest-config';
import { guestTask } from './guest-tasks';
import { checkCicustom, leaveVolumesBehind } from './storage';

/** POST /nodes/{node}/qemu/{vmid}/clone: the new guest exists (locked `clone`) while its qmclone task runs. */
export function clone(cluster: SimCluster, ctx: CallContext, node: string, vmid: number, p: Record<string, string>): string {
  const src = cluster.guestOn(node, vmid);
  const newid = Number(p.newid);
  if (cluster.guests.has(newid)) throw fail(`unable to create VM ${newid}: config file already exists`);
  const isTemplate = src.config.template === 1;
  const full = p.full !== undefined ? bool(p.full) : !isTemplate;
  if (!full && !isTemplate) throw fail('linked clone feature is only supported for templates');
  if (!full && p.storage !== undefined) throw fail("parameter 'storage' not allowed for linked clones");
  if (!full && p.format !== undefined) throw fail("parameter 'format' not allowed for linked clones");
  if (!isTemplate) cluster.checkMutable(src);
  if (p.storage !== undefined && !cluster.storages.has(p.storage)) throw fail(`storage '${p.storage}' does not exist`);
  if (p.pool !== undefined && !cluster.pools.has(p.pool)) throw new SimHttpError(403, `Permission check failed (pool '${p.pool}' does not exist)`);
  const target = p.target ?? node;
  if (target !== node) {
    if (!cluster.nodes.has(target)) throw fail(`no such cluster node '${target}'`);
    cluster.checkNode(target);
    const disks = Object.entries(src.config).filter(([k, v]) => DISK_KEY.test(k) && !isCdrom(String(v)));
    const local = disks.some(([, v]) => !cluster.storages.get(String(v).split(':')[0] as string)?.shared);
    if (local && p.storage === undefined) throw fail(`can't clone VM to node '${target}' (VM uses local storage)`);
  }
  const config: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(src.config)) {
    if (k === 'template' || k === 'lock' || k === 'name' || k === 'description' || /^unused\d+$/.test(k)) continue;
    config[k] = v;
  }
  config.name = p.name ?? (src.config.name !== undefined ? `Copy-of-VM-${src.config.name}` : `Copy-of-VM-${vmid}`);
  if (p.description !== undefined) config.description = p.description;
  config.smbios1 = `uuid=${crypto.randomUUID()}`;
  config.vmgenid = crypto.randomUUID();
  let diskIndex = 0;
  for (const [k, v] of Object.entries(config)) {
    const text = String(v);
    if (/^net\d+$/.test(k)) {
      config[k] = normalizeNet(cluster, text.replace(/^([a-z0-9-_]+)=[0-9A-Fa-f:]{17}/, '$1'));
    } else if (DISK_KEY.test(k)) {
      const { first, props } = splitProps(text);
      const [storage, volume] = first.split(':') as [string, string | undefined];
      if (isCdrom(text)) {
        if (/cloudinit/.test(volume ?? '')) config[k] = joinProps(`${storage}:vm-${newid}-cloudinit`, props);
        continue;
      }
      const targetStorage = p.storage ?? storage;
      const name = `vm-${newid}-disk-${diskIndex++}`;
      config[k] = joinProps(full ? `${targetStorage}:${name}` : `${storage}:${volume}/${name}`, props);
    }
  }
  // a full clone copies what the disks hold; snapshots stay with the source
  const guest: SimGuest = { vmid: newid, node: target, status: 'stopped', config, files: { ...src.files }, snapshots: new Map(), ...(p.pool !== undefined ? { pool: p.pool } : {}) };
  cluster.addGuest(guest);
  cloneGuestFirewall(cluster, vmid, newid);
  return guestTask(cluster, ctx, {
    node,
    type: 'qmclone',
    id: String(vmid),
    vmid: newid,
    configLock: 'clone',
    run: () => undefined,
    onFail: () => {
      // a failed clone removes what it created (unless a lock is left behind)
      const g = cluster.guests.get(newid);
      if (g === guest && ctx.fault?.mode !== 'lock') {
        cluster.removeGuest(newid);
        removeGuestFirewall(cluster, newid);
      }
    },
  });
}

/** POST .../status/start. */
export function start(cluster: SimCluster, ctx: CallContext, node: string, vmid: number): string {
  const g = cluster.guestOn(node, vmid);
  if (g.config.template === 1) throw fail("you can't start a vm if it's a template");
  cluster.checkMutable(g);
  return guestTask(cluster, ctx, {
    node,
    type: 'qmstart',
    id: String(vmid),
    vmid,
    holdFile: true,
    run: () => {
      const guest = cluster.guests.get(vmid);
      if (!guest) throw new Error(`Configuration file '${cluster.configPath(node, vmid)}' does not exist`);
      if (guest.status === 'running') throw new Error(`VM ${vmid} already running`);
      // The cloud-init drive is generated at start: a custom snippet must still be there.
      if (guest.config.cicustom !== undefined) checkCicustom(cluster, guest.node, String(guest.config.cicustom));
      bootGuest(cluster, guest);
    },
  });
}

/**
 * The guest's QEMU process starts (a start, or an API reboot, which ends the process and starts a
 * new one): pending changes take effect (vm_start applies them) and it boots from its boot order.
 */
export function bootGuest(cluster: SimCluster, guest: SimGuest): void {
  applyPending(guest);
  cluster.startQemu(guest);
  const iso = bootIso(guest);
  if (iso) guest.bootedFrom = iso;
  else delete guest.bootedFrom;
}

function stopLike(cluster: SimCluster, ctx: CallContext, node: string, vmid: number, type: string): string {
  const g = cluster.guestOn(node, vmid);
  cluster.checkMutable(g);
  return guestTask(cluster, ctx, {
    node,
    type,
    id: String(vmid),
    vmid,
    holdFile: true,
    run: () => {
      const guest = cluster.guests.get(vmid);
      if (!guest || guest.status !== 'running') return;
      cluster.stopQemu(guest);
    },
  });
}

/** POST .../status/stop. */
export function stop(cluster: SimCluster, ctx: CallContext, node: string, vmid: number): string {
  return stopLike(cluster, ctx, node, vmid, 'qmstop');
}

/** POST .../status/shutdown. */
export function shutdown(cluster: SimCluster, ctx: CallContext, node: string, vmid: number): string {
  return stopLike(cluster, ctx, node, vmid, 'qmshutdown');
}

/** POST .../status/reboot: qemu-server stops QEMU and qmeventd starts a new process (PVE/QemuServer.pm `vm_reboot`). */
export function reboot(cluster: SimCluster, ctx: CallContext, node: string, vmid: number): string {
  const g = cluster.guestOn(node, vmid);
  if (g.status !== 'running') throw fail(`VM ${vmid} not running`);
  cluster.checkMutable(g);
  return guestTask(cluster, ctx, {
    node,
    type: 'qmreboot',
    id: String(vmid),
    vmid,
    holdFile: true,
    run: () => {
      const guest = cluster.guests.get(vmid);
      if (guest?.status === 'running') bootGuest(cluster, guest);
    },
  });
}

/** POST .../migrate: the guest moves to `target` when the task ends, a running one under the target's new QEMU process. */
export function migrate(cluster: SimCluster, ctx: CallContext, node: string, vmid: number, p: Record<string, string>): string {
  const g = cluster.guestOn(node, vmid);
  const target = p.target as string;
  if (target === node) throw fail('target is local node.');
  if (!cluster.nodes.has(target)) throw fail(`no such cluster node '${target}'`);
  if (cluster.nodes.get(target)?.status !== 'online') throw fail(`target node '${target}' is not online`);
  const online = bool(p.online);
  if (g.status === 'running' && !online) throw fail("can't migrate running VM without --online");
  cluster.checkMutable(g);
  if (g.status === 'running' && !bool(p['with-local-disks'])) {
    const local = Object.entries(g.config).some(
      ([k, v]) => DISK_KEY.test(k) && !isCdrom(String(v)) && !cluster.storages.get(String(v).split(':')[0] as string)?.shared,
    );
    if (local) throw fail("can't live migrate attached local disks without with-local-disks option");
  }
  return guestTask(cluster, ctx, {
    node,
    type: 'qmigrate',
    id: String(vmid),
    vmid,
    configLock: 'migrate',
    run: () => {
      const guest = cluster.guests.get(vmid);
      if (!guest) throw new Error(`Configuration file '${cluster.configPath(node, vmid)}' does not exist`);
      guest.node = target;
      if (guest.status === 'running') cluster.startQemu(guest);
    },
  });
}

/** DELETE /nodes/{node}/qemu/{vmid}. */
export function destroy(cluster: SimCluster, ctx: CallContext, node: string, vmid: number): string {
  const g = cluster.guestOn(node, vmid);
  cluster.checkMutable(g);
  if (g.status === 'running') throw fail(`VM ${vmid} is running - destroy failed`);
  return guestTask(cluster, ctx, {
    node,
    type: 'qmdestroy',
    id: String(vmid),
    vmid,
    holdFile: true,
    run: () => {
      const guest = cluster.guests.get(vmid);
      if (guest && ctx.fault?.mode === 'task_warnings') leaveVolumesBehind(cluster, guest);
      cluster.removeGuest(vmid);
      removeGuestFirewall(cluster, vmid);
    },
  });
}
