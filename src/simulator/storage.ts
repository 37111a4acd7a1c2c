/**
 * Storages and what is on them: guest disk volumes, volumes a destroy left behind, files (ISO
 * images, disk images to import, container templates) on file-based storages, and snippet files
 * (cloud-init `cicustom`) read from a directory.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fail, SimHttpError } from './call';
import type { SimBackupVolume, SimCluster, SimFileContent, SimGuest, SimStorageFile } from './cluster';
import { DISK_KEY, GiB, diskSize, formatSize, isCdrom, joinProps, splitProps } from './config-values';
import type { SimStorageSpec } from './spec';

/** Content types of a storage that names none. */
const DEFAULT_CONTENT = 'images,rootdir';

export const takesContent = (spec: SimStorageSpec, content: string) => (spec.content ?? DEFAULT_CONTENT).split(',').includes(content);

/** Whether storage.cfg configures the storage for this node (`nodes` unset: every node). */
const isOnNode = (spec: SimStorageSpec, node: string) => !spec.nodes || spec.nodes.includes(node);

/** Storage types with a `path` in storage.cfg: their content is files in directories (pve-storage's file-based plugins). */
const FILE_STORAGE_TYPES = new Set(['dir', 'nfs', 'cifs', 'cephfs', 'glusterfs', 'btrfs']);
const NETWORK_STORAGE_TYPES = new Set(['nfs', 'cifs', 'cephfs', 'glusterfs']);

/** Where a file-based storage is mounted; undefined for a storage of volumes (LVM, ZFS, RBD). */
export function storagePath(spec: SimStorageSpec): string | undefined {
  if (!FILE_STORAGE_TYPES.has(spec.type ?? 'lvmthin')) return undefined;
  if (spec.path) return spec.path;
  if (spec.storage === 'local') return '/var/lib/vz';
  return NETWORK_STORAGE_TYPES.has(spec.type ?? '') ? `/mnt/pve/${spec.storage}` : `/mnt/${spec.storage}`;
}

/** The directory of a content type below a storage's path (pve-storage Plugin.pm, $vtype_subdirs). */
const CONTENT_DIRS: Record<SimFileContent, string> = { iso: 'template/iso', vztmpl: 'template/cache', import: 'import' };

/** The file a content volume is on a node: `<path>/template/iso/<name>`, `<path>/import/<name>`. */
export const contentFilePath = (spec: SimStorageSpec, content: SimFileContent, name: string): string => `${storagePath(spec) ?? ''}/${CONTENT_DIRS[content]}/${name}`;

/** Disk image formats of the import content and their file name endings (pve-storage's $IMPORT_EXT_RE_1). */
const IMPORT_FORMAT = /\.(ova|ovf|qcow2|raw|vmdk)$/i;
const VZTMPL_FORMAT = /\.(?:(tar)|tar\.(gz|xz|zst|bz2))$/i;

/** A file's `format` as the content listing shows it (pve-storage Plugin.pm, get_subdir_files). */
export function fileFormat(file: Pick<SimStorageFile, 'content' | 'name'>): string {
  if (file.content === 'iso') return 'iso';
  if (file.content === 'import') return IMPORT_FORMAT.exec(file.name)?.[1] ?? 'raw';
  const m = VZTMPL_FORMAT.exec(file.name);
  return m?.[1] ?? `t${m?.[2] ?? 'ar'}`;
}

export const fileVolid = (file: Pick<SimStorageFile, 'storage' | 'content' | 'name'>): string => `${file.storage}:${file.content}/${file.name}`;

/** The files of a storage the node sees: a shared storage's for every node, a local storage's of that node. */
export function filesOn(cluster: SimCluster, node: string, storage: string): SimStorageFile[] {
  return cluster.storageFiles.filter((f) => f.storage === storage && (f.node === undefined || f.node === node));
}

/** The file a `<storage>:<content>/<name>` volume id names, as the node sees it. */
export function findFile(cluster: SimCluster, node: string, volid: string): SimStorageFile | undefined {
  const storage = volid.slice(0, volid.indexOf(':'));
  return filesOn(cluster, node, storage).find((f) => fileVolid(f) === volid);
}

/** Writes a file onto a storage (a file of that name there is replaced, as a rename over it does). */
export function putFile(cluster: SimCluster, file: SimStorageFile): void {
  removeFile(cluster, file);
  cluster.storageFiles.push(file);
}

export function removeFile(cluster: SimCluster, file: Pick<SimStorageFile, 'storage' | 'node' | 'content' | 'name'>): void {
  const at = cluster.storageFiles.findIndex((f) => f.storage === file.storage && f.node === file.node && f.content === file.content && f.name === file.name);
  if (at >= 0) cluster.storageFiles.splice(at, 1);
}

/** Where the node reads the storage's snippets from, if anywhere. */
const snippetsDirOn = (spec: SimStorageSpec, node: string) => spec.snippetsDirByNode?.[node] ?? spec.snippetsDir;

/** A storage the node can use, or Proxmox's refusal. */
export function storageOn(cluster: SimCluster, node: string, storage: string): SimStorageSpec {
  const spec = cluster.storages.get(storage);
  if (!spec) throw fail(`storage '${storage}' does not exist`);
  if (!isOnNode(spec, node)) throw fail(`storage '${storage}' is not available on node '${node}'`);
  return spec;
}

/**
 * What a storage holds as a node sees it: the disks of guests on it (of every node for a shared
 * storage), its files, and the temporary files of downloads still running.
 */
