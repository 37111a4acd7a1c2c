import { TimeoutFailure } from '@temporalio/workflow';
import { FailureType, GUEST_LOST_MESSAGE } from '../domain/failure-types';
import type { Operation } from '../domain/instance-status';
import { readFailure, type DescribedFailure } from './failure';

const DONE: Record<Operation, string> = {
  start: 'started',
  stop: 'stopped',
  shutdown: 'shut down',
  reboot: 'restarted',
  resize: 'resized',
  rebuild: 'rebuilt',
  migrate: 'moved',
  delete: 'deleted',
  snapshot: 'snapshotted',
  snapshot_delete: 'cleared of its snapshot',
  rollback: 'rolled back',
  backup: 'backed up',
  backup_delete: 'cleared of its backup',
  restore: 'restored',
  firewall: 'given its firewall rules',
  iso_mount: 'given its ISO',
  iso_eject: 'cleared of its ISO',
  boot_order: 'given its boot order',
  rescue_enter: 'put in rescue',
  rescue_leave: 'taken out of rescue',
  throttle: 'given its traffic throttle',
  unthrottle: 'freed of its traffic throttle',
};

/**
 * Maps a lifecycle operation's failure to a customer-safe code and message; the provider's words
 * stay in `cause`. `phase`: where it failed (the operation, or a rebuild's stage);
 * `guestRemoved` (the name finishOperation's recorded input carries): a rebuild failed after its old disk was destroyed.
 */
export function describeOperationFailure(error: unknown, operation: Operation, { phase = operation, guestRemoved = false }: { phase?: string; guestRemoved?: boolean } = {}): DescribedFailure {
  const { links, application, cause } = readFailure(error, { operation, phase });
  const timedOut = links.some((link) => link instanceof TimeoutFailure);
  if (application?.type === FailureType.GuestLost) {
    return { code: 'GUEST_LOST', message: GUEST_LOST_MESSAGE, cause };
  }
  if (application?.type === FailureType.ProviderPermissionDenied) {
    return { code: FailureType.ProviderPermissionDenied, message: `The server could not be ${DONE[operation]}: the hypervisor refused the control plane a permission. Please contact support.`, cause };
  }
  if (guestRemoved) {
    return {
      code: 'REBUILD_FAILED',
      message: 'The server could not be rebuilt and is not usable. Its address and resources are kept until you delete it; contact support if this repeats.',
      cause,
    };
  }
  if (timedOut) {
    return { code: 'OPERATION_TIMEOUT', message: `The server could not be ${DONE[operation]} in time. Please try again.`, cause };
  }
  return { code: 'OPERATION_FAILED', message: `The server could not be ${DONE[operation]}. Please try again or contact support.`, cause };
}
