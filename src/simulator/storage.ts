/**
 * Storages and what is on them: guest disk volumes, volumes a destroy left behind, and snippet
 * files (cloud-init `cicustom`) read from a directory.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fail, SimHttpError } from './call';
import type { SimBackupVolume, SimCluster, SimGuest } from './cluster';
import { DISK_KEY, GiB, diskSize, isCdrom, splitProps } from './config-values';
import type { SimStorageSpec } from './spec';

/** Content types of a storage that names none. */
const DEFAULT_CONTENT = 'images,rootdir';

const takesContent = (spec: SimStorageSpec, content: string) => (spec.content ?? DEFAULT_CONTENT).split(',').includes(content);

/** Whether storage.cfg configures the storage for this node (`nodes` unset: every node). */
const isOnNode = (spec: SimStorageSpec, node: string) => !spec.nodes || spec.nodes.includes(node);

/** Where the node reads the storage's snippets from, if anywhere. */
const snippetsDirOn = (spec: SimStorageSpec, node: string) => spec.snippetsDirByNode?.[node] ?? spec.snippetsDir;

/** A storage the node can use, or Proxmox's refusal. */
function storageOn(cluster: SimCluster, node: string, storage: string): SimStorageSpec {
  const spec = cluster.storages.get(storage);
  if (!spec) throw fail(`storage '${storage}' does not exist`);
  if (!isOnNode(spec, node)) throw fail(`storage '${storage}' is not available on node '${node}'`);
  return spec;
}

function storageUsed(cluster: SimCluster, node: string, storage: string): number {
  let used = 0;
  for (const g of cluster.guests.values()) {
    if (g.node !== node) continue;
    for (const [k, v] of Object.entries(g.config)) {
      const text = String(v);
      if (DISK_KEY.test(k) && text.startsWith(`${storage}:`) && !isCdrom(text)) used += diskSize(text);
    }
  }
  return used;
}

/** The storage entries of /cluster/resources: every storage on every node it is configured for. */
export function storageResources(cluster: SimCluster): object[] {
  const out: object[] = [];
  for (const n of cluster.nodes.values()) {
    for (const s of cluster.storages.values()) {
      if (!isOnNode(s, n.name)) continue;
      out.push({
        id: `storage/${n.name}/${s.storage}`,
        type: 'storage',
        node: n.name,
        storage: s.storage,
        status: n.status === 'online' ? 'available' : 'unknown',
        plugintype: s.type ?? 'lvmthin',
        ...(cluster.majorRelease >= 9 ? { shared: s.shared ? 1 : 0 } : {}),
        content: s.content ?? DEFAULT_CONTENT,
        maxdisk: (s.totalGiB ?? 1024) * GiB,
        disk: storageUsed(cluster, n.name, s.storage),
      });
    }
  }
  return out;
}

/**
 * GET /nodes/{node}/storage. Like Proxmox, a storage configured for other nodes only is listed
 * too, disabled and inactive, without sizes.
 */
export function storageList(cluster: SimCluster, node: string): object[] {
  cluster.checkNode(node);
  return [...cluster.storages.values()].map((s) => {
    if (!isOnNode(s, node)) {
      return { storage: s.storage, type: s.type ?? 'lvmthin', content: s.content ?? DEFAULT_CONTENT, shared: s.shared ? 1 : 0, active: 0, enabled: 0, total: 0, used: 0, avail: 0 };
    }
    const total = (s.totalGiB ?? 1024) * GiB;
    const used = storageUsed(cluster, node, s.storage);
    return {
      storage: s.storage,
      type: s.type ?? 'lvmthin',
      content: s.content ?? DEFAULT_CONTENT,
      shared: s.shared ? 1 : 0,
      active: 1,
      enabled: 1,
      total,
      used,
      avail: total - used,
      used_fraction: used / total,
    };
  });
}

