/**
 * What Proxmox learns of a disk image it did not make itself: pve-storage's `file_size_info` runs
 * `qemu-img info --output=json -f <format>` on the untrusted file (Plugin.pm) and refuses backing
 * files and external data files; download-url runs it on a downloaded image, and on an ISO with the
 * format detected; an OVA must be a tar archive holding an `.ovf` (API2/Storage/Status.pm,
 * assert_ova_contents). Errors carry the wording qemu-img and Proxmox die with.
 */

/** How many leading bytes of a file are kept to read its header (a qcow2 header and backing file name sit in its first cluster). */
export const IMAGE_HEAD_BYTES = 64 * 1024;

export type ImageFormat = 'qcow2' | 'raw' | 'vmdk';

const QCOW2_MAGIC = 0x514649fb;
/** qcow2 incompatible feature bit 2: the guest data lives in an external data file. */
const QCOW2_EXTERNAL_DATA_FILE = 4n;
/** A VMDK sparse extent starts with "KDMV". */
const VMDK_SPARSE_MAGIC = 0x564d444b;
const SECTOR = 512;

/**
 * qemu-img failed: Proxmox dies with its error output (`qemu-img: Could not open '<path>': <reason>`)
 * after warning that the command failed (`warning` is that line).
 */
class QemuImgError extends Error {
  constructor(
    message: string,
    readonly warning: string,
  ) {
    super(message);
  }
}

const cannotOpen = (path: string, format: string, reason: string) =>
  new QemuImgError(`qemu-img: Could not open '${path}': ${reason}`, `command '/usr/bin/qemu-img info --output=json ${path}${format === 'auto-detect' ? '' : ` -f ${format}`}' failed: exit code 1`);

/** qcow2 (block/qcow2.c qcow2_do_open): magic, version 2 or 3, cluster size 2^9..2^21; the virtual size at byte 24. */
function qcow2Info(path: string, head: Buffer, format: string): number {
  if (head.length < 72 || head.readUInt32BE(0) !== QCOW2_MAGIC) throw cannotOpen(path, format, 'Image is not in qcow2 format');
  const version = head.readUInt32BE(4);
  if (version < 2 || version > 3) throw cannotOpen(path, format, `Unsupported qcow2 version ${version}`);
  const clusterBits = head.readUInt32BE(20);
  if (clusterBits < 9 || clusterBits > 21) throw cannotOpen(path, format, `Unsupported cluster size: 2^${clusterBits}`);
  if (version === 3 && head.length >= 80 && (head.readBigUInt64BE(72) & QCOW2_EXTERNAL_DATA_FILE) !== 0n) {
    throw new Error(`${path}: 'data-file' references are not allowed!`);
  }
  if (head.readBigUInt64BE(8) !== 0n) throw new Error(`backing file not allowed for untrusted image '${path}'!`);
  return Number(head.readBigUInt64BE(24));
}

/** A monolithic sparse VMDK: its capacity in sectors at byte 12 (little-endian); anything else is not a descriptor qemu reads. */
function vmdkInfo(path: string, head: Buffer, format: string): number {
  if (head.length < 20 || head.readUInt32LE(0) !== VMDK_SPARSE_MAGIC) throw cannotOpen(path, format, 'invalid VMDK image descriptor');
  return Number(head.readBigUInt64LE(12)) * SECTOR;
}

/**
 * The virtual size of an untrusted image as pve-storage's file_size_info($path, …, $format, 1)
 * returns it, or its error (a failed qemu-img run is first warned about through `warn`).
 * `auto-detect` probes as qemu-img does: a qcow2 or VMDK header, else raw.
 */
export function untrustedImageSize(path: string, head: Buffer, size: number, format: ImageFormat | 'auto-detect', warn: (line: string) => void): number {
  const detected = format !== 'auto-detect' ? format : head.length >= 4 && head.readUInt32BE(0) === QCOW2_MAGIC ? 'qcow2' : head.length >= 4 && head.readUInt32LE(0) === VMDK_SPARSE_MAGIC ? 'vmdk' : 'raw';
  try {
    if (detected === 'qcow2') return qcow2Info(path, head, format);
    if (detected === 'vmdk') return vmdkInfo(path, head, format);
  } catch (e) {
    if (e instanceof QemuImgError) warn(e.warning);
    throw e;
  }
  return size;
}

/** The names of the entries of a tar archive's first bytes (ustar headers), or undefined when it is no tar archive. */
function tarEntries(head: Buffer): string[] | undefined {
  const names: string[] = [];
  let at = 0;
  while (at + SECTOR <= head.length) {
    const header = head.subarray(at, at + SECTOR);
    if (header.every((b) => b === 0)) break;
    if (header.toString('latin1', 257, 262) !== 'ustar') return undefined;
    names.push(header.toString('utf8', 0, 100).replace(/\0.*$/s, ''));
    const size = parseInt(header.toString('latin1', 124, 136).replace(/\0.*$/s, '').trim() || '0', 8);
    at += SECTOR + Math.ceil(size / SECTOR) * SECTOR;
  }
  return names.length > 0 ? names : undefined;
}

/** An OVA must be a tar archive with an `.ovf` inside (`tar -t -f` fails on anything else). */
export function assertOvaContents(path: string, head: Buffer): void {
  const names = tarEntries(head);
  if (!names) throw new Error(`command 'tar -t -f ${path}' failed: exit code 2`);
  if (!names.some((name) => name.endsWith('.ovf'))) throw new Error('ova archive has no .ovf file inside');
}
