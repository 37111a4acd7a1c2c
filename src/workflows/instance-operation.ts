import { ApplicationFailure, CancellationScope, continueAsNew, patched, proxyActivities } from '@temporalio/workflow';
import { FailureType } from '../domain/failure-types';
import type { Activities } from '../activities';
import type { Operation } from '../domain/instance-status';
import { OPERATION_STATUS } from '../domain/instance-status';
import { activityOptions, BUDGETS, extendedBy, type Budget } from './activity-options';
import type { ProvisionProgress } from './definitions';
import { describeOperationFailure } from './operation-failure';
import { stageOptions, stagePipeline, type InstanceWorkflowInput } from './stage-pipeline';

export interface OperationInput extends InstanceWorkflowInput {
  operation: Operation;
  /** Proxmox's own wait for an ACPI shutdown, in real seconds (not scaled). */
  shutdownTimeoutSeconds?: number;
  /** A rebuild of a server whose last rebuild failed after destroying its guest: there is no guest to check, only leftovers to clear. */
  afterFailedRebuild?: boolean;
  /** Set by continue-as-new: a delete parked for an operator, resumed where it waits. */
  parked?: { progress: ProvisionProgress };
}

export interface OperationResult {
  status: string;
  failureCode?: string;
}

/**
 * One lifecycle operation on an existing instance (start, stop, shutdown, reboot, resize,
 * migrate, rebuild, delete; snapshot, snapshot_delete, rollback, backup, restore; firewall;
 * iso_mount, iso_eject, boot_order, rescue_enter, rescue_leave; throttle, unthrottle). The API committed its task and holdings before starting this
 * workflow; every operation ends through an activity that records provider truth. A delete
 * whose destroy cannot be proven parks in `rollback_failed` for an operator, like a rollback.
 */
