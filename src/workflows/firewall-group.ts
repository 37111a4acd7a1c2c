import { defineQuery, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { FirewallTaskOutcome, GroupReapplyAnswer } from '../activities/firewall-groups';
import { bookkeepingOptions, untilServerFreeOptions } from './activity-options';

export interface ApplyFirewallGroupInput {
  groupId: string;
  tenantId: string;
  actorUserId: string;
  /** The servers that named the group when it changed. */
  instanceIds: string[];
  /** How many servers are applied at once. */
  parallelism: number;
}

/** How one server of the fan-out stands. */
export interface ServerReapply {
  state: 'waiting' | 'applying' | 'applied' | 'failed' | 'skipped';
  taskId?: string;
  /** Why it failed (the task's error code) or was skipped (`already_applied`, or the refusal's code). */
  reason?: string;
}

/** Each server's state in the fan-out, by instance id. */
export const serverReapplies = defineQuery<Record<string, ServerReapply>>('serverReapplies');

/** Waiting for a server's other operation to end: asked again for up to an hour. */
const request = proxyActivities<Activities>(untilServerFreeOptions('1 hour', "ask for the server's firewall operation"));

/**
 * One change of a firewall group applied again to every server that names it: a few servers at a
 * time (`parallelism`), each as its own `firewall` operation (its own task, step thread and
 * events), the fan-out's own answer and query (`serverReapplies`) saying how each went. A server
 * that fails does not stop the others.
 */
export async function ApplyFirewallGroup(input: ApplyFirewallGroupInput): Promise<Record<string, ServerReapply>> {
  const results: Record<string, ServerReapply> = Object.fromEntries(input.instanceIds.map((id) => [id, { state: 'waiting' }]));
  setHandler(serverReapplies, () => results);
  const { awaitFirewallTask } = proxyActivities<Activities>({ ...bookkeepingOptions(1, 'wait for the server firewall operation', 30), startToCloseTimeout: '15 minutes' });

  const applyOne = async (instanceId: string): Promise<void> => {
    let answer: GroupReapplyAnswer;
    try {
      answer = await request.requestGroupReapply({ instanceId, tenantId: input.tenantId, actorUserId: input.actorUserId });
    } catch {
      results[instanceId] = { state: 'failed', reason: 'NOT_REQUESTED' };
      return;
    }
    if ('skipped' in answer) {
      results[instanceId] = { state: answer.skipped === 'already_applied' ? 'applied' : 'skipped', reason: answer.skipped };
      return;
    }
    results[instanceId] = { state: 'applying', taskId: answer.taskId };
    const outcome: FirewallTaskOutcome = await awaitFirewallTask({ taskId: answer.taskId });
    results[instanceId] = outcome.status === 'succeeded' ? { state: 'applied', taskId: answer.taskId } : { state: 'failed', taskId: answer.taskId, reason: outcome.errorCode ?? 'OPERATION_FAILED' };
  };

  const queue = [...input.instanceIds];
  const lane = async (): Promise<void> => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) await applyOne(next);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(input.parallelism, queue.length)) }, lane));
  return results;
}