function storageUsed(cluster: SimCluster, node: string, storage: string): number {
  const shared = cluster.storages.get(storage)?.shared === true;
  let used = 0;
  for (const g of cluster.guests.values()) {
    if (g.node !== node && !shared) continue;
    for (const [k, v] of Object.entries(g.config)) {
      const text = String(v);
      if (DISK_KEY.test(k) && text.startsWith(`${storage}:`) && !isCdrom(text)) used += diskSize(text);
    }
  }
  for (const f of filesOn(cluster, node, storage)) used += f.size;
  for (const d of cluster.downloads.values()) if (d.storage === storage && (d.node === undefined || d.node === node)) used += d.bytes;
  return used;
}

/** How many bytes a storage still takes on a node. */
export function storageFree(cluster: SimCluster, node: string, storage: string): number {
  const spec = cluster.storages.get(storage);
  return spec ? storageTotal(spec) - storageUsed(cluster, node, storage) : 0;
}

const storageTotal = (spec: SimStorageSpec): number => Math.round((spec.totalGiB ?? 1024) * GiB);

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
        maxdisk: storageTotal(s),
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
    const total = storageTotal(s);
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
 * archives, files (ISO images, disk images to import, container templates: only content types the
 * storage is configured for, as pve-storage's volume_list filters them), or snippet files, sorted
 * by volume id. The node answers it itself (`proxyto: node`), so snippets and a local storage's
 * files are what the node itself holds.
 */
export function storageContent(cluster: SimCluster, node: string, storage: string, p: Record<string, string>): object[] {
  cluster.checkNode(node);
  const spec = storageOn(cluster, node, storage);
  if (p.content === 'snippets') return takesContent(spec, 'snippets') ? snippetVolumes(storage, snippetsDirOn(spec, node)) : [];
  const vmid = p.vmid !== undefined ? Number(p.vmid) : undefined;
  const archives = p.content === undefined || p.content === 'backup' ? backupContent(cluster, node, storage, vmid) : [];
  const files = filesOn(cluster, node, storage)
    .filter((f) => (p.content === undefined || p.content === f.content) && takesContent(spec, f.content))
    // ISO images and templates belong to no guest: a listing for one leaves them out (Plugin.pm list_volumes)
    .filter((f) => vmid === undefined || f.content === 'import')
    .map((f) => ({ volid: fileVolid(f), content: f.content, format: fileFormat(f), size: f.size, ctime: f.ctime }));
  const images = p.content === undefined || p.content === 'images' ? guestVolumes(cluster, node, storage, vmid) : [];
  return [...images, ...archives, ...files].sort((a, b) => volidOf(a).toLowerCase().localeCompare(volidOf(b).toLowerCase()));
}

const volidOf = (entry: object): string => String((entry as { volid?: unknown }).volid);

/** The disk volumes of guests on a storage (the node's, or every node's on a shared one), and those a destroy left behind. */
function guestVolumes(cluster: SimCluster, node: string, storage: string, vmid: number | undefined): object[] {
  const shared = cluster.storages.get(storage)?.shared === true;
  const out: { volid: string; vmid: number; size: number }[] = [];
  for (const g of cluster.guests.values()) {
    if (g.node !== node && !shared) continue;
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
  return out.filter((x) => vmid === undefined || x.vmid === vmid).map((x) => ({ ...x, format: 'raw', ctime: Math.floor(Date.now() / 1000) }));
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
  return cluster.backupVolumes.find((b) => b.volid === volid && (b.node === node || cluster.storages.get(b.storage)?.shared) && !cluster.storages.get(b.storage)?.unmounted);
}

/** Backup archives as GET …/storage/{storage}/content lists them. */
export function backupContent(cluster: SimCluster, node: string, storage: string, vmid?: number): object[] {
  if (cluster.storages.get(storage)?.unmounted) return [];
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

/**
 * A new disk on a storage: the next free `vm-<vmid>-disk-<n>` volume (`<vmid>/vm-<vmid>-disk-<n>.<format>`
 * on a file-based storage, raw unless `format` says otherwise), with the drive's other properties
 * and its size (`sizeBytes` unless they name one), printed as qemu-server prints a drive: the
 * volume first, the properties sorted.
 */
export function allocateDisk(cluster: SimCluster, vmid: number, storage: string, sizeBytes: number, props: Map<string, string>, format?: string): string {
  const spec = cluster.storages.get(storage);
  if (!spec) throw fail(`storage '${storage}' does not exist`);
  const used = new Set<string>();
  for (const g of cluster.guests.values()) {
    for (const [k, v] of Object.entries(g.config)) {
      if (!DISK_KEY.test(k) && !/^unused\d+$/.test(k)) continue;
      const [store, volume = ''] = (String(v).split(',')[0] as string).split(':');
      // linked clones name their volume base-<id>-disk-<n>/vm-<id>-disk-<n>; files end in their format
      used.add(`${store}:${(volume.split('/').pop() ?? volume).replace(/\.(?:raw|qcow2|vmdk)$/, '')}`);
    }
  }
  let i = 0;
  while (used.has(`${storage}:vm-${vmid}-disk-${i}`)) i++;
  const name = storagePath(spec) !== undefined ? `${vmid}/vm-${vmid}-disk-${i}.${format ?? 'raw'}` : `vm-${vmid}-disk-${i}`;
  const sized = new Map(props);
  if (!sized.has('size')) sized.set('size', formatSize(sizeBytes));
  return joinProps(`${storage}:${name}`, new Map([...sized].sort(([a], [b]) => a.localeCompare(b))));
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