export async function InstanceOperation(input: OperationInput): Promise<OperationResult> {
  const { operation } = input;
  const progress: ProvisionProgress = input.parked?.progress ?? { stage: operation, completedStages: [], status: OPERATION_STATUS[operation], rollback: { state: 'none', parkedTimes: 0 } };
  const { scale, ref, guestDestroy, bookkeeping, show, setStatus, runStages, destroyOrPark } = stagePipeline(input, progress, `${operation}: remove the guest`);
  const proxy = (budget: Budget, summary: string) => proxyActivities<Activities>(activityOptions(budget, scale, summary));
  const power = proxy(BUDGETS.guestPower, `${operation}: ask Proxmox`);

  if (!input.parked) setStatus(OPERATION_STATUS[operation]);
  show(`${operation}: under way.`);

  if (operation === 'delete') {
    if (!input.parked) progress.rollback.state = 'running';
    const outcome = await destroyOrPark('delete', input.parked !== undefined, () => continueAsNew<typeof InstanceOperation>({ ...input, parked: { progress } }));
    // Deletes begun before backups existed have none to delete. A destroy that gives up keeps them:
    // the delete must not stop at its last step.
    if (patched('delete-removes-backups')) {
      await proxy(BUDGETS.archiveDelete, "delete: remove the server's backups")
        .removeBackupsOfServer(ref)
        // What could not be removed is kept, to be deleted on its own, and the delete says so.
        .catch(async (error: unknown) => {
          if (!patched('delete-keeps-backups-it-could-not-remove')) return;
          await bookkeeping("delete: keep the backups that could not be removed").keepBackupsOfServer(ref);
          show(`delete: the server's backups could not all be removed (${error instanceof Error ? error.message : String(error)}); they are kept.`);
        });
    }
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
        await proxy(extendedBy(BUDGETS.guestPower, wait), 'shutdown: ACPI, then forced').shutdownGuest(ref);
        break;
      }
      case 'reboot':
        await power.rebootGuest(ref);
        break;
      case 'resize':
        await proxy(BUDGETS.resize, 'resize: CPU, memory, disk growth').resizeGuest(ref);
        break;
      case 'migrate':
        await proxy(BUDGETS.migration, 'migrate: move the guest to its new node').migrateGuest(ref);
        break;
      case 'snapshot':
        await proxy(BUDGETS.snapshot, 'snapshot: Proxmox takes it').takeSnapshot(ref);
        break;
      case 'snapshot_delete':
        await proxy(BUDGETS.snapshot, 'snapshot_delete: Proxmox merges it away').removeSnapshot(ref);
        break;
      case 'rollback':
        await proxy(BUDGETS.snapshot, 'rollback: stop, roll back, start').rollbackToSnapshot(ref);
        break;
      case 'backup':
        await proxy(BUDGETS.backupQueue, 'backup: wait for the host to be free of other backups').claimBackupSlot(ref);
        await proxy(BUDGETS.backup, 'backup: vzdump writes the archive').makeBackup(ref);
        // Backups begun before schedules existed were none of a schedule's.
        if (patched('backup-prunes-scheduled')) await proxy(BUDGETS.archiveDelete, 'backup: delete scheduled backups past keepLast').pruneScheduledBackups(ref);
        break;
      case 'backup_delete':
        await proxy(BUDGETS.archiveDelete, 'backup_delete: remove the archive').deleteBackupArchive(ref);
        break;
      case 'firewall':
        await proxy(BUDGETS.firewall, 'firewall: write the rules').applyFirewallRules(ref);
        break;
      case 'restore': {
        const { wasRunning } = await proxy(BUDGETS.backup, 'restore: stop, restore the archive over the guest').restoreGuest(ref);
        // Our size and network again, over whatever the archive had; the credential stays.
        await proxyActivities<Activities>(stageOptions('configure', scale)).configureGuest(ref);
        await proxyActivities<Activities>(stageOptions('network', scale)).attachNetwork(ref);
        // The archive brings back the firewall rules of its day: the customer's current ones again.
        if (patched('restore-keeps-firewall')) await proxy(BUDGETS.firewall, "restore: the customer's firewall rules").applyFirewallRules(ref);
        if (wasRunning) await power.startGuest(ref);
        break;
      }
      case 'iso_mount':
      case 'iso_eject':
      case 'boot_order':
        await proxy(BUDGETS.guestConfig, `${operation}: write the CD-ROM drive and boot order`).applyBootMedia(ref);
        break;
      case 'rescue_enter': {
        const { running } = await proxy(BUDGETS.guestConfig, 'rescue_enter: hand over the password, mount the rescue system').prepareRescue(ref);
        // A reboot through the API applies the pending boot order; a stopped guest starts with it.
        await (running ? power.rebootGuest(ref) : power.startGuest(ref));
        break;
      }
      case 'throttle':
      case 'unthrottle':
        await proxy(BUDGETS.smallConfigWrite, `${operation}: write the NIC rate`).setNicRate(ref);
        break;
      case 'rescue_leave': {
        const { running } = await proxy(BUDGETS.guestConfig, 'rescue_leave: eject, disk first').restoreFromRescue(ref);
        if (running) await power.rebootGuest(ref);
        break;
      }
      case 'rebuild':
        if (input.afterFailedRebuild) {
          guestRemoved = true;
          // Whatever the failed rebuild left on the VMID (a half-made clone) goes; a stranger's guest is never touched.
          if ((await guestDestroy.removeGuest({ ...ref, purpose: 'rebuild' })) === 'not_ours') {
            throw ApplicationFailure.create({ type: FailureType.GuestConflict, message: 'a guest that is not ours sits on the VMID', nonRetryable: true });
          }
        } else {
          await power.checkGuest(ref);
          await guestDestroy.removeGuest({ ...ref, purpose: 'rebuild' });
          guestRemoved = true;
        }
        await bookkeeping('rebuild: discard the old credential').discardCredential(ref);
        {
          // A destroyed guest takes its firewall rules with it: the customer's are written to the new one before it is finalized.
          const keepsFirewall = patched('rebuild-keeps-firewall');
          await runStages('rebuild', async (stage) => {
            if (keepsFirewall && stage === 'finalize') await proxy(BUDGETS.firewall, "rebuild: the customer's firewall rules").applyFirewallRules(ref);
          });
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
    const failure = describeOperationFailure(error, operation, { phase: progress.stage ?? operation, guestRemoved });
    const status = await CancellationScope.nonCancellable(async () => {
      // A guest left with the new CPU and memory keeps being charged for them.
      const holdCharges = operation === 'resize' && !(await power.undoResize(ref).then(() => true, () => false));
      // A rescue entry that failed leaves the server out of rescue: its disk first again, whatever was written.
      if (operation === 'rescue_enter') await proxy(BUDGETS.guestConfig, 'rescue_enter: undo').restoreFromRescue(ref).catch(() => undefined);
      return bookkeeping(`${operation}: record the failure`).finishOperation({ ...ref, failure, guestRemoved, holdCharges });
    });
    setStatus(status);
    show(`${operation}: failed (${failure.code}); the server is ${status}.`);
    return { status, failureCode: failure.code };
  }
}
