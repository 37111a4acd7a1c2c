import { AppError } from './errors';

/** Snapshot names as Proxmox VE takes them (`pve-configid`, at most 40 characters), minus its reserved names. */
export const SNAPSHOT_NAME = /^[a-zA-Z][a-zA-Z0-9_-]+$/;
export const SNAPSHOT_NAME_MAX = 40;
/** `current` names where the guest is now; `pending` its pending changes. */
export const RESERVED_SNAPSHOT_NAMES = ['current', 'pending'] as const;

export function isReservedSnapshotName(name: string): boolean {
  return (RESERVED_SNAPSHOT_NAMES as readonly string[]).includes(name.toLowerCase());
}

/** The marker vzdump writes into an archive's notes, by which an archive is known to be one of ours. */
export const backupNotesMarker = (backupId: string) => `pvecp-backup:${backupId}`;

/** The backup id in an archive's notes, if the archive is one of ours. */
export function backupIdInNotes(notes: string | undefined): string | undefined {
  return /(?:^|\s)pvecp-backup:(bkp_[a-z0-9]+)/.exec(notes ?? '')?.[1];
}

/**
 * Whether an archive made outside the service is proven a server's: written while the server held
 * its VMID (`since`: when it took it). An archive without a creation time proves nothing (it may
 * be a former guest's at that VMID, another tenant's). Proxmox gives an archive's time in whole
 * seconds: one from the very second the server took the VMID counts as the server's.
 */
export function archiveWrittenSince(ctimeSeconds: number | undefined, since: Date): boolean {
  return ctimeSeconds !== undefined && ctimeSeconds >= Math.floor(since.getTime() / 1000);
}

/** A plan's limit on what a server holds at once (0: none), checked before anything is asked of Proxmox VE. */
export function assertWithinPlanLimit(what: 'snapshots' | 'backups', limit: number, held: number): void {
  if (held < limit) return;
  throw new AppError(
    what === 'snapshots' ? 'SNAPSHOT_LIMIT_REACHED' : 'BACKUP_LIMIT_REACHED',
    limit === 0 ? `This server's plan includes no ${what}.` : `This server's plan allows ${limit} ${what}; delete one first.`,
    { limit },
  );
}
