import { CancellationScope, continueAsNew, proxyActivities, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { Operation } from '../domain/instance-status';
import { OPERATION_STATUS } from '../domain/instance-status';
import type { ProvisionStage } from '../domain/provisioning';
import { activityOptions, bookkeepingOptions, type Budget } from './activity-options';
import { InstanceStatusKey, ProvisionStageKey } from '../temporal/search-attributes';
import { progressQuery, type ProvisionProgress } from './definitions';
import { detailsWriter } from './details';
import { describeOperationFailure } from './operation-failure';
import { operatorGate, removeGuestOrPark } from './parking';
import { REMOVAL_BUDGET, STAGE_SUMMARIES, stageOptions } from './provision-instance';

export interface OperationInput {
  instanceId: string;
  taskId: string;
  operation: Operation;
  /** Proxmox's own wait for an ACPI shutdown, in real seconds (not scaled). */
  shutdownTimeoutSeconds?: number;
  /** Multiplies every time budget; tests run with short ones. */
  timeoutScale?: number;
  /** One line naming the server and the operation (the workflow's static summary), heading its current details. */
  summary?: string;
  /** Set by continue-as-new: a delete parked for an operator, resumed where it waits. */
  parked?: { progress: ProvisionProgress };
}

export interface OperationResult {
  status: string;
  failureCode?: string;
}

/** Budgets in seconds of the activities that talk to Proxmox; database-only ones retry for as long as it takes. */
const BUDGETS = {
  power: { budget: 300, attempt: 180, heartbeat: 30 },
  resize: { budget: 600, attempt: 300, heartbeat: 30 },
  // An online migration copies memory (and local disks): hours on a big guest.
  migrate: { budget: 4 * 3600, attempt: 2 * 3600, heartbeat: 30 },
} satisfies Record<string, Budget>;

/** The provisioning stages a rebuild runs again on the new disk, with the activity of each. */
const REBUILD_STAGES: [ProvisionStage, 'cloneGuest' | 'configureGuest' | 'applyCloudInit' | 'attachNetwork' | 'bootGuest' | 'verifyGuest' | 'finalizeInstance'][] = [
  ['clone', 'cloneGuest'],
  ['configure', 'configureGuest'],
  ['cloud_init', 'applyCloudInit'],
  ['network', 'attachNetwork'],
  ['boot', 'bootGuest'],
  ['verify', 'verifyGuest'],
  ['finalize', 'finalizeInstance'],
];

/**
 * One lifecycle operation on an existing instance (start, stop, shutdown, reboot, resize,
 * migrate, rebuild, delete). The API committed its task and holdings before starting this
 * workflow; every operation ends through an activity that records provider truth. A delete
 * whose removal cannot be proven parks in `rollback_failed` for an operator, like a rollback.
 */
export async function InstanceOperation(input: OperationInput): Promise<OperationResult> {
  const scale = input.timeoutScale ?? 1;
  const { operation } = input;
  const ref = { instanceId: input.instanceId, taskId: input.taskId };
  const proxy = (budget: Budget, summary: string) => proxyActivities<Activities>(activityOptions(budget, scale, summary));
  const power = proxy(BUDGETS.power, `${operation}: ask Proxmox`);
  const removal = proxy(REMOVAL_BUDGET, `${operation}: remove the guest`);
  const bookkeeping = (summary: string) => proxyActivities<Activities>(bookkeepingOptions(scale, summary));
  const show = detailsWriter(input.summary);

  const progress: ProvisionProgress = input.parked?.progress ?? { stage: operation, completedStages: [], status: OPERATION_STATUS[operation], rollback: { state: 'none', parkedTimes: 0 } };
  setHandler(progressQuery, () => progress);
  const gate = operatorGate(progress);
  const setStatus = (status: string) => {
    progress.status = status;
    upsertSearchAttributes([{ key: InstanceStatusKey, value: status }]);
  };
  if (!input.parked) setStatus(OPERATION_STATUS[operation]);
  show(`${operation}: under way.`);

  if (operation === 'delete') {
    if (!input.parked) progress.rollback.state = 'running';
    const outcome = await removeGuestOrPark({
      ref,
      purpose: 'delete',
      progress,
      gate,
      setStatus,
      removal,
      bookkeeping,
      show,
      resumeParked: input.parked !== undefined,
      continueAsNew: () => continueAsNew<typeof InstanceOperation>({ ...input, parked: { progress } }),
    });
    await bookkeeping('delete: release everything').completeDeletion({ ...ref, keepVmid: outcome === 'not_ours', ...(typeof outcome === 'object' ? { note: outcome.note } : {}) });
    progress.rollback.state = 'done';
    setStatus('deleted');
    show('delete: the server was deleted and everything it held was released.');
    return { status: 'deleted' };
  }

  let guestRemoved = false;
  try {
    switch (operation) {
      case 'start':
        await power.startGuest(ref);
        break;
      case 'stop':
        await power.stopGuest(ref);
        break;
      case 'shutdown': {
        // Proxmox waits for the guest in real time; our budget adds that wait to the scaled one.
        const wait = (input.shutdownTimeoutSeconds ?? 60) / scale;
        await proxy({ budget: BUDGETS.power.budget + wait, attempt: BUDGETS.power.attempt + wait, heartbeat: 30 }, 'shutdown: ACPI, then forced').shutdownGuest(ref);
        break;
      }
      case 'reboot':
        await power.rebootGuest(ref);
        break;
      case 'resize':
        await proxy(BUDGETS.resize, 'resize: CPU, memory, disk growth').resizeGuest(ref);
        break;
      case 'migrate':
        await proxy(BUDGETS.migrate, 'migrate: move the guest to its new node').migrateGuest(ref);
        break;
      case 'rebuild':
        await power.checkGuest(ref);
        await removal.removeGuest({ ...ref, purpose: 'rebuild' });
        guestRemoved = true;
        await bookkeeping('rebuild: discard the old credential').discardCredential(ref);
        for (const [stage, activity] of REBUILD_STAGES) {
          progress.stage = stage;
          upsertSearchAttributes([{ key: ProvisionStageKey, value: stage }]);
          show(`rebuild, stage ${STAGE_SUMMARIES[stage]}.`);
          await proxyActivities<Activities>(stageOptions(stage, scale))[activity](ref);
          progress.completedStages.push(stage);
        }
        setStatus('running');
        return { status: 'running' };
    }
    // finishOperation also reads the guest, but like bookkeeping it must not give up with the
    // instance mid-transition.
    setStatus(await bookkeeping(`${operation}: record the outcome`).finishOperation(ref));
    show(`${operation}: done; the server is ${progress.status}.`);
    return { status: progress.status };
  } catch (error) {
    const failure = describeOperationFailure(error, operation, guestRemoved);
    const status = await CancellationScope.nonCancellable(async () => {
      // A guest left with the new CPU and memory keeps being charged for them.
      const holdCharges = operation === 'resize' && !(await power.undoResize(ref).then(() => true, () => false));
      return bookkeeping(`${operation}: record the failure`).finishOperation({ ...ref, failure, guestRemoved, holdCharges });
    });
    setStatus(status);
    show(`${operation}: failed (${failure.code}); the server is ${status}.`);
    return { status, failureCode: failure.code };
  }
}
