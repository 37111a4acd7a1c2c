import { proxyActivities, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { ParkingPurpose } from '../activities/rollback';
import { PROVISION_STAGES, type ProvisionStage } from '../domain/provisioning';
import { activityOptions, bookkeepingOptions, BUDGETS, type Budget } from './activity-options';
import { InstanceStatusKey, ProvisionStageKey } from '../temporal/search-attributes';
import { progressQuery, type ProvisionProgress } from './definitions';
import { detailsWriter } from './details';
import { operatorGate, destroyGuestOrPark } from './parking';

/** Each stage's activity: a provision runs them in order, a rebuild runs them again on the new disk. */
const STAGE_ACTIVITIES = {
  clone: 'cloneGuest',
  configure: 'configureGuest',
  cloud_init: 'applyCloudInit',
  network: 'attachNetwork',
  boot: 'bootGuest',
  verify: 'verifyGuest',
  finalize: 'finalizeInstance',
} as const satisfies Record<ProvisionStage, keyof Activities>;

/** Each Proxmox stage's budget; finalize only writes to the database, so it retries for as long as that takes. */
const STAGE_BUDGETS: Record<Exclude<ProvisionStage, 'finalize'>, Budget> = {
  clone: BUDGETS.fullClone,
  configure: BUDGETS.guestConfig,
  cloud_init: BUDGETS.smallConfigWrite,
  network: BUDGETS.smallConfigWrite,
  boot: BUDGETS.guestPower,
  verify: BUDGETS.guestStatusCheck,
};

/** What each stage's activity shows in the Web UI. */
const STAGE_SUMMARIES: Record<ProvisionStage, string> = {
  clone: 'clone: full clone of the image template to our VMID',
  configure: 'configure: CPU, memory, tag, disk size',
  cloud_init: 'cloud_init: user, credential, addresses, DNS',
  network: 'network: net0 on the pool bridge',
  boot: 'boot: boot order, agent, start',
  verify: 'verify: the guest reports running',
  finalize: 'finalize: the reservations become the instance',
};

/** A server restored from a backup as a new server: its clone stage writes the archive to our VMID instead. */
const RESTORE_STAGE = {
  activity: 'restoreGuestFromBackup',
  summary: 'clone: restore the backup archive to our VMID',
} as const satisfies { activity: keyof Activities; summary: string };

/** The activity options of a stage: Proxmox stages by their budget, finalize as bookkeeping. */
export function stageOptions(stage: ProvisionStage, scale: number) {
  return stage === 'finalize' ? bookkeepingOptions(scale, STAGE_SUMMARIES[stage]) : activityOptions(STAGE_BUDGETS[stage], scale, STAGE_SUMMARIES[stage]);
}

/** What every workflow on one instance starts with. */
export interface InstanceWorkflowInput {
  instanceId: string;
  taskId: string;
  /** Multiplies every time budget; tests run with short ones. */
  timeoutScale?: number;
  /** One line naming the server (and the operation), the workflow's static summary, heading its current details. */
  summary?: string;
}

/**
 * What provisioning and instance operations share: the progress query and the operator's
 * updates (installed here, at the workflow's start), the status, the stages, and the guestDestroy of
 * the guest that parks for an operator when it cannot be proven gone.
 */
export function stagePipeline(input: InstanceWorkflowInput, progress: ProvisionProgress, destroySummary: string) {
  const scale = input.timeoutScale ?? 1;
  const ref = { instanceId: input.instanceId, taskId: input.taskId };
  const guestDestroy = proxyActivities<Activities>(activityOptions(BUDGETS.guestDestroy, scale, destroySummary));
  const bookkeeping = (summary: string) => proxyActivities<Activities>(bookkeepingOptions(scale, summary));
  const show = detailsWriter(input.summary);
  setHandler(progressQuery, () => progress);
  const gate = operatorGate(progress);

  const setStatus = (status: string) => {
    progress.status = status;
    upsertSearchAttributes([{ key: InstanceStatusKey, value: status }]);
  };

  /**
   * Runs every stage in order; `beforeStage` registers what a stage needs undone if it fails.
   * `fromBackup`: the clone stage restores the instance's backup instead of cloning its image.
   */
  async function runStages(label: string, beforeStage?: (stage: ProvisionStage) => void | Promise<void>, fromBackup = false) {
    for (const stage of PROVISION_STAGES) {
      progress.stage = stage;
      upsertSearchAttributes([{ key: ProvisionStageKey, value: stage }]);
      const restores = fromBackup && stage === 'clone';
      show(`${label}, stage ${restores ? RESTORE_STAGE.summary : STAGE_SUMMARIES[stage]}.`);
      await beforeStage?.(stage);
      if (restores) await proxyActivities<Activities>(activityOptions(BUDGETS.backup, scale, RESTORE_STAGE.summary))[RESTORE_STAGE.activity](ref);
      else await proxyActivities<Activities>(stageOptions(stage, scale))[STAGE_ACTIVITIES[stage]](ref);
      progress.completedStages.push(stage);
    }
  }

  /** `resumeParked`: the run was continued while parked; `continueAsNew` carries the workflow's state. */
  const destroyOrPark = (purpose: ParkingPurpose, resumeParked: boolean, continueAsNew: () => Promise<never>) =>
    destroyGuestOrPark({ ref, purpose, progress, gate, setStatus, guestDestroy, bookkeeping, show, resumeParked, continueAsNew });

  return { scale, ref, guestDestroy, bookkeeping, show, setStatus, runStages, destroyOrPark };
}
