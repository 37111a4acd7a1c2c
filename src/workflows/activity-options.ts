import { ActivityCancellationType, type ActivityOptions } from '@temporalio/workflow';
import { NON_RETRYABLE_TYPES } from '../domain/failure-types';

/** Seconds: `budget` bounds all attempts of one activity together, `attempt` each one. */
export interface Budget {
  budget: number;
  attempt: number;
  heartbeat?: number;
}

/**
 * Seconds an activity that heartbeats while it works (whileHeartbeating) may go without a beat:
 * an attempt whose worker died is retried this soon, not after its whole attempt timeout.
 */
export const LIVENESS_HEARTBEAT_SECONDS = 10;

/**
 * The budgets of the activities that talk to Proxmox, named for what they wait on (over budget,
 * the workflow compensates). Those that wait on a Proxmox task heartbeat while they wait.
 */
export const BUDGETS = {
  /** A full clone copies the template's disks: minutes on a big image. */
  fullClone: { budget: 900, attempt: 600, heartbeat: 30 },
  /** A config write that may grow the disk (CPU, memory, tag, disk size). */
  guestConfig: { budget: 300, attempt: 120, heartbeat: 30 },
  /** A small config write (cloud-init, net0): no storage work, so a shorter budget. */
  smallConfigWrite: { budget: 180, attempt: 120, heartbeat: 30 },
  /** A power task (start, stop, reboot, boot) waits for the guest to change state. */
  guestPower: { budget: 300, attempt: 180, heartbeat: 30 },
  /** Reading the guest's status until it reports running: each attempt is one short look, retried. */
  guestStatusCheck: { budget: 300, attempt: 30 },
  /** Stopping and destroying a guest, then proving its VMID gone. */
  guestDestroy: { budget: 300, attempt: 120, heartbeat: 30 },
  /** A resize may grow disks on slow storage: longer than a config write. */
  resize: { budget: 600, attempt: 300, heartbeat: 30 },
  /** An online migration copies memory (and local disks): hours on a big guest. */
  migration: { budget: 4 * 3600, attempt: 2 * 3600, heartbeat: 30 },
  /** Listing a snippets storage on every node, plus the wait for a probe file to show (extendedBy): an admin waits for the answer. */
  snippetsCheck: { budget: 45, attempt: 20, heartbeat: 10 },
  /** An operator's destroy of an orphan guest: a guest destroy, taken up again soon after its worker died. */
  orphanDestroy: { budget: 300, attempt: 120, heartbeat: LIVENESS_HEARTBEAT_SECONDS },
  /**
   * One part of a reconcile pass (a cluster listing and the instances on it, or database chores):
   * three attempts. The schedule skips runs while one is going, so an attempt lost with its worker
   * is retried after the heartbeat timeout; the next pass comes soon anyway.
   */
  reconcilePass: { budget: 360, attempt: 120, heartbeat: LIVENESS_HEARTBEAT_SECONDS },
  /** A snapshot (with RAM: the guest's memory written out), its deletion, or a rollback with its stop and start. */
  snapshot: { budget: 900, attempt: 600, heartbeat: 30 },
  /** Waiting for the node's running backup to end: one vzdump per node at a time. */
  backupQueue: { budget: 6 * 3600, attempt: 3600, heartbeat: 30 },
  /** vzdump reads the whole disk; a restore writes it back: hours on a big disk. */
  backup: { budget: 6 * 3600, attempt: 3 * 3600, heartbeat: 30 },
  /** Proxmox fetching a file from a URL into a storage: a cloud image of a few GiB over a slow link. */
  download: { budget: 6 * 3600, attempt: 3 * 3600, heartbeat: 30 },
  /** Creating a VM whose disk is imported from a file, or converting it to a template: the import copies the disk. */
  imageImport: { budget: 1800, attempt: 900, heartbeat: 30 },
  /** Deleting an archive from its storage. */
  archiveDelete: { budget: 600, attempt: 300, heartbeat: 30 },
  /** A guest's firewall rules written one by one (a few calls per rule, no Proxmox task). */
  firewall: { budget: 300, attempt: 120, heartbeat: 30 },
} satisfies Record<string, Budget>;

/** `budget` with a wait Proxmox spends in real time added to each attempt and to the whole. */
export function extendedBy(budget: Budget, seconds: number): Budget {
  return { ...budget, budget: budget.budget + seconds, attempt: budget.attempt + seconds };
}

/** Seconds one database-only attempt may take: a transaction, or one bounded HTTP call. */
const BOOKKEEPING_ATTEMPT = 30;

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
export function bookkeepingOptions(scale: number, summary?: string, heartbeatSeconds?: number): ActivityOptions {
  const seconds = scaled(scale);
  return {
    startToCloseTimeout: seconds(BOOKKEEPING_ATTEMPT),
    ...(heartbeatSeconds ? { heartbeatTimeout: seconds(heartbeatSeconds) } : {}),
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    retry: retrying(seconds),
    ...(summary ? { summary } : {}),
  };
}

/** A reconcile pass is short and the next one comes soon: three quick attempts, unscaled. */
export const RECONCILE_PASS_OPTIONS: ActivityOptions = {
  scheduleToCloseTimeout: `${BUDGETS.reconcilePass.budget} seconds`,
  startToCloseTimeout: `${BUDGETS.reconcilePass.attempt} seconds`,
  heartbeatTimeout: `${BUDGETS.reconcilePass.heartbeat} seconds`,
  retry: { initialInterval: '1 second', maximumInterval: '10 seconds', maximumAttempts: 3 },
};

/**
 * Asking for an operation on a server that another operation may hold (the refusal is retried):
 * asked again for up to `within`, backing off to a minute.
 */
export function untilServerFreeOptions(within: NonNullable<ActivityOptions['scheduleToCloseTimeout']>, summary: string): ActivityOptions {
  return { startToCloseTimeout: '30 seconds', scheduleToCloseTimeout: within, retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' }, summary };
}
