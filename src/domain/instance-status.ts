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
  | 'firewall';

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
];

/** Which stable states allow which operation. Transitional states allow none (OPERATION_IN_PROGRESS). */
const ALLOWED: Record<Operation, readonly InstanceStatus[]> = {
  start: ['stopped'],
  stop: ['running'],
  shutdown: ['running'],
  reboot: ['running'],
  resize: ['stopped'],
  // After a failed rebuild there is no disk to keep: rebuilding again is how the server comes back.
  rebuild: ['running', 'stopped', 'rebuild_failed'],
  migrate: ['running', 'stopped'],
  // A lost server's guest is gone: deleting it releases what it still holds.
  delete: ['running', 'stopped', 'failed', 'rollback_failed', 'rebuild_failed', 'lost'],
  snapshot: ['running', 'stopped'],
  snapshot_delete: ['running', 'stopped'],
  rollback: ['running', 'stopped'],
  backup: ['running', 'stopped'],
  backup_delete: ['running', 'stopped'],
  restore: ['running', 'stopped'],
  firewall: ['running', 'stopped'],
};

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
};
