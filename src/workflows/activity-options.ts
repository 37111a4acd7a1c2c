import { ActivityCancellationType, type ActivityOptions } from '@temporalio/workflow';
import { NON_RETRYABLE_TYPES } from '../domain/failure-types';

/** Seconds: `budget` bounds all attempts of one activity together, `attempt` each one. */
export interface Budget {
  budget: number;
  attempt: number;
  heartbeat?: number;
}

const scaled = (scale: number) => (value: number) => Math.max(1000, Math.round(value * scale * 1000));

function retrying(seconds: (value: number) => number) {
  return { initialInterval: seconds(1), backoffCoefficient: 2, maximumInterval: seconds(30), nonRetryableErrorTypes: NON_RETRYABLE_TYPES };
}

/** An activity that talks to Proxmox: transient failures retry with backoff until its budget runs out. */
export function activityOptions(budget: Budget, scale: number, summary?: string): ActivityOptions {
  const seconds = scaled(scale);
  return {
    scheduleToCloseTimeout: seconds(budget.budget),
    startToCloseTimeout: seconds(budget.attempt),
    ...(budget.heartbeat ? { heartbeatTimeout: seconds(budget.heartbeat) } : {}),
    // A cancelled workflow compensates only once the running activity has stopped touching the guest.
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    retry: retrying(seconds),
    ...(summary ? { summary } : {}),
  };
}

/**
 * A database-only activity (bookkeeping): each attempt is bounded, all of them together are not,
 * so a workflow waits out a database outage of any length instead of failing with its instance
 * mid-transition. Our own non-retryable verdicts still fail at once.
 */
export function bookkeepingOptions(scale: number, summary?: string): ActivityOptions {
  const seconds = scaled(scale);
  return {
    startToCloseTimeout: seconds(30),
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    retry: retrying(seconds),
    ...(summary ? { summary } : {}),
  };
}
