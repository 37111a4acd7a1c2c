import { ApplicationFailure } from '@temporalio/common';
import { FailureType, NON_RETRYABLE_TYPES } from '../domain/failure-types';
import { ProxmoxError, ProxmoxTaskError } from '../proxmox';

export { FailureType } from '../domain/failure-types';

export function fail(type: string, message: string, details: Record<string, unknown> = {}): ApplicationFailure {
  return ApplicationFailure.create({ type, message, details: [details], nonRetryable: NON_RETRYABLE_TYPES.includes(type) });
}

/**
 * Turns a Proxmox error into an activity failure: transient errors (5xx, timeouts, dropped
 * responses) are retried by Temporal; definitive rejections fail the stage at once.
 */
export function fromProxmoxError(error: unknown, context: Record<string, unknown>): unknown {
  if (error instanceof ProxmoxTaskError) {
    return fail(FailureType.ProviderTaskFailed, `Proxmox task failed: ${error.exitstatus}`, { ...context, upid: error.upid });
  }
  if (error instanceof ProxmoxError) {
    if (error.isLocked || error.isLockTimeout || error.isTransient) return error;
    if (error.isNotFound) return fail(FailureType.GuestLost, error.message, { ...context, status: error.status });
    return fail(FailureType.ProviderRejected, error.message, { ...context, status: error.status, errors: error.errors });
  }
  return error;
}
