import { ApplicationFailure } from '@temporalio/common';
import { FailureType, NON_RETRYABLE_TYPES } from '../domain/failure-types';
import { ProxmoxError, ProxmoxTaskError } from '../proxmox';

export { FailureType } from '../domain/failure-types';

export function fail(type: string, message: string, details: Record<string, unknown> = {}): ApplicationFailure {
  return ApplicationFailure.create({ type, message, details: [details], nonRetryable: NON_RETRYABLE_TYPES.includes(type) });
}

/** Another Proxmox task holds the guest ("VM N is locked (…)", "can't lock file … - got timeout"): the write did not happen. */
function isLockContention(error: ProxmoxError | ProxmoxTaskError): boolean {
  return error.isLocked || error.isLockTimeout;
}

/**
 * Turns a Proxmox error into an activity failure. Errors returned as they are stay retryable
 * (Temporal retries the activity within the stage's budget); the others fail the stage at once.
 *
 * | error | verdict |
 * |---|---|
 * | a call refused a privilege (403) | PROVIDER_PERMISSION_DENIED |
 * | a call saying the guest "does not exist" | GUEST_LOST |
 * | any other failed read (GET): a read changes nothing | retried |
 * | a write or Proxmox task refused for lock contention | retried; the retry re-reads provider truth before writing again |
 * | a write failing transiently (5xx contention, timeouts, dropped answers) | retried, likewise |
 * | any other failed Proxmox task | PROVIDER_TASK_FAILED |
 * | any other refused write | PROVIDER_REJECTED |
 *
 * A stale `clone` lock is not told apart here: the destroy finds it (GUEST_LOCKED, `qm unlock`).
 */
export function fromProxmoxError(error: unknown, context: Record<string, unknown>): unknown {
  if (error instanceof ProxmoxTaskError) {
    if (isLockContention(error)) return error;
    return fail(FailureType.ProviderTaskFailed, `Proxmox task failed: ${error.exitstatus}`, { ...context, upid: error.upid });
  }
  if (error instanceof ProxmoxError) {
    if (isLockContention(error) || error.isTransient) return error;
    if (error.isPermissionDenied) return fail(FailureType.ProviderPermissionDenied, error.message, { ...context, status: error.status });
    if (error.isNotFound) return fail(FailureType.GuestLost, error.message, { ...context, status: error.status });
    if (!error.mutating) return error;
    return fail(FailureType.ProviderRejected, error.message, { ...context, status: error.status, errors: error.errors });
  }
  return error;
}
