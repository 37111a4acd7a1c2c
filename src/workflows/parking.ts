import { condition, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { ParkingPurpose, RemovalOutcome } from '../activities/rollback';
import { resolveRollbackSignal, retryRollbackSignal, type ProvisionProgress } from './definitions';
import { removalReason } from './failure';

export type OperatorDecision = { action: 'retry' } | { action: 'resolve'; note: string };

export interface OperatorGate {
  /** Waits for the operator's next decision (signals are only taken while parked). */
  next(): Promise<OperatorDecision>;
}

/** Installs the operator's signals on this workflow; call once, at its start. */
export function operatorGate(progress: ProvisionProgress): OperatorGate {
  let decision: OperatorDecision | null = null;
  setHandler(retryRollbackSignal, () => {
    if (progress.rollback.state === 'parked') decision = { action: 'retry' };
  });
  setHandler(resolveRollbackSignal, ({ note }) => {
    if (progress.rollback.state === 'parked') decision = { action: 'resolve', note: String(note ?? '').slice(0, 2000) };
  });
  return {
    async next() {
      await condition(() => decision !== null);
      const made = decision as OperatorDecision;
      decision = null;
      return made;
    },
  };
}

export interface RemovalContext {
  ref: { instanceId: string; taskId: string };
  purpose: ParkingPurpose;
  progress: ProvisionProgress;
  gate: OperatorGate;
  setStatus: (status: string) => void;
  /** Proxied with the removal's budget. */
  removal: Pick<Activities, 'removeGuest'>;
  /** Proxied with the bookkeeping budget. */
  bookkeeping: Pick<Activities, 'parkInstance' | 'recordOperatorNote'>;
}

/**
 * Removes the guest, or parks the instance in `rollback_failed` (every reservation kept) until
 * an operator retries (parking again on failure) or resolves (the guest was removed by hand).
 */
export async function removeGuestOrPark(ctx: RemovalContext): Promise<RemovalOutcome | { note: string }> {
  const { ref, progress } = ctx;
  for (;;) {
    try {
      return await ctx.removal.removeGuest({ ...ref, purpose: ctx.purpose });
    } catch (error) {
      const reason = removalReason(error);
      progress.rollback = { state: 'parked', reason, parkedTimes: progress.rollback.parkedTimes + 1 };
      ctx.setStatus('rollback_failed');
      await ctx.bookkeeping.parkInstance({ ...ref, purpose: ctx.purpose, reason, attempt: progress.rollback.parkedTimes, cause: { stage: progress.stage } });
      const made = await ctx.gate.next();
      progress.rollback = { state: 'running', parkedTimes: progress.rollback.parkedTimes };
      if (made.action === 'resolve') {
        await ctx.bookkeeping.recordOperatorNote({ instanceId: ref.instanceId, action: `${ctx.purpose}.resolved_by_operator`, note: made.note });
        return { note: made.note };
      }
    }
  }
}