/**
 * GET /nodes/{node}/storage/{storage}/content: guest disks and left-behind volumes, backup
 * archives, or snippet files. The node answers it itself (`proxyto: node`), so snippets are what
 * its own directory holds.
 */
export function storageContent(cluster: SimCluster, node: string, storage: string, p: Record<string, string>): object[] {
  cluster.checkNode(node);
  const spec = storageOn(cluster, node, storage);
  if (p.content === 'snippets') return takesContent(spec, 'snippets') ? snippetVolumes(storage, snippetsDirOn(spec, node)) : [];
  const archives = p.content === undefined || p.content === 'backup' ? backupContent(cluster, node, storage, p.vmid !== undefined ? Number(p.vmid) : undefined) : [];
  if (p.content !== undefined && p.content !== 'images') return archives;
  const out: { volid: string; vmid: number; size: number }[] = [];
  for (const g of cluster.guests.values()) {
    if (g.node !== node) continue;
    for (const [k, v] of Object.entries(g.config)) {
      const text = String(v);
      if (!DISK_KEY.test(k) || isCdrom(text) || !text.startsWith(`${storage}:`)) continue;
      const first = splitProps(text).first;
      const volume = first.slice(storage.length + 1).split('/').pop() ?? '';
      out.push({ volid: `${storage}:${volume}`, vmid: g.vmid, size: diskSize(text) });
    }
    // the RAM its snapshots saved
    for (const snapshot of g.snapshots.values()) {
      const state = snapshot.vmstate;
      if (state?.volid.startsWith(`${storage}:`)) out.push({ volid: state.volid, vmid: g.vmid, size: state.size });
    }
  }
  for (const o of cluster.orphanVolumes) if (o.node === node && o.volid.startsWith(`${storage}:`)) out.push({ volid: o.volid, vmid: o.vmid, size: o.size });
  return out
    .filter((x) => p.vmid === undefined || x.vmid === Number(p.vmid))
    .sort((a, b) => a.volid.localeCompare(b.volid))
    .map((x): object => ({ ...x, format: 'raw', ctime: Math.floor(Date.now() / 1000) }))
    .concat(archives);
}

/**
 * The volume id a `{volume}` of …/storage/{storage}/content names: a whole volid of that storage,
 * or a volume name on it (pve-storage, PVE/API2/Storage/Content.pm `$real_volume_id`).
 */
export function contentVolumeId(storage: string, volume: string): string {
  if (!volume.includes(':')) return `${storage}:${volume}`;
  const sid = volume.slice(0, volume.indexOf(':'));
  if (sid !== storage) throw new SimHttpError(400, 'Parameter verification failed.', { volume: `storage ID mismatch (${sid} != ${storage})` });
  return volume;
}

/** The archive with this volid, where the node can read it. */
export function findArchive(cluster: SimCluster, node: string, volid: string): SimBackupVolume | undefined {
  return cluster.backupVolumes.find((b) => b.volid === volid && (b.node === node || cluster.storages.get(b.storage)?.shared));
}

/** Backup archives as GET …/storage/{storage}/content lists them. */
export function backupContent(cluster: SimCluster, node: string, storage: string, vmid?: number): object[] {
  return cluster.backupVolumes
    .filter((b) => b.storage === storage && (b.node === node || cluster.storages.get(storage)?.shared) && (vmid === undefined || b.vmid === vmid))
    .map((b) => ({
      volid: b.volid,
      content: 'backup',
      format: b.format,
      size: b.size,
      ctime: b.ctime,
      vmid: b.vmid,
      subtype: 'qemu',
      ...(b.notes ? { notes: b.notes } : {}),
      ...(b.protected ? { protected: 1 } : {}),
    }));
}

