/**
 * Values of a guest configuration as Proxmox writes them: sizes (`32G`), property strings
 * (`virtio=BC:24:11:..,bridge=vmbr0`), disks, memory and CPU counts.
 */
import crypto from 'node:crypto';

export const GiB = 1024 ** 3;
export const MiB = 1024 ** 2;
/** Config keys that name a disk (or a CD-ROM drive). */
export const DISK_KEY = /^(?:scsi|virtio|sata|ide|efidisk|tpmstate)\d+$/;

export function parseSize(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)([KMGT])?$/.exec(text);
  if (!m) return undefined;
  const mult = { K: 1024, M: MiB, G: GiB, T: 1024 * GiB }[m[2] ?? ''] ?? 1;
  return Math.round(Number(m[1]) * mult);
}

export function formatSize(bytes: number): string {
  for (const [unit, mult] of [['T', 1024 * GiB], ['G', GiB], ['M', MiB], ['K', 1024]] as const) {
    if (bytes % mult === 0) return `${bytes / mult}${unit}`;
  }
  return String(bytes);
}

export function splitProps(value: string): { first: string; props: Map<string, string> } {
  const parts = value.split(',');
  const props = new Map<string, string>();
  let first = '';
  parts.forEach((p, i) => {
    const eq = p.indexOf('=');
    if (eq < 0 && i === 0) first = p;
    else if (eq >= 0) props.set(p.slice(0, eq), p.slice(eq + 1));
  });
  return { first, props };
}

export function joinProps(first: string, props: Map<string, string>): string {
  return [first, ...[...props].map(([k, v]) => `${k}=${v}`)].filter(Boolean).join(',');
}

export function diskSize(value: string): number {
  const size = splitProps(value).props.get('size');
  return size ? (parseSize(size) ?? 0) : 0;
}

export function isCdrom(value: string): boolean {
  return splitProps(value).props.get('media') === 'cdrom';
}

export function memoryMiB(config: Record<string, string | number>): number {
  const m = config.memory;
  if (m === undefined) return 512;
  const text = String(m);
  const cur = /(?:^|,)(?:current=)?(\d+)(?:,|$)/.exec(text);
  return cur ? Number(cur[1]) : 512;
}

export function vcpus(config: Record<string, string | number>): number {
  return Number(config.sockets ?? 1) * Number(config.cores ?? 1);
}

export function bool(v: string | undefined): boolean {
  return v !== undefined && /^(?:1|true|yes|on)$/i.test(v);
}

export function randomMac(): string {
  const b = crypto.randomBytes(3);
  return `BC:24:11:${[...b].map((x) => x.toString(16).toUpperCase().padStart(2, '0')).join(':')}`;
}
