/**
 * What the control API shows of the cluster, beyond what the Proxmox API would.
 */
import type { SimCluster } from './cluster';
import { configView } from './guest-config';
import { customUserData, fileVolid } from './storage';

/** GET /_sim/state: every guest (with what the API hides) and every task, of every user. */
export function inspectState(cluster: SimCluster): { guests: object[]; tasks: object[]; backups: object[]; consoles: object[]; firewall: Record<string, string>; files: object[]; downloads: object[] } {
  return {
    // the files under /etc/pve/firewall, as pve-firewall would read them
    firewall: Object.fromEntries([...cluster.firewallFiles].sort(([a], [b]) => (a < b ? -1 : 1))),
    // what each guest's consoles received: keys pressed, text typed, terminal sizes
    consoles: [...cluster.consoles.activity].map(([vmid, activity]) => ({ vmid, ...activity })),
    guests: [...cluster.guests.values()]
      .sort((a, b) => a.vmid - b.vmid)
      .map((g) => ({
        vmid: g.vmid,
        node: g.node,
        name: g.config.name !== undefined ? String(g.config.name) : undefined,
        status: g.status,
        tags: g.config.tags !== undefined ? String(g.config.tags) : undefined,
        lock: g.config.lock !== undefined ? String(g.config.lock) : undefined,
        template: g.config.template === 1,
        // The API masks it; the control API shows what the guest will log in with.
        cipassword: g.config.cipassword !== undefined ? String(g.config.cipassword) : undefined,
        // The file `cicustom: user=` names, as the guest would read it at its next boot.
        userData: customUserData(cluster, g),
        config: configView(cluster, g),
        // What the disks hold, and the snapshot tree's names (the API lists them too).
        files: g.files,
        snapshots: [...g.snapshots.keys()],
        // the traffic a test set for it (null: the default)
        traffic: g.traffic ?? null,
        // Changes waiting for the next start, and the ISO image the guest booted from.
        pending: g.pending,
        pendingDelete: g.pendingDelete,
        bootedFrom: g.bootedFrom,
      })),
    backups: cluster.backupVolumes.map(({ config: _config, files: _files, firewall: _firewall, ...volume }) => volume),
    // ISO images, images to import and templates on each storage (a local storage's per node), with their checksums
    files: cluster.storageFiles.map(({ head: _head, ...file }) => ({ volid: fileVolid(file), ...file })),
    // downloads still writing their temporary file
    downloads: [...cluster.downloads].map(([upid, { abort: _abort, ...download }]) => ({ upid, ...download })),
    tasks: cluster.tasks.all().map((t) => ({
      upid: t.upid,
      node: t.node,
      type: t.type,
      id: t.id,
      user: t.user,
      status: t.status,
      exitstatus: t.exitstatus,
      startedAtMs: t.startedAtMs,
      endedAtMs: t.endedAtMs,
    })),
  };
}
