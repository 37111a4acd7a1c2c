import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { ThrottleOutcome, TrafficPassSummary } from '../activities/traffic';
import { activityOptions, BUDGETS, RECONCILE_PASS_OPTIONS } from './activity-options';

const pass = proxyActivities<Activities>({ ...RECONCILE_PASS_OPTIONS, summary: 'sample every guest’s traffic counters' });
const nicRate = proxyActivities<Activities>(activityOptions(BUDGETS.smallConfigWrite, 1, 'set the NIC rate the throttle asks for'));

export interface TrafficSampleResult extends TrafficPassSummary {
  /** What each throttle change did to its server's NICs. */
  throttles: Record<string, ThrottleOutcome>;
}

/**
 * One sampling pass over a Proxmox connection (its Temporal Schedule runs it every
 * TRAFFIC_SAMPLE_SECONDS): counts every guest's traffic since the previous pass, then gives the
 * servers whose throttle began or ended the NIC rate it asks for.
 */
export async function SampleTraffic(input: { connectionId: string }): Promise<TrafficSampleResult> {
  const summary = await pass.sampleTraffic(input);
  const throttles: Record<string, ThrottleOutcome> = {};
  for (const instanceId of summary.throttleChanges) throttles[instanceId] = await nicRate.applyThrottle({ instanceId });
  return { ...summary, throttles };
}

/** An operator lifted a throttle or added allowance: the server's NICs get the rate the database now asks for. */
export async function ApplyThrottle(input: { instanceId: string }): Promise<ThrottleOutcome> {
  return nicRate.applyThrottle(input);
}
