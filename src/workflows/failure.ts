import { ActivityFailure, ApplicationFailure, isCancellation, TemporalFailure, TimeoutFailure } from '@temporalio/workflow';
import { FailureType, PERMISSION_DENIED_MESSAGE } from '../domain/failure-types';

const OWN_TYPES = new Set<string>(Object.values(FailureType));

/** What the customer is told, and what only operators see. */
export interface DescribedFailure {
  code: string;
  message: string;
  cause: Record<string, unknown>;
}

/**
 * Reads a failure: its chain of causes (the first ten links), the first application failure in
 * it, and the operator-facing `cause` (`context`, then the failure's type and provider detail,
 * the activity it failed in, and the provider call it names: kind, node, VMID, UPID, HTTP status).
 */
export function readFailure(error: unknown, context: Record<string, unknown>) {
  const links: unknown[] = [];
  for (let link: unknown = error; link && links.length < 10; link = (link as TemporalFailure).cause) links.push(link);
  const application = links.find((link): link is ApplicationFailure => link instanceof ApplicationFailure);
  const cause: Record<string, unknown> = {
    ...context,
    type: application?.type ?? (error as Error | undefined)?.name ?? 'unknown',
    detail: application?.message ?? (error as Error | undefined)?.message ?? String(error),
  };
  const activity = links.find((link): link is ActivityFailure => link instanceof ActivityFailure);
  if (activity?.activityType) cause.activity = activity.activityType;
  const call: unknown = application?.details?.[0];
  if (call && typeof call === 'object' && Object.keys(call).length > 0) cause.call = call;
  return { links, application, cause };
}

/** Maps a stage's failure to a customer-safe code and message; provider text stays in `cause`. */
export function describeFailure(error: unknown, stage: string | null): DescribedFailure {
  const { links, application, cause } = readFailure(error, { stage });
  if (isCancellation(error)) {
    return { code: 'CANCELLED', message: 'The server was cancelled before it was ready; nothing was kept.', cause };
  }
  if (application?.type === FailureType.ProviderPermissionDenied) return { code: FailureType.ProviderPermissionDenied, message: PERMISSION_DENIED_MESSAGE, cause };
  // Over budget: either a timeout hit an attempt, or the server stopped retrying at the deadline.
  const activity = links.find((link): link is ActivityFailure => link instanceof ActivityFailure);
  const overBudget =
    links.some((link) => link instanceof TimeoutFailure) ||
    activity?.retryState === 'TIMEOUT' ||
    activity?.retryState === 'MAXIMUM_ATTEMPTS_REACHED';
  if (overBudget) {
    // A retryable error that is not one of our own verdicts came from the provider.
    const providerKeptFailing = application && !application.nonRetryable && !OWN_TYPES.has(application.type ?? '');
    return providerKeptFailing
      ? { code: 'PROVIDER_UNAVAILABLE', message: 'The hypervisor did not respond in time, so the server was rolled back. Please try again.', cause }
      : { code: 'PROVISIONING_TIMEOUT', message: 'Creating the server took too long, so it was rolled back. Please try again.', cause };
  }
  return {
    code: 'PROVISIONING_FAILED',
    message: 'The server could not be created, so everything reserved for it was released. Please try again or contact support.',
    cause,
  };
}

/** A short operator-facing reason for a failure (a destroy that did not go through, a reconcile pass that failed). */
export function operatorReason(error: unknown): string {
  const { application } = readFailure(error, {});
  return application?.message ?? (error instanceof Error ? error.message : String(error));
}
