import { Context } from '@temporalio/activity';
import { AppError, type ErrorCode } from '../domain/errors';
import { delay } from '../proxmox/delay';
import { requestFirewallReapply } from '../services/firewall';
import { cancellationSignal, heartbeat } from './context';
import type { ActivityDeps } from './deps';

export interface GroupReapplyRequest {
  instanceId: string;
  tenantId: string;
  /** Who changed the group: the operation is theirs. */
  actorUserId: string;
}

export type GroupReapplyAnswer = { taskId: string } | { skipped: 'already_applied' | ErrorCode };

/** Refusals that pass once the server's other operation ends (or the service is back): the attempt is retried. */
export const WAIT_FOR: readonly ErrorCode[] = ['OPERATION_IN_PROGRESS', 'BACKUP_IN_PROGRESS', 'SERVICE_BUSY', 'SERVICE_UNAVAILABLE', 'PROVIDER_UNAVAILABLE'];

/**
 * One server of a group's fan-out: its firewall applied again as its `firewall` operation, asked
 * for as the API would, as the user who changed the group. A server busy with another operation
 * is asked again later (the attempt fails and is retried); one in no state to apply (failed,
 * deleted) is skipped.
 * Converges on retry: a server whose guest holds its current generation already is skipped, and
 * the operation request is one transaction that opens at most one task per server at a time.
 */
export function createRequestGroupReapplyActivity(deps: ActivityDeps) {
  return async function requestGroupReapply({ instanceId, tenantId, actorUserId }: GroupReapplyRequest): Promise<GroupReapplyAnswer> {
    const services = { ...deps, temporal: Context.current().client };
    // The fan-out carries out a change the route table allowed already: it acts with the tenant's full rights.
    const who = { userId: actorUserId, tokenId: 'firewall-group', role: 'customer' as const, tenantId, tenantRole: 'owner' as const };
    try {
      const taskId = await requestFirewallReapply(services, who, instanceId);
      return taskId ? { taskId } : { skipped: 'already_applied' };
    } catch (error) {
      if (!(error instanceof AppError) || WAIT_FOR.includes(error.code)) throw error;
      return { skipped: error.code };
    }
  };
}

export interface FirewallTaskOutcome {
  status: 'succeeded' | 'failed';
  errorCode: string | null;
}

const POLL_MS = 500;

/**
 * Waits for a firewall operation's task to end and answers how it ended.
 * Converges on retry: it only reads the task.
 */
export function createAwaitFirewallTaskActivity(deps: ActivityDeps) {
  return async function awaitFirewallTask({ taskId }: { taskId: string }): Promise<FirewallTaskOutcome> {
    for (;;) {
      const task = await deps.db.task.findUniqueOrThrow({ where: { id: taskId }, select: { status: true, errorCode: true } });
      if (task.status === 'succeeded' || task.status === 'failed') return { status: task.status, errorCode: task.errorCode };
      heartbeat();
      await delay(POLL_MS, cancellationSignal());
    }
  };
}
