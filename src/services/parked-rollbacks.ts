import { WorkflowNotFoundError, WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import { recordAudit } from '../db/audit';
import { AppError } from '../domain/errors';
import { sendParkedDecision, type ParkedDecision } from '../temporal/parked-decisions';
import type { ServiceDeps } from './deps';
import { findInstance } from './instances';
import { OPERATOR, type Principal } from './principal';

export type { ParkedDecision } from '../temporal/parked-decisions';

/** How long a request waits for a worker to take an operator's decision. */
const DECISION_DEADLINE_MS = 10_000;

/**
 * Sends an operator's decision to a parked workflow as a Temporal Update: the workflow's
 * validator accepts it, or rejects it saying why (INVALID_STATE with its message).
 */
export async function decideParked(deps: Pick<ServiceDeps, 'temporal'>, workflowId: string, decision: ParkedDecision): Promise<void> {
  try {
    await sendParkedDecision(deps.temporal, workflowId, decision, DECISION_DEADLINE_MS);
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) throw new AppError('INVALID_STATE', 'No workflow is waiting for this server.', { workflow: 'closed' });
    if (error instanceof WorkflowUpdateFailedError) {
      throw new AppError('INVALID_STATE', error.cause?.message ?? 'The workflow did not accept the decision.', { workflow: 'not_parked' });
    }
    if (error instanceof WorkflowUpdateRPCTimeoutOrCancelledError) {
      throw new AppError('PROVIDER_UNAVAILABLE', 'No worker took the decision in time. Please try again.');
    }
    throw error;
  }
}

/**
 * An operator's decision about a parked rollback: sent to the workflow of the server's latest
 * task, which accepts it only while parked, then audited.
 */
export async function decideParkedRollback(deps: Pick<ServiceDeps, 'db' | 'temporal'>, who: Principal, instanceId: string, decision: ParkedDecision): Promise<void> {
  const row = await findInstance(deps, OPERATOR, instanceId);
  const task = row.tasks[0];
  if (row.status !== 'rollback_failed' || !task) {
    throw new AppError('INVALID_STATE', 'Only a server in rollback_failed waits for an operator.', { status: row.status });
  }
  await decideParked(deps, task.workflowId, decision);
  const entry = { actorUserId: who.userId, tenantId: row.tenantId, instanceId };
  await recordAudit(
    deps.db,
    decision.action === 'retry' ? { action: 'rollback.retry_requested', ...entry } : { action: 'rollback.resolve_requested', ...entry, details: { note: decision.note } },
  );
}
