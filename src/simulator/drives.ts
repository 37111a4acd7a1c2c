/**
 * A guest's drives as qemu-server checks and creates them when a create or a config write names
 * one (API2/Qemu.pm: check_drive_param and check_storage_access before anything happens,
 * create_disks in the task): new disks (`<storage>:<GiB>`), disks imported from an image
 * (`<storage>:0,import-from=<volume>`), cloud-init drives (`<storage>:cloudinit`), and existing
 * volumes such as an ISO image in a CD-ROM drive (`<storage>:iso/<file>,media=cdrom`).
 */
import { fail, SimHttpError } from './call';
import type { SimCluster } from './cluster';
import { DISK_KEY, GiB, diskSize, formatSize, joinProps, splitProps } from './config-values';
import { untrustedImageSize, type ImageFormat } from './disk-images';
import { allocateDisk, contentFilePath, fileFormat, findFile, storagePath, takesContent } from './storage';

/** qemu-server's $NEW_DISK_RE: `[<storage>:]<size in GiB>`. */
export const NEW_DISK = /^(?:([^/:\s]+):)?(\d+(?:\.\d+)?)$/;

/** API2/Qemu.pm $resolve_cdrom_alias: `cdrom` is `ide2` with `media=cdrom`. */
export function resolveCdromAlias(params: Record<string, string>): Record<string, string> {
  if (params.cdrom === undefined) return params;
  const { cdrom, ...rest } = params;
  return { ...rest, ide2: /(?:^|,)media=/.test(cdrom) ? cdrom : `${cdrom},media=cdrom` };
}

/** Drive keys in qemu-server's order (Drive.pm valid_drive_names: ide, scsi, virtio, sata), which picks default boot devices. */
const DRIVE_KINDS = ['ide', 'scsi', 'virtio', 'sata'];
export const byDriveOrder = (a: string, b: string): number =>
  DRIVE_KINDS.indexOf(a.replace(/\d+$/, '')) - DRIVE_KINDS.indexOf(b.replace(/\d+$/, '')) || Number(a.replace(/^\D+/, '')) - Number(b.replace(/^\D+/, ''));

/** A drive value's volume (its default key, or `file=`/`volume=`) and its other properties. */
export function parseDrive(value: string): { file: string; props: Map<string, string> } {
  const { first, props } = splitProps(value);
  const rest = new Map(props);
  const named = rest.get('file') ?? rest.get('volume');
  rest.delete('file');
  rest.delete('volume');
  return { file: first || named || '', props: rest };
}

const printDrive = (file: string, props: Map<string, string>): string => joinProps(file, new Map([...props].sort(([a], [b]) => a.localeCompare(b))));

/** qemu-server's drive_is_cloudinit: a volume named `cloudinit` or `vm-<vmid>-cloudinit[.<format>]`. */
export const isCloudinitVolume = (file: string): boolean => /[:/](?:vm-\d+-)?cloudinit(?:\.(?:raw|qcow2|vmdk))?$/.test(file);

/** A volume id's storage and volume name; undefined for what names no storage (`none`, `cdrom`, a path). */
function volumeId(file: string): { storage: string; name: string } | undefined {
  const m = /^([a-z][a-z0-9\-_.]*[a-z0-9]):(.+)$/i.exec(file);
  return m ? { storage: m[1] as string, name: m[2] as string } : undefined;
}

const LVM_TYPES = new Set(['lvm', 'lvmthin']);

/**
 * The content type of a volume (pve-storage parse_volname): the directory it lies in on a
 * file-based storage (Plugin.pm), a guest's disk elsewhere; Proxmox's refusal for a name it cannot parse.
 */