/** The files of the directory, as `<storage>:snippets/<name>` volumes; like Proxmox's glob, hidden files are not listed. */
function snippetVolumes(storage: string, directory: string | undefined): object[] {
  if (!directory || !existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((name) => !name.startsWith('.') && statSync(path.join(directory, name)).isFile())
    .sort()
    .map((name) => ({ volid: `${storage}:snippets/${name}`, content: 'snippets', format: 'snippet', size: statSync(path.join(directory, name)).size, ctime: Math.floor(Date.now() / 1000) }));
}

/** A new disk `<storage>:<size in GiB>` becomes the next free `vm-<vmid>-disk-<n>` volume. */
export function allocateDisk(cluster: SimCluster, vmid: number, storage: string, sizeGiB: number, rest: string): string {
  if (!cluster.storages.has(storage)) throw fail(`storage '${storage}' does not exist`);
  const used = new Set<string>();
  for (const g of cluster.guests.values()) {
    for (const [k, v] of Object.entries(g.config)) {
      if (!DISK_KEY.test(k) && !/^unused\d+$/.test(k)) continue;
      const [store, volume = ''] = (String(v).split(',')[0] as string).split(':');
      // linked clones name their volume base-<id>-disk-<n>/vm-<id>-disk-<n>
      used.add(`${store}:${volume.split('/').pop() ?? volume}`);
    }
  }
  let i = 0;
  while (used.has(`${storage}:vm-${vmid}-disk-${i}`)) i++;
  return `${storage}:vm-${vmid}-disk-${i}${rest}${/(?:^|,)size=/.test(rest) ? '' : `,size=${sizeGiB}G`}`;
}

/** The file behind a `<storage>:snippets/<name>` volume as the node sees it, or the refusal Proxmox answers. */
function snippetFile(cluster: SimCluster, node: string, volume: string): string {
  const match = /^([A-Za-z][A-Za-z0-9._-]*):snippets\/([^/]+)$/.exec(volume);
  const storage = match ? storageOn(cluster, node, match[1] as string) : undefined;
  const directory = storage ? snippetsDirOn(storage, node) : undefined;
  if (!match || !storage || !directory || !takesContent(storage, 'snippets')) throw fail(`volume '${volume}' does not exist`);
  const file = path.join(directory, match[2] as string);
  if (!existsSync(file)) throw fail(`volume '${volume}' does not exist`);
  return file;
}

/** `cicustom: user=<volume>,network=…`: like Proxmox, every volume named must exist on a snippets storage of the guest's node. */
export function checkCicustom(cluster: SimCluster, node: string, value: string): void {
  for (const part of value.split(',').filter(Boolean)) {
    const [kind, volume] = part.split('=') as [string, string | undefined];
    if (!['user', 'network', 'meta', 'vendor'].includes(kind) || !volume) {
      throw new SimHttpError(400, 'Parameter verification failed.', { cicustom: `invalid format - unknown part '${part}'` });
    }
    snippetFile(cluster, node, volume);
  }
}

/** What a guest's cloud-init user data file holds right now (the control API shows it); undefined without `cicustom: user=`. */
export function customUserData(cluster: SimCluster, g: SimGuest): string | undefined {
  const user = /(?:^|,)user=([^,]+)/.exec(String(g.config.cicustom ?? ''))?.[1];
  if (!user) return undefined;
  try {
    return readFileSync(snippetFile(cluster, g.node, user), 'utf8');
  } catch {
    return undefined;
  }
}

/** Proxmox only warns when it cannot remove a disk: the guest's volumes stay on the storage. */
export function leaveVolumesBehind(cluster: SimCluster, guest: SimGuest): void {
  for (const [k, v] of Object.entries(guest.config)) {
    const text = String(v);
    if (!DISK_KEY.test(k) || isCdrom(text)) continue;
    const [store, volume = ''] = splitProps(text).first.split(':');
    const volid = `${store}:${volume.split('/').pop() ?? volume}`;
    cluster.orphanVolumes.push({ node: guest.node, volid, vmid: guest.vmid, size: diskSize(text) });
  }
}
