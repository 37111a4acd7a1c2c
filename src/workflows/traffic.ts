import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, patched, proxyActivities, startChild, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { NicRateRequestAnswer, ThrottleOutcome, TrafficPassSummary } from '../activities/traffic';
import { activityOptions, BUDGETS, RECONCILE_PASS_OPTIONS, untilServerFreeOptions } from './activity-options';
import { applyThrottleWorkflowId } from '../temporal/workflow-ids';

const pass = proxyActivities<Activities>({ ...RECONCILE_PASS_OPTIONS, summary: 'sample every guest’s traffic counters' });
const nicRate = proxyActivities<Activities>(activityOptions(BUDGETS.smallConfigWrite, 1, 'set the NIC rate the throttle asks for'));
/** Waiting for a server's other operation to end (a backup, a migration): asked again for up to a day. */
const request = proxyActivities<Activities>(untilServerFreeOptions('1 day', "ask for the server's throttle or unthrottle operation"));

/** Runs begun before throttles were instance operations wrote the NIC rate themselves. */
const THROTTLE_AS_OPERATION = 'throttle-as-operation';
/** Runs begun before a server had one ApplyThrottle at a time started one per pass. */
const ONE_APPLY_THROTTLE_PER_SERVER = 'one-apply-throttle-per-server';

export interface TrafficSampleResult extends TrafficPassSummary {
  /** What each throttle change did to its server's NICs (`requested`: its operation is asked for by an ApplyThrottle workflow). */
  throttles: Record<string, ThrottleOutcome | 'requested'>;
}

/**
 * One sampling pass over a Proxmox connection (its Temporal Schedule runs it every
 * TRAFFIC_SAMPLE_SECONDS): counts every guest's traffic since the previous pass, then starts, for
 * each server whose throttle began or ended, an ApplyThrottle workflow that asks for its throttle
 * or unthrottle operation (left running when the pass ends: it may wait for another operation).
 */
export async function SampleTraffic(input: { connectionId: string }): Promise<TrafficSampleResult> {
  const summary = await pass.sampleTraffic(input);
  const asOperation = patched(THROTTLE_AS_OPERATION);
  const throttles: Record<string, ThrottleOutcome | 'requested'> = {};
  for (const instanceId of summary.throttleChanges) {
    if (!asOperation) {
      throttles[instanceId] = await nicRate.applyThrottle({ instanceId });
      continue;
    }
    if (!patched(ONE_APPLY_THROTTLE_PER_SERVER)) {
      await startChild(ApplyThrottle, { workflowId: `throttle-${instanceId}-${workflowInfo().runId}`, args: [{ instanceId }], parentClosePolicy: ParentClosePolicy.ABANDON });
    } else {
      // One already running asks for the throttle the server holds when it asks; should it have asked already, the reconciler asks again.
      await startChild(ApplyThrottle, { workflowId: applyThrottleWorkflowId(instanceId), args: [{ instanceId }], parentClosePolicy: ParentClosePolicy.ABANDON }).catch((error: unknown) => {
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      });
    }
    throttles[instanceId] = 'requested';
  }
  return { ...summary, throttles };
}

/**
 * A server's throttle began or ended (the sampler decided it, or an operator lifted it or added
 * allowance): asks for its throttle or unthrottle operation, as the system or as that operator,
 * again and again while another operation holds the server.
 */
export async function ApplyThrottle(input: { instanceId: string; actorUserId?: string }): Promise<ThrottleOutcome | NicRateRequestAnswer> {
  if (patched(THROTTLE_AS_OPERATION)) return request.requestNicRate(input);
  return nicRate.applyThrottle(input);
}
