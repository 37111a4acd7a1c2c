import { CancellationScope, continueAsNew, patched } from '@temporalio/workflow';
import type { ProvisionProgress } from './definitions';
import { describeFailure, type DescribedFailure } from './failure';
import { stagePipeline, type InstanceWorkflowInput } from './stage-pipeline';

/** Compensations, pushed as stages begin and run in reverse (`removeGuest` destroys the guest: the value is recorded in parked runs' input, so it stays). */
type Compensation = 'release' | 'removeGuest';

/** A rollback parked for an operator, carried into the next run by continue-as-new. */
export interface ParkedRollback {
  progress: ProvisionProgress;
  /** The failure being compensated. */
  failure: DescribedFailure;
  /** The compensations still to run, the parked destroy first. */
  compensations: Compensation[];
}

/** Histories from before a server could be restored from a backup as a new server replay without this marker. */
export const RESTORE_AS_NEW_PATCH = 'restore-as-new-server';

export interface ProvisionInput extends InstanceWorkflowInput {
  /** The instance is restored from its backup (`restoredFromBackupId`): the clone stage restores the archive. */
  fromBackup?: boolean;
  /** Set by continue-as-new: resume the rollback where it waits for an operator. */
  parked?: ParkedRollback;
}

export interface ProvisionResult {
  status: 'running' | 'failed';
  failureCode?: string;
}

/**
 * Turns committed reservations into a running guest: clone (or, from a backup, a restore of its
 * archive) → configure → cloud_init → network → boot → verify → finalize. On any failure the compensations run in reverse, outside
 * cancellation; a guest that cannot be proven gone parks the workflow for an operator.
 */
export async function ProvisionInstance(input: ProvisionInput): Promise<ProvisionResult> {
  const progress: ProvisionProgress = input.parked?.progress ?? { stage: null, completedStages: [], status: 'provisioning', rollback: { state: 'none', parkedTimes: 0 } };
  const { ref, bookkeeping, show, setStatus, runStages, destroyOrPark } = stagePipeline(input, progress, 'rollback: remove the guest');

  if (input.parked) return CancellationScope.nonCancellable(() => rollBack(input.parked!.failure, input.parked!.compensations, true));

  // The reservations were committed by the API before this workflow started, so releasing them
  // is always the last compensation.
  const compensations: Compensation[] = ['release'];

  setStatus('provisioning');
  const fromBackup = input.fromBackup === true && patched(RESTORE_AS_NEW_PATCH);
  try {
    await runStages(
      fromBackup ? 'Restoring a backup as a new server' : 'Provisioning',
      (stage) => {
        // A clone (or restore) that fails half-way can still leave a guest behind, so its undo is registered first.
        if (stage === 'clone') compensations.push('removeGuest');
      },
      fromBackup,
    );
    setStatus('running');
    show('The server is running.');
    return { status: 'running' };
  } catch (error) {
    const failure = describeFailure(error, progress.stage);
    return CancellationScope.nonCancellable(() => rollBack(failure, compensations.reverse(), false));
  }

  async function rollBack(failure: DescribedFailure, remaining: Compensation[], resumeParked: boolean): Promise<ProvisionResult> {
    progress.rollback.state = progress.rollback.state === 'none' ? 'running' : progress.rollback.state;
    let keepVmid = false;
    let ended: 'failed' | 'deleted' = 'failed';
    const cause: Record<string, unknown> = { ...failure.cause };
    for (const [index, compensation] of remaining.entries()) {
      if (compensation === 'removeGuest') {
        const outcome = await destroyOrPark('rollback', resumeParked, () =>
          continueAsNew<typeof ProvisionInstance>({ ...input, parked: { progress, failure, compensations: remaining.slice(index) } }),
        );
        keepVmid = outcome === 'not_ours';
        if (keepVmid) cause.vmidKept = 'a guest we did not create uses this VMID; it stays out of circulation';
        if (typeof outcome === 'object') cause.operatorNote = outcome.note;
      } else {
        show(`Rolling back (${failure.code}): releasing the reservations.`);
        // A provision deleted while it ran ends `deleted`, not `failed`.
        const status = await bookkeeping('rollback: release the reservations, fail the instance').failInstance({
          ...ref,
          failure: { code: failure.code, message: failure.message },
          cause,
          keepVmid,
        });
        if (status === 'deleted') ended = 'deleted';
      }
    }
    progress.rollback.state = 'done';
    setStatus(ended);
    show(`Rolled back (${failure.code}); the instance is ${ended}.`);
    return { status: 'failed', failureCode: failure.code };
  }
}
