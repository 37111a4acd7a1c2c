import { ApplicationFailure, patched, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { ReconcileInput } from '../activities/reconcile';
import { activityOptions, bookkeepingOptions, BUDGETS, RECONCILE_PASS_OPTIONS } from './activity-options';
import { FailureType, rootFailureType } from '../domain/failure-types';
import { operatorReason } from './failure';

export type { ReconcileInput } from '../activities/reconcile';

export interface ReconcileSummary {
  connectionId: string;
  instanceId?: string;
  startedLate: { started: number; alreadyStarted: number };
  guests: Awaited<ReturnType<Activities['reconcileGuests']>>;
  operationsClosed: number;
  housekeeping: Awaited<ReturnType<Activities['housekeeping']>> | null;
  /** Absent in runs that began before backups were reconciled. */
  backups?: Awaited<ReturnType<Activities['reconcileBackups']>>;
  /** Anti-spoofing. Absent in runs that began before firewalls were reconciled. */
  firewalls?: Awaited<ReturnType<Activities['reconcileFirewalls']>>;
  /** Throttled servers whose NIC rate was put back, and servers whose throttle or unthrottle operation was asked for (their throttle differs from the one last applied). Absent in runs that began before throttles were reconciled. */
  throttles?: Awaited<ReturnType<Activities['restoreThrottles']>>;
  /** Customer firewall rules. Absent in runs that began before they were reconciled. */
  firewall?: Awaited<ReturnType<Activities['reconcileFirewallRules']>>;
}

const quick = proxyActivities<Activities>(RECONCILE_PASS_OPTIONS);

/**
 * One look at a Proxmox connection (or at one instance on it): stranded workflow starts, guests
 * against instances, provider calls of ended tasks, database chores, backup archives against
 * backups, the anti-spoofing and the customer rules of a bounded share of the guests' firewalls
 * (restored when changed behind our back), servers' NIC rates against their throttles, image templates from a URL against
 * the cluster (one gone is built again). The parts run side
 * by side and independently; a part that fails fails the run (visible in the Web UI) after the
 * others have done their work. It never destroys or starts a guest.
 */
export async function Reconcile(input: ReconcileInput): Promise<ReconcileSummary> {
  const whole = !input.instanceId;
  // Runs started before backups were reconciled schedule their activities as they did.
  const withBackups = patched('reconcile-backups');
  const withFirewalls = patched('reconcile-firewalls');
  const withThrottles = patched('reconcile-throttles');
  const withFirewall = patched('reconcile-firewall-rules');
  const withImageTemplates = patched('reconcile-image-templates');
  const [startedLate, guests, providerCalls, housekeeping, backups, firewalls, throttles, firewall, imageTemplates] = await Promise.allSettled([
    quick.startStrandedWorkflows(input),
    quick.reconcileGuests(input),
    whole ? quick.closeFinishedOperations(input) : Promise.resolve({ closed: 0 }),
    whole ? quick.housekeeping() : Promise.resolve(null),
    withBackups ? quick.reconcileBackups(input) : Promise.resolve(undefined),
    withFirewalls ? quick.reconcileFirewalls(input) : Promise.resolve(undefined),
    withThrottles ? quick.restoreThrottles(input) : Promise.resolve(undefined),
    withFirewall ? quick.reconcileFirewallRules(input) : Promise.resolve(undefined),
    whole && withImageTemplates ? quick.reconcileImageTemplates(input) : Promise.resolve({ rebuilt: 0 }),
  ]);
  const failures = [startedLate, guests, providerCalls, housekeeping, backups, firewalls, throttles, firewall, imageTemplates].filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failures.length > 0) {
    // A refused privilege keeps its own type, so whoever asked (the admin API, the Web UI) can say so.
    const denied = failures.some((f) => rootFailureType(f.reason) === FailureType.ProviderPermissionDenied);
    throw ApplicationFailure.nonRetryable(`reconcile failed: ${failures.map((f) => operatorReason(f.reason)).join('; ')}`, denied ? FailureType.ProviderPermissionDenied : 'RECONCILE_FAILED');
  }
  const value = <T>(r: PromiseSettledResult<T>) => (r as PromiseFulfilledResult<T>).value;
  return {
    connectionId: input.connectionId,
    ...(input.instanceId ? { instanceId: input.instanceId } : {}),
    startedLate: value(startedLate),
    guests: value(guests),
    operationsClosed: value(providerCalls).closed,
    housekeeping: value(housekeeping),
    ...(withBackups ? { backups: value(backups) } : {}),
    ...(withFirewalls ? { firewalls: value(firewalls) } : {}),
    ...(withThrottles ? { throttles: value(throttles) } : {}),
    ...(withFirewall ? { firewall: value(firewall) } : {}),
  };
}

/** An operator's destroy of an orphan guest: destroyed and confirmed gone, or back to `open` with the reason. */
export async function DestroyOrphan({ orphanId, timeoutScale = 1 }: { orphanId: string; timeoutScale?: number }): Promise<string> {
  const orphanDestroy = proxyActivities<Activities>(activityOptions(BUDGETS.orphanDestroy, timeoutScale, 'destroy the orphan guest'));
  // Its record must not stay `destroying`: the settlement waits out any database outage.
  const { settleOrphan } = proxyActivities<Activities>(bookkeepingOptions(timeoutScale, 'record the outcome'));
  try {
    const outcome = await orphanDestroy.destroyOrphanGuest({ orphanId });
    await settleOrphan({ orphanId, outcome });
    return outcome;
  } catch (error) {
    await settleOrphan({ orphanId, outcome: 'failed', error: operatorReason(error) });
    throw error;
  }
}
