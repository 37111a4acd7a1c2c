import type { InstanceStatus } from '../generated/prisma/enums';

/** Operations a customer or admin can ask for on an existing instance. */
export type Operation =
  | 'start'
  | 'stop'
  | 'shutdown'
  | 'reboot'
  | 'resize'
  | 'rebuild'
  | 'delete'
  | 'migrate'
  | 'snapshot'
  | 'snapshot_delete'
  | 'rollback'
  | 'backup'
  | 'backup_delete'
  | 'restore'
  | 'firewall'
  | 'iso_mount'
  | 'iso_eject'
  | 'boot_order'
  | 'rescue_enter'
  | 'rescue_leave'
  | 'throttle'
  | 'unthrottle';

/** While an instance is in one of these, some workflow owns it. */
export const TRANSITIONAL: readonly InstanceStatus[] = [
  'pending',
  'scheduling',
  'provisioning',
  'starting',
  'stopping',
  'rebooting',
  'resizing',
  'rebuilding',
  'migrating',
  'deleting',
  'snapshotting',
  'rolling_back',
  'backing_up',
  'restoring',
  'updating_firewall',
  'entering_rescue',
  'leaving_rescue',
  'configuring_boot',
  'updating_network',
];

/** Which stable states allow which operation. Transitional states allow none (OPERATION_IN_PROGRESS). */
const ALLOWED: Record<Operation, readonly InstanceStatus[]> = {
  // A server in rescue that is stopped shows `stopped`: starting it boots the rescue system again.
  start: ['stopped'],
  stop: ['running', 'rescue'],
  shutdown: ['running', 'rescue'],
  reboot: ['running', 'rescue'],
  resize: ['stopped'],
  // After a failed rebuild there is no disk to keep: rebuilding again is how the server comes back.
  rebuild: ['running', 'stopped', 'rebuild_failed'],
  migrate: ['running', 'stopped'],
  // A lost server's guest is gone: deleting it releases what it still holds.
  delete: ['running', 'stopped', 'rescue', 'failed', 'rollback_failed', 'rebuild_failed', 'lost'],
  snapshot: ['running', 'stopped', 'rescue'],
  snapshot_delete: ['running', 'stopped', 'rescue'],
  rollback: ['running', 'stopped'],
  backup: ['running', 'stopped', 'rescue'],
  backup_delete: ['running', 'stopped', 'rescue'],
  restore: ['running', 'stopped'],
  firewall: ['running', 'stopped'],
  iso_mount: ['running', 'stopped'],
  iso_eject: ['running', 'stopped'],
  boot_order: ['running', 'stopped'],
  rescue_enter: ['running', 'stopped'],
  rescue_leave: ['rescue', 'stopped'],
  // The NIC rate of a traffic throttle is written whatever the server runs, rescue system included.
  throttle: ['running', 'stopped', 'rescue'],
  unthrottle: ['running', 'stopped', 'rescue'],
};

/**
 * What a server in rescue mode (running or stopped) refuses with IN_RESCUE until the customer
 * leaves it: what replaces or moves its disk, and what would take the CD-ROM drive from the rescue system.
 */
export const REFUSED_IN_RESCUE: readonly Operation[] = ['resize', 'rebuild', 'restore', 'rollback', 'migrate', 'iso_mount', 'iso_eject', 'boot_order', 'rescue_enter'];

export type OperationVerdict = 'allowed' | 'in_progress' | 'invalid_state';

export function judgeOperation(status: InstanceStatus, operation: Operation): OperationVerdict {
  if (ALLOWED[operation].includes(status)) return 'allowed';
  if (TRANSITIONAL.includes(status)) return 'in_progress';
  return 'invalid_state';
}

/** The status an instance shows while an operation runs. */
export const OPERATION_STATUS: Record<Operation, InstanceStatus> = {
  start: 'starting',
  stop: 'stopping',
  shutdown: 'stopping',
  reboot: 'rebooting',
  resize: 'resizing',
  rebuild: 'rebuilding',
  migrate: 'migrating',
  delete: 'deleting',
  snapshot: 'snapshotting',
  snapshot_delete: 'snapshotting',
  rollback: 'rolling_back',
  backup: 'backing_up',
  /** The server is busy with its backups: a power operation answers BACKUP_IN_PROGRESS. */
  backup_delete: 'backing_up',
  restore: 'restoring',
  /** The guest's firewall rules are being written; its power state is left alone. */
  firewall: 'updating_firewall',
  iso_mount: 'configuring_boot',
  iso_eject: 'configuring_boot',
  boot_order: 'configuring_boot',
  rescue_enter: 'entering_rescue',
  rescue_leave: 'leaving_rescue',
  /** The NICs get the rate a traffic throttle asks for, or lose it; the power state is left alone. */
  throttle: 'updating_network',
  unthrottle: 'updating_network',
};