export function volumeType(cluster: SimCluster, volid: string): { type: string; format: string } {
  const id = volumeId(volid);
  const spec = id ? cluster.storages.get(id.storage) : undefined;
  if (!id || !spec) throw fail(`storage '${id?.storage ?? volid}' does not exist`);
  if (storagePath(spec) === undefined) {
    if (/^(?:vm|base)-\d+-\S+$/.test(id.name)) return { type: 'images', format: 'raw' };
    throw fail(`unable to parse ${LVM_TYPES.has(spec.type ?? 'lvmthin') ? 'lvm' : spec.type === 'zfspool' ? 'zfs' : 'directory'} volume name '${id.name}'`);
  }
  const images = /^\d+\/(?:\S+\/\d+\/)?(?:vm-|base-|subvol-)?[^/\s]+\.(raw|qcow2|vmdk|subvol)$/.exec(id.name);
  if (images) return { type: 'images', format: images[1] as string };
  if (/^iso\/[^/]+\.(?:iso|img)$/i.test(id.name)) return { type: 'iso', format: 'raw' };
  if (/^vztmpl\/[^/]+\.(?:tar|tar\.(?:gz|xz|zst|bz2))$/i.test(id.name)) return { type: 'vztmpl', format: 'raw' };
  if (/^backup\//.test(id.name)) return { type: 'backup', format: 'raw' };
  if (/^snippets\/[^/]+$/.test(id.name)) return { type: 'snippets', format: 'raw' };
  const ovaMember = /^import\/[ a-zA-Z0-9\-.+=_]+\.ova\/[ a-zA-Z0-9\-.+=_]+\.(qcow2|raw|vmdk)$/.exec(id.name);
  if (ovaMember) return { type: 'import', format: `ova+${ovaMember[1] as string}` };
  const imported = /^import\/[ a-zA-Z0-9\-.+=_]+\.(ova|ovf|qcow2|raw|vmdk)$/.exec(id.name);
  if (imported) return { type: 'import', format: imported[1] as string };
  throw fail(`unable to parse directory volume name '${id.name}'`);
}

const badParam = (key: string, message: string) => new SimHttpError(400, 'Parameter verification failed.', { [key]: message });

/**
 * What qemu-server checks of a drive parameter before it starts anything (check_drive_param,
 * check_storage_access): the `import-from` syntax, `media=cdrom` for ISO images, a storage that
 * takes disks for a new one, the content type of an existing volume and of an import source.
 * `defaultStorage`: a create's `storage` parameter.
 */
export function checkDriveParam(cluster: SimCluster, key: string, value: string, defaultStorage?: string): void {
  const { file, props } = parseDrive(value);
  const importFrom = props.get('import-from');
  const newDisk = NEW_DISK.exec(file);
  if (importFrom !== undefined && (!newDisk || Number(newDisk[2]) !== 0)) {
    throw badParam(key, "'import-from' requires special syntax - use <storage ID>:0,import-from=<source>");
  }
  const cdrom = props.get('media') === 'cdrom';
  const id = volumeId(file);
  if (file === '' || file === 'none' || file === 'cdrom' || isCloudinitVolume(file) || (id && id.name === 'cloudinit')) return;
  if (newDisk && !cdrom) {
    const storage = newDisk[1] ?? defaultStorage;
    if (!storage) throw fail('no storage ID specified (and no default storage)');
    const spec = cluster.storages.get(storage);
    if (!spec) throw fail(`storage '${storage}' does not exist`);
    if (!takesContent(spec, 'images')) throw badParam('storage', `storage '${storage}' does not support vm images`);
  } else if (id) {
    const { type } = volumeType(cluster, file);
    if (type === 'iso' && !cdrom) throw badParam(key, "explicit 'media=cdrom' is required for iso images");
    if (type !== 'images' && type !== 'iso') throw badParam(key, "content type needs to be 'images' or 'iso'");
  } else {
    throw new SimHttpError(501, 'the simulator attaches volumes of its storages only, no paths or host devices');
  }
  if (importFrom === undefined) return;
  if (!volumeId(importFrom)) throw new SimHttpError(501, 'the simulator imports from volumes only, not from paths');
  const source = volumeType(cluster, importFrom);
  if (source.type !== 'images' && source.type !== 'import') throw badParam(key, `${importFrom} has wrong type '${source.type}' - needs to be 'images' or 'import'`);
  if (source.format.startsWith('ova')) throw new SimHttpError(501, 'the simulator does not extract disks from OVA archives');
}

/** What a guest's drive is created for: the guest's VMID and node, and its config so far (for the one cloud-init drive). */
export interface DriveTarget {
  vmid: number;
  node: string;
  config: Record<string, string | number>;
}

/** A guest disk volume some guest holds (with the drive it is on), or a destroy left behind. */
function guestVolume(cluster: SimCluster, volid: string): { size: number; drive?: string } | undefined {
  for (const g of cluster.guests.values()) {
    for (const [k, v] of Object.entries(g.config)) {
      if ((DISK_KEY.test(k) || /^unused\d+$/.test(k)) && parseDrive(String(v)).file === volid) return { size: diskSize(String(v)), ...(DISK_KEY.test(k) ? { drive: k } : {}) };
    }
  }
  const orphan = cluster.orphanVolumes.find((o) => o.volid === volid);
  return orphan && { size: orphan.size };
}

/** A disk imported from a disk image on a storage, or another guest's disk: its new volume, sized as its source (create_disks, $import_from_volid). */
function importDisk(cluster: SimCluster, target: DriveTarget, key: string, storage: string, source: string, props: Map<string, string>, log: string[]): string {
  const { type, format } = volumeType(cluster, source);
  let virtualSize: number;
  // clone_disk names the source's drive when the source is another guest's disk
  let sourceDrive = '';
  if (type === 'import') {
    // the potentially untrusted image is inspected first (file_size_info($path, …, 1))
    const file = findFile(cluster, target.node, source);
    const spec = cluster.storages.get(source.slice(0, source.indexOf(':')));
    const sourcePath = spec ? contentFilePath(spec, 'import', source.slice(source.indexOf('/') + 1)) : source;
    if (!file) throw new Error(`failed to stat '${sourcePath}'`);
    virtualSize = untrustedImageSize(sourcePath, file.head, file.size, fileFormat(file) as ImageFormat, (line) => log.push(line));
  } else {
    const held = guestVolume(cluster, source);
    if (!held) throw new Error(`cannot import from '${source}' - could not get size of ${source}`);
    virtualSize = held.size;
    sourceDrive = held.drive ? `${held.drive} ` : '';
  }
  const targetSpec = cluster.storages.get(storage);
  // resolve_dst_disk_format: a file-based storage keeps the asked or the source's format, other storages take raw
  const wanted = props.get('format') ?? format;
  const dstFormat = targetSpec && storagePath(targetSpec) !== undefined && (wanted === 'qcow2' || wanted === 'vmdk') ? wanted : 'raw';
  const rest = withoutSize(props);
  rest.delete('import-from');
  log.push(`create full clone of drive ${sourceDrive}(${source})`);
  const volume = allocateDisk(cluster, target.vmid, storage, virtualSize, rest, dstFormat);
  log.push(`transferred 0.0 B of ${renderBytes(virtualSize)} (0.00%)`, `transferred ${renderBytes(virtualSize)} of ${renderBytes(virtualSize)} (100.00%)`);
  return volume;
}

/** pve-common's render_bytes with one decimal, as qemu-server logs an import's progress. */
function renderBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  const unit = bytes > 1023 ? Math.min(units.length - 1, Math.floor(Math.log(bytes) / Math.log(1024))) : 0;
  return `${(bytes / 1024 ** unit).toFixed(1)} ${units[unit] as string}`;
}

