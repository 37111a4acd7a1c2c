import { ApplicationFailure, TemporalFailure, TimeoutFailure } from '@temporalio/workflow';
import { FailureType } from '../domain/failure-types';
import type { Operation } from '../domain/instance-status';
import type { DescribedFailure } from './failure';

const DONE: Record<Operation, string> = {
  start: 'started',
  stop: 'stopped',
  shutdown: 'shut down',
  reboot: 'restarted',
  resize: 'resized',
  rebuild: 'rebuilt',
  migrate: 'moved',
  delete: 'deleted',
};

/**
 * Maps a lifecycle operation's failure to a customer-safe code and message; the provider's words
 * stay in `cause`. `guestRemoved`: a rebuild failed after its old disk was destroyed.
 */
export function describeOperationFailure(error: unknown, operation: Operation, guestRemoved = false): DescribedFailure {
  let application: ApplicationFailure | undefined;
  let timedOut = false;
  for (let link: unknown = error, depth = 0; link && depth < 10; link = (link as TemporalFailure).cause, depth++) {
    if (link instanceof ApplicationFailure) application ??= link;
    if (link instanceof TimeoutFailure) timedOut = true;
  }
  const cause: Record<string, unknown> = {
    operation,
    type: application?.type ?? (error as Error | undefined)?.name ?? 'unknown',
    detail: application?.message ?? (error as Error | undefined)?.message ?? String(error),
  };
  if (application?.type === FailureType.GuestLost) {
    return { code: 'GUEST_LOST', message: 'The server disappeared from its host. Its address and resources are kept while an operator looks into it.', cause };
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
