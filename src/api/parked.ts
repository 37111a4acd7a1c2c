import { WorkflowNotFoundError, WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import { AppError } from '../domain/errors';
import { resolveRollbackUpdate, retryRollbackUpdate } from '../workflows/definitions';
import type { ApiDeps } from './deps';

/** How long the API waits for a worker to take an operator's decision. */
const DECISION_DEADLINE_MS = 10_000;

export type ParkedDecision = { action: 'retry' } | { action: 'resolve'; note: string };

/**
 * Sends an operator's decision to a parked workflow as a Temporal Update: the workflow's
 * validator accepts it, or rejects it saying why (INVALID_STATE with its message).
 */
export async function decideParked(deps: ApiDeps, workflowId: string, decision: ParkedDecision): Promise<void> {
  const handle = deps.temporal.workflow.getHandle(workflowId);
  try {
    await deps.temporal.connection.withDeadline(Date.now() + DECISION_DEADLINE_MS, () =>
      decision.action === 'retry' ? handle.executeUpdate(retryRollbackUpdate) : handle.executeUpdate(resolveRollbackUpdate, { args: [{ note: decision.note }] }),
    );
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
