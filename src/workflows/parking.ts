import { allHandlersFinished, ApplicationFailure, condition, patched, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { ParkingPurpose, GuestDestroyOutcome } from '../activities/rollback';
import {
  resolveRollbackSignal,
  resolveRollbackUpdate,
  retryRollbackSignal,
  retryRollbackUpdate,
  type ProvisionProgress,
} from './definitions';
import { operatorReason } from './failure';

/**
 * Parks one run may take: past it, a parked workflow continues as new, carrying its state, so its
 * history stays small however often an operator retries.
 */
export const PARKS_PER_RUN = 20;

export type OperatorDecision = { action: 'retry' } | { action: 'resolve'; note: string };

export interface OperatorGate {
  /** Waits for the operator's next decision (only taken while parked). */
  next(): Promise<OperatorDecision>;
  /** A decision was taken and not carried out yet. */
  pending(): boolean;
}

/** Rejects an operator update that finds nothing parked, saying what the workflow is doing instead. */
function assertParked(progress: ProvisionProgress, decided: boolean) {
  const { state } = progress.rollback;
  if (state === 'parked' && !decided) return;
  const doing =
    state === 'parked' ? 'an operator decision is already being carried out' :
    state === 'running' ? 'the cleanup is running' :
    state === 'done' ? 'the cleanup has finished' :
    `it is ${progress.status}${progress.stage ? ` (stage ${progress.stage})` : ''}`;
  throw ApplicationFailure.create({ type: 'NOT_PARKED', nonRetryable: true, message: `Nothing is waiting for an operator: ${doing}.` });
}

const cleanNote = (note: unknown) => String(note ?? '').slice(0, 2000);

/**
 * Installs the operator's updates (and the signals of earlier versions) on this workflow; call
 * once, at its start. An update answers as soon as its decision is taken; what follows shows in
 * the progress query and the workflow's current details.
 */
export function operatorGate(progress: ProvisionProgress): OperatorGate {
  let decision: OperatorDecision | null = null;
  const validator = () => assertParked(progress, decision !== null);

  setHandler(
    retryRollbackUpdate,
    () => {
      decision = { action: 'retry' };
      return Promise.resolve('Accepted: the removal is being tried again.');
    },
    { validator },
  );
  setHandler(
    resolveRollbackUpdate,
    ({ note }) => {
      decision = { action: 'resolve', note: cleanNote(note) };
      return Promise.resolve('Accepted: the reservations are being released.');
    },
    {
      validator: (input) => {
        validator();
        if (typeof input?.note !== 'string' || input.note.trim() === '') {
          throw ApplicationFailure.create({ type: 'NOTE_REQUIRED', nonRetryable: true, message: `resolveRollback needs a note saying what was done: --input '{"note":"…"}'.` });
        }
      },
    },
  );
  // Signals carry no answer: taken while parked (the last one wins, as before), ignored otherwise.
  setHandler(retryRollbackSignal, () => {
    if (progress.rollback.state === 'parked') decision = { action: 'retry' };
  });
  setHandler(resolveRollbackSignal, ({ note }) => {
    if (progress.rollback.state === 'parked') decision = { action: 'resolve', note: cleanNote(note) };
  });

  return {
    async next() {
      await condition(() => decision !== null);
      const made = decision as OperatorDecision;
      decision = null;
      return made;
    },
    pending: () => decision !== null,
  };
}

/** What the Web UI shows while a workflow waits for an operator: the reason and the two commands that end it. */
export function parkedDetails(purpose: ParkingPurpose, progress: ProvisionProgress): string {
  const id = workflowInfo().workflowId;
  const what = purpose === 'rollback' ? 'the rollback' : 'the delete';
  return [
    `**Parked: waiting for an operator** (${what} could not prove the guest gone; parked ${progress.rollback.parkedTimes} time(s); every reservation is kept)`,
    `Reason: ${progress.rollback.reason ?? 'unknown'}`,
    '',
    'Try the removal again (parks again if it still fails):',
    `\`temporal workflow update execute --workflow-id ${id} --name retryRollback\``,
    '',
    'Or, once the guest was removed by hand, release everything and audit what you did:',
    `\`temporal workflow update execute --workflow-id ${id} --name resolveRollback --input '{"note":"what you did"}'\``,
  ].join('\n');
}

export interface DestroyContext {
  ref: { instanceId: string; taskId: string };
  purpose: ParkingPurpose;
  progress: ProvisionProgress;
  gate: OperatorGate;
  setStatus: (status: string) => void;
  /** Proxied with the guest destroy's budget. */
  guestDestroy: Pick<Activities, 'removeGuest'>;
  /** Database-only activities, proxied with the given summary. */
  bookkeeping: (summary: string) => Pick<Activities, 'parkInstance' | 'recordOperatorNote'>;
  /** Writes the workflow's current details. */
  show: (text: string) => void;
  /** The run was continued while parked: the instance is parked already, so wait for the operator first. */
  resumeParked?: boolean;
  /** Continues as new with the workflow's state (called while parked, with no decision pending). */
  continueAsNew: () => Promise<never>;
}

/**
 * Destroys the guest, or parks the instance in `rollback_failed` (every reservation kept) until
 * an operator retries (parking again on failure) or resolves (the guest was destroyed by hand).
 */
export async function destroyGuestOrPark(ctx: DestroyContext): Promise<GuestDestroyOutcome | { note: string }> {
  const { ref, progress, gate, purpose } = ctx;
  let parksThisRun = 0;
  let attempt = !ctx.resumeParked;
  for (;;) {
    if (attempt) {
      ctx.show(`Removing the guest (${purpose}).`);
      try {
        return await ctx.guestDestroy.removeGuest({ ...ref, purpose });
      } catch (error) {
        const reason = operatorReason(error);
        progress.rollback = { state: 'parked', reason, parkedTimes: progress.rollback.parkedTimes + 1 };
        ctx.setStatus('rollback_failed');
        await ctx.bookkeeping(`${purpose}: park for an operator`).parkInstance({ ...ref, purpose, reason, attempt: progress.rollback.parkedTimes, cause: { stage: progress.stage } });
        parksThisRun++;
      }
    }
    attempt = true;
    ctx.show(parkedDetails(purpose, progress));
    // Runs started before this existed may have parked more often in one history: they go on as they were.
    if (parksThisRun >= PARKS_PER_RUN && patched('continue-parked-as-new')) {
      // Every update handler finishes before the run ends; a decision taken meanwhile is carried out here.
      await condition(() => gate.pending() || allHandlersFinished());
      if (!gate.pending()) await ctx.continueAsNew();
    }
    const made = await gate.next();
    progress.rollback = { state: 'running', parkedTimes: progress.rollback.parkedTimes };
    if (made.action === 'resolve') {
      ctx.show(`Resolved by an operator: ${made.note}`);
      await ctx.bookkeeping(`${purpose}: record the operator's note`).recordOperatorNote({ instanceId: ref.instanceId, action: `${purpose}.resolved_by_operator`, note: made.note });
      return { note: made.note };
    }
  }
}
