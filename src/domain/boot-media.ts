/** The CD-ROM drive, boot order and rescue login as the control plane sets them on a guest, and reads them back. */

/** The CD-ROM drive ISO images go in: ide2 holds the cloud-init drive. */
export const ISO_DRIVE = 'ide0';
/** Boot orders as qemu-server writes them; disk first names only the disk, which every guest of ours has. */
export const BOOT_ORDER = { cdrom: `order=${ISO_DRIVE};scsi0`, disk: 'order=scsi0' } as const;
/** The rescue system logs in as root: it is another operating system than the server's. */
export const RESCUE_USERNAME = 'root';

/** The volume a drive line names (`shared-nfs:iso/x.iso` of `shared-nfs:iso/x.iso,media=cdrom,size=40K`). */
export const driveVolume = (line: string | number | undefined) => String(line ?? '').split(',')[0] ?? '';

/** What the guest's first boot device is, as its boot order says (`order=ide0;scsi0` → cdrom). */
export function bootFirstOf(config: Record<string, string | number>): 'disk' | 'cdrom' {
  const order = /(?:^|,)order=([^,]+)/.exec(String(config.boot ?? ''))?.[1]?.split(';') ?? [];
  return order[0] === ISO_DRIVE ? 'cdrom' : 'disk';
}

/** The ISO volume in the CD-ROM drive, or null when it is empty or missing. */
export function mountedVolume(config: Record<string, string | number>): string | null {
  const volume = driveVolume(config[ISO_DRIVE]);
  return volume && volume !== 'none' && volume !== 'cdrom' ? volume : null;
}
