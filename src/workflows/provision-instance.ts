import { ActivityCancellationType, CancellationScope, proxyActivities, setHandler, upsertSearchAttributes, type ActivityOptions } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { NON_RETRYABLE_TYPES } from '../domain/failure-types';
import { PROVISION_STAGES, type ProvisionStage } from '../domain/provisioning';
import { InstanceStatusKey, progressQuery, ProvisionStageKey, type ProvisionProgress } from './definitions';
import { describeFailure, type DescribedFailure } from './failure';
import { operatorGate, removeGuestOrPark as removeOrPark } from './parking';

export interface ProvisionInput {
  instanceId: string;
  taskId: string;
  /** Multiplies every time budget; tests run with short ones. */
  timeoutScale?: number;
}

export interface ProvisionResult {
  status: 'running' | 'failed';
  failureCode?: string;
}

/** Each stage's budget: `budget` bounds all attempts together (over it, the provision rolls back). */
export const STAGE_BUDGETS: Record<ProvisionStage, { budget: number; attempt: number; heartbeat?: number }> = {
  clone: { budget: 900, attempt: 600, heartbeat: 30 },
  configure: { budget: 300, attempt: 120, heartbeat: 30 },
  cloud_init: { budget: 180, attempt: 120, heartbeat: 30 },
  network: { budget: 180, attempt: 120, heartbeat: 30 },
  boot: { budget: 300, attempt: 180, heartbeat: 30 },
  verify: { budget: 300, attempt: 30 },
  finalize: { budget: 120, attempt: 30 },
};
const REMOVAL_BUDGET = { budget: 300, attempt: 120, heartbeat: 30 };

export function activityOptions(budget: { budget: number; attempt: number; heartbeat?: number }, scale: number): ActivityOptions {
  const seconds = (value: number) => Math.max(1000, Math.round(value * scale * 1000));
  return {
    scheduleToCloseTimeout: seconds(budget.budget),
    startToCloseTimeout: seconds(budget.attempt),
    ...(budget.heartbeat ? { heartbeatTimeout: seconds(budget.heartbeat) } : {}),
    // A cancelled workflow compensates only once the running activity has stopped touching the guest.
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    retry: {
      initialInterval: seconds(1),
      backoffCoefficient: 2,
      maximumInterval: seconds(30),
      nonRetryableErrorTypes: NON_RETRYABLE_TYPES,
    },
  };
}

/**
 * Turns committed reservations into a running guest: clone → configure → cloud_init → network
 * → boot → verify → finalize. On any failure the compensations run in reverse, outside
 * cancellation; a guest that cannot be proven gone parks the workflow for an operator.
 */
export async function ProvisionInstance(input: ProvisionInput): Promise<ProvisionResult> {
  const scale = input.timeoutScale ?? 1;
  const ref = { instanceId: input.instanceId, taskId: input.taskId };
  const stageActivity = (stage: ProvisionStage) => proxyActivities<Activities>(activityOptions(STAGE_BUDGETS[stage], scale));
  const removal = proxyActivities<Activities>(activityOptions(REMOVAL_BUDGET, scale));
  const bookkeeping = proxyActivities<Activities>(activityOptions({ budget: 600, attempt: 30 }, scale));

  const progress: ProvisionProgress = { stage: null, completedStages: [], status: 'provisioning', rollback: { state: 'none', parkedTimes: 0 } };
  setHandler(progressQuery, () => progress);
  const gate = operatorGate(progress);

  const setStatus = (status: string) => {
    progress.status = status;
    upsertSearchAttributes([{ key: InstanceStatusKey, value: status }]);
  };

  const run: Record<ProvisionStage, (a: Activities) => (r: typeof ref) => Promise<void>> = {
    clone: (a) => a.cloneGuest,
    configure: (a) => a.configureGuest,
    cloud_init: (a) => a.applyCloudInit,
    network: (a) => a.attachNetwork,
    boot: (a) => a.bootGuest,
    verify: (a) => a.verifyGuest,
    finalize: (a) => a.finalizeInstance,
  };

  // Compensations, pushed as stages begin and run in reverse. The reservations were committed
  // by the API before this workflow started, so releasing them is always the last one.
  type Compensation = 'release' | 'removeGuest';
  const compensations: Compensation[] = ['release'];

  setStatus('provisioning');
  try {
    for (const stage of PROVISION_STAGES) {
      progress.stage = stage;
      upsertSearchAttributes([{ key: ProvisionStageKey, value: stage }]);
      // A clone that fails half-way can still leave a guest behind, so its undo is registered first.
      if (stage === 'clone') compensations.push('removeGuest');
      await run[stage](stageActivity(stage))(ref);
      progress.completedStages.push(stage);
    }
    setStatus('running');
    return { status: 'running' };
  } catch (error) {
    const failure = describeFailure(error, progress.stage);
    return CancellationScope.nonCancellable(() => rollBack(failure));
  }

  async function rollBack(failure: DescribedFailure): Promise<ProvisionResult> {
    progress.rollback.state = 'running';
    let keepVmid = false;
    let ended: 'failed' | 'deleted' = 'failed';
    const cause: Record<string, unknown> = { ...failure.cause };
    for (const compensation of compensations.reverse()) {
      if (compensation === 'removeGuest') {
        const outcome = await removeGuestOrPark();
        keepVmid = outcome === 'not_ours';
        if (keepVmid) cause.vmidKept = 'a guest we did not create uses this VMID; it stays out of circulation';
        if (typeof outcome === 'object') cause.operatorNote = outcome.note;
      } else {
        // A provision deleted while it ran ends `deleted`, not `failed`.
        const status = await bookkeeping.failInstance({ ...ref, failure: { code: failure.code, message: failure.message }, cause, keepVmid });
        if (status === 'deleted') ended = 'deleted';
      }
    }
    progress.rollback.state = 'done';
    setStatus(ended);
    return { status: 'failed', failureCode: failure.code };
  }

  /** Removes the guest, or parks until an operator retries (parking again on failure) or resolves. */
  async function removeGuestOrPark(): Promise<'removed' | 'absent' | 'not_ours' | { note: string }> {
    return removeOrPark({ ref, purpose: 'rollback', progress, gate, setStatus, removal, bookkeeping });
  }
}
