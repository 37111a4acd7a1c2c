import type { Client } from '@temporalio/client';
import { resolveRollbackUpdate, retryRollbackUpdate } from '../workflows/definitions';

export type ParkedDecision = { action: 'retry' } | { action: 'resolve'; note: string };

/** Sends an operator's decision to a parked workflow as a Temporal Update and waits, at most `deadlineMs`, for its validator's verdict. */
export function sendParkedDecision(client: Client, workflowId: string, decision: ParkedDecision, deadlineMs: number): Promise<string> {
  const handle = client.workflow.getHandle(workflowId);
  return client.connection.withDeadline(Date.now() + deadlineMs, () =>
    decision.action === 'retry' ? handle.executeUpdate(retryRollbackUpdate) : handle.executeUpdate(resolveRollbackUpdate, { args: [{ note: decision.note }] }),
  );
}