/**
 * The value a drive parameter becomes (create_disks, in the task): a new or imported disk
 * allocated, a cloud-init drive made, an existing volume sized, `none` left empty. Throws
 * Error(text) as the task fails; `log` gets the task's lines.
 */
export function createDrive(cluster: SimCluster, target: DriveTarget, key: string, value: string, log: string[], defaultStorage?: string): string {
  const { file, props } = parseDrive(value);
  const id = volumeId(file);
  if (file === 'none' || file === 'cdrom' || file === '') {
    props.delete('size');
    return printDrive(file || 'none', props);
  }
  if (id?.name === 'cloudinit') {
    const attached = Object.entries(target.config).find(([k, v]) => k !== key && DISK_KEY.test(k) && isCloudinitVolume(parseDrive(String(v)).file));
    if (attached) throw new Error(`${key} - cloud-init drive is already attached at '${attached[0]}'`);
    const spec = cluster.storages.get(id.storage);
    if (!spec) throw new Error(`storage '${id.storage}' does not exist`);
    const name = storagePath(spec) !== undefined ? `${target.vmid}/vm-${target.vmid}-cloudinit.${props.get('format') ?? 'qcow2'}` : `vm-${target.vmid}-cloudinit`;
    props.delete('format');
    props.set('media', 'cdrom');
    const drive = printDrive(`${id.storage}:${name}`, props);
    log.push(`${key}: successfully created disk '${drive}'`);
    return drive;
  }
  const newDisk = NEW_DISK.exec(file);
  if (newDisk) {
    const storage = newDisk[1] ?? defaultStorage ?? '';
    const importFrom = props.get('import-from');
    const drive = importFrom !== undefined
      ? importDisk(cluster, target, key, storage, importFrom, props, log)
      : allocateDisk(cluster, target.vmid, storage, Math.round(Number(newDisk[2]) * GiB), withoutSize(props), props.get('format'));
    log.push(`${key}: successfully created disk '${drive}'`);
    return drive;
  }
  if (isCloudinitVolume(file)) return printDrive(file, props);
  // an existing volume: it must be there for this node, and the drive records its size
  const { type } = volumeType(cluster, file);
  const size = type === 'iso' ? findFile(cluster, target.node, file)?.size : guestVolume(cluster, file)?.size;
  if (size === undefined) throw new Error(`volume ${file} does not exist`);
  props.set('size', formatSize(size));
  return printDrive(file, props);
}

function withoutSize(props: Map<string, string>): Map<string, string> {
  const rest = new Map(props);
  rest.delete('size');
  rest.delete('format');
  return rest;
}
