import { CancellationScope, continueAsNew, proxyActivities, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { PROVISION_STAGES, type ProvisionStage } from '../domain/provisioning';
import { activityOptions, bookkeepingOptions, type Budget } from './activity-options';
import { InstanceStatusKey, ProvisionStageKey } from '../temporal/search-attributes';
import { progressQuery, type ProvisionProgress } from './definitions';
import { detailsWriter } from './details';
import { describeFailure, type DescribedFailure } from './failure';
import { operatorGate, removeGuestOrPark as removeOrPark } from './parking';

/** Compensations, pushed as stages begin and run in reverse. */
type Compensation = 'release' | 'removeGuest';

/** A rollback parked for an operator, carried into the next run by continue-as-new. */
export interface ParkedRollback {
  progress: ProvisionProgress;
  /** The failure being compensated. */
  failure: DescribedFailure;
  /** The compensations still to run, the parked removal first. */
  compensations: Compensation[];
}

export interface ProvisionInput {
  instanceId: string;
  taskId: string;
  /** Multiplies every time budget; tests run with short ones. */
  timeoutScale?: number;
  /** One line naming the server (the workflow's static summary), heading its current details. */
  summary?: string;
  /** Set by continue-as-new: resume the rollback where it waits for an operator. */
  parked?: ParkedRollback;
}

export interface ProvisionResult {
  status: 'running' | 'failed';
  failureCode?: string;
}

/**
 * Each Proxmox stage's budget: `budget` bounds all attempts together (over it, the provision
 * rolls back). finalize only writes to the database, so it retries for as long as that takes.
 */
export const STAGE_BUDGETS: Record<Exclude<ProvisionStage, 'finalize'>, Budget> = {
  clone: { budget: 900, attempt: 600, heartbeat: 30 },
  configure: { budget: 300, attempt: 120, heartbeat: 30 },
  cloud_init: { budget: 180, attempt: 120, heartbeat: 30 },
  network: { budget: 180, attempt: 120, heartbeat: 30 },
  boot: { budget: 300, attempt: 180, heartbeat: 30 },
  verify: { budget: 300, attempt: 30 },
};
export const REMOVAL_BUDGET: Budget = { budget: 300, attempt: 120, heartbeat: 30 };

/** What each stage's activity shows in the Web UI. */
export const STAGE_SUMMARIES: Record<ProvisionStage, string> = {
  clone: 'clone: full clone of the image template to our VMID',
  configure: 'configure: CPU, memory, tag, disk size',
  cloud_init: 'cloud_init: user, credential, addresses, DNS',
  network: 'network: net0 on the pool bridge',
  boot: 'boot: boot order, agent, start',
  verify: 'verify: the guest reports running',
  finalize: 'finalize: the reservations become the instance',
};

/** The activity options of a stage: Proxmox stages by their budget, finalize as bookkeeping. */
export function stageOptions(stage: ProvisionStage, scale: number) {
  return stage === 'finalize' ? bookkeepingOptions(scale, STAGE_SUMMARIES[stage]) : activityOptions(STAGE_BUDGETS[stage], scale, STAGE_SUMMARIES[stage]);
}

/**
 * Turns committed reservations into a running guest: clone → configure → cloud_init → network
 * → boot → verify → finalize. On any failure the compensations run in reverse, outside
 * cancellation; a guest that cannot be proven gone parks the workflow for an operator.
 */
export async function ProvisionInstance(input: ProvisionInput): Promise<ProvisionResult> {
  const scale = input.timeoutScale ?? 1;
  const ref = { instanceId: input.instanceId, taskId: input.taskId };
  const removal = proxyActivities<Activities>(activityOptions(REMOVAL_BUDGET, scale, 'rollback: remove the guest'));
  const bookkeeping = (summary: string) => proxyActivities<Activities>(bookkeepingOptions(scale, summary));
  const show = detailsWriter(input.summary);

  const progress: ProvisionProgress = input.parked?.progress ?? { stage: null, completedStages: [], status: 'provisioning', rollback: { state: 'none', parkedTimes: 0 } };
  setHandler(progressQuery, () => progress);
  const gate = operatorGate(progress);

  const setStatus = (status: string) => {
    progress.status = status;
    upsertSearchAttributes([{ key: InstanceStatusKey, value: status }]);
  };

  if (input.parked) return CancellationScope.nonCancellable(() => rollBack(input.parked!.failure, input.parked!.compensations, true));

  const run: Record<ProvisionStage, (a: Activities) => (r: typeof ref) => Promise<void>> = {
    clone: (a) => a.cloneGuest,
    configure: (a) => a.configureGuest,
    cloud_init: (a) => a.applyCloudInit,
    network: (a) => a.attachNetwork,
    boot: (a) => a.bootGuest,
    verify: (a) => a.verifyGuest,
    finalize: (a) => a.finalizeInstance,
  };

  // The reservations were committed by the API before this workflow started, so releasing them
  // is always the last compensation.
  const compensations: Compensation[] = ['release'];

  setStatus('provisioning');
  try {
    for (const stage of PROVISION_STAGES) {
      progress.stage = stage;
      upsertSearchAttributes([{ key: ProvisionStageKey, value: stage }]);
      show(`Provisioning, stage ${STAGE_SUMMARIES[stage]}.`);
      // A clone that fails half-way can still leave a guest behind, so its undo is registered first.
      if (stage === 'clone') compensations.push('removeGuest');
      await run[stage](proxyActivities<Activities>(stageOptions(stage, scale)))(ref);
      progress.completedStages.push(stage);
    }
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
        const outcome = await removeOrPark({
          ref,
          purpose: 'rollback',
          progress,
          gate,
          setStatus,
          removal,
          bookkeeping,
          show,
          resumeParked,
          continueAsNew: () => continueAsNew<typeof ProvisionInstance>({ ...input, parked: { progress, failure, compensations: remaining.slice(index) } }),
        });
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
