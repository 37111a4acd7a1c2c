import { CancellationScope, proxyActivities, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { Operation } from '../domain/instance-status';
import { OPERATION_STATUS } from '../domain/instance-status';
import type { ProvisionStage } from '../domain/provisioning';
import { InstanceStatusKey, progressQuery, ProvisionStageKey, type ProvisionProgress } from './definitions';
import { describeOperationFailure } from './operation-failure';
import { operatorGate, removeGuestOrPark } from './parking';
import { activityOptions, STAGE_BUDGETS } from './provision-instance';

export interface OperationInput {
  instanceId: string;
  taskId: string;
  operation: Operation;
  /** Proxmox's own wait for an ACPI shutdown, in real seconds (not scaled). */
  shutdownTimeoutSeconds?: number;
  /** Multiplies every time budget; tests run with short ones. */
  timeoutScale?: number;
}

export interface OperationResult {
  status: string;
  failureCode?: string;
}

/** Budgets in seconds: `budget` bounds all attempts of one activity together. */
const BUDGETS = {
  power: { budget: 300, attempt: 180, heartbeat: 30 },
  resize: { budget: 600, attempt: 300, heartbeat: 30 },
  // An online migration copies memory (and local disks): hours on a big guest.
  migrate: { budget: 4 * 3600, attempt: 2 * 3600, heartbeat: 30 },
  removal: { budget: 300, attempt: 120, heartbeat: 30 },
  bookkeeping: { budget: 600, attempt: 30 },
};

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
  const proxy = (budget: { budget: number; attempt: number; heartbeat?: number }) => proxyActivities<Activities>(activityOptions(budget, scale));
  const power = proxy(BUDGETS.power);
  const removal = proxy(BUDGETS.removal);
  const bookkeeping = proxy(BUDGETS.bookkeeping);

  const progress: ProvisionProgress = { stage: operation, completedStages: [], status: OPERATION_STATUS[operation], rollback: { state: 'none', parkedTimes: 0 } };
  setHandler(progressQuery, () => progress);
  const gate = operatorGate(progress);
  const setStatus = (status: string) => {
    progress.status = status;
    upsertSearchAttributes([{ key: InstanceStatusKey, value: status }]);
  };
  setStatus(OPERATION_STATUS[operation]);

  if (operation === 'delete') {
    progress.rollback.state = 'running';
    const outcome = await removeGuestOrPark({ ref, purpose: 'delete', progress, gate, setStatus, removal, bookkeeping });
    await bookkeeping.completeDeletion({ ...ref, keepVmid: outcome === 'not_ours', ...(typeof outcome === 'object' ? { note: outcome.note } : {}) });
    progress.rollback.state = 'done';
    setStatus('deleted');
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
        await proxy({ budget: BUDGETS.power.budget + wait, attempt: BUDGETS.power.attempt + wait, heartbeat: 30 }).shutdownGuest(ref);
        break;
      }
      case 'reboot':
        await power.rebootGuest(ref);
        break;
      case 'resize':
        await proxy(BUDGETS.resize).resizeGuest(ref);
        break;
      case 'migrate':
        await proxy(BUDGETS.migrate).migrateGuest(ref);
        break;
      case 'rebuild':
        await power.checkGuest(ref);
        await removal.removeGuest({ ...ref, purpose: 'rebuild' });
        guestRemoved = true;
        await bookkeeping.discardCredential(ref);
        for (const [stage, activity] of REBUILD_STAGES) {
          progress.stage = stage;
          upsertSearchAttributes([{ key: ProvisionStageKey, value: stage }]);
          await proxy(STAGE_BUDGETS[stage])[activity](ref);
          progress.completedStages.push(stage);
        }
        setStatus('running');
        return { status: 'running' };
    }
    setStatus(await bookkeeping.finishOperation(ref));
    return { status: progress.status };
  } catch (error) {
    const failure = describeOperationFailure(error, operation, guestRemoved);
    const status = await CancellationScope.nonCancellable(async () => {
      // A guest left with the new CPU and memory keeps being charged for them.
      const holdCharges = operation === 'resize' && !(await power.undoResize(ref).then(() => true, () => false));
      return bookkeeping.finishOperation({ ...ref, failure, guestRemoved, holdCharges });
    });
    setStatus(status);
    return { status, failureCode: failure.code };
  }
}
