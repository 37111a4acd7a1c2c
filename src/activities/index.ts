import { CpuBaselineCache } from '../proxmox';
import { createReconcileBackupsActivity } from './backup-reconcile';
import {
  createClaimBackupSlotActivity,
  createDeleteBackupArchiveActivity,
  createMakeBackupActivity,
  createPruneScheduledBackupsActivity,
  createDeleteBackupsOfServerActivity,
  createKeepBackupsOfServerActivity,
  createRestoreGuestActivity,
} from './backups';
import { createRequestScheduledBackupActivity } from './backup-schedules';
import { createDeleteKeptBackupArchiveActivity, createSettleKeptBackupDeleteActivity } from './kept-backups';
import { createBootActivity } from './boot';
import { createCloneActivity } from './clone';
import { createRestoreAsNewActivity } from './restore-as-new';
import { createCloudInitActivity } from './cloud-init';
import { createConfigureActivity } from './configure';
import { whileHeartbeating } from './context';
import type { ActivityDeps } from './deps';
import { createFinalizeActivity } from './finalize';
import { createReconcileFirewallsActivity } from './firewall-drift';
import { createAwaitFirewallTaskActivity, createRequestGroupReapplyActivity } from './firewall-groups';
import { createApplyFirewallActivity } from './firewall-rules';
import { createReconcileFirewallActivity } from './firewall-rules-drift';
import { createReconcileImageTemplatesActivity } from './image-reconcile';
import { createRefreshImageActivity } from './image-refresh';
import { createRetireImageBuildsActivity } from './image-retire';
import { createFailImageBuildsActivity, createMakeImageTemplateActivity, createPlanImageImportActivity } from './image-import';
import {
  createCheckGuestActivity,
  createCompleteDeletionActivity,
  createDiscardCredentialActivity,
  createFinishOperationActivity,
  createMigrateActivity,
  createRebootActivity,
  createResizeActivity,
  createShutdownActivity,
  createStartActivity,
  createStopActivity,
  createUndoResizeActivity,
} from './lifecycle';
import { createNetworkActivity } from './network';
import { createDestroyOrphanGuestActivity, createSettleOrphanActivity } from './orphans';
import {
  createCloseFinishedOperationsActivity,
  createHousekeepingActivity,
  createReconcileGuestsActivity,
  createStartStrandedWorkflowsActivity,
} from './reconcile';
import {
  createFailInstanceActivity,
  createParkInstanceActivity,
  createRecordOperatorNoteActivity,
  createDestroyGuestActivity,
} from './rollback';
import { createApplyBootMediaActivity, createPrepareRescueActivity, createRestoreFromRescueActivity } from './boot-media';
import { createPlanIsoSyncActivity, createRemoveIsoCopyActivity, createSettleIsoCopyActivity } from './iso-library';
import { createCheckSnippetsStorageActivity } from './snippets-check';
import { createStorageDownloadActivity } from './storage-download';
import { createDeleteSnapshotActivity, createRevertToSnapshotActivity, createTakeSnapshotActivity } from './snapshots';
import { createApplyThrottleActivity, createRequestNicRateActivity, createRestoreThrottlesActivity, createSampleTrafficActivity, createSetNicRateActivity } from './traffic';
import { createVerifyActivity } from './verify';
import { createAttemptWebhookDeliveryActivity, createClaimWebhookDeliveryActivity } from './webhooks';

/**
 * Every activity, built from its dependencies so tests can hand in real or fake ones. Those
 * wrapped in whileHeartbeating run under a short heartbeat timeout (see activity-options): a
 * reconcile pass, an orphan's destroy and a webhook delivery are taken up again at once when
 * their worker dies.
 *
 * The keys are the activity types workflows call and histories record, so they never change:
 * `removeGuest` destroys the guest, `removeSnapshot` and `removeBackupsOfServer` delete,
 * `restoreGuestFromBackup` is the restore-as-new, `rollbackToSnapshot` the revert to a snapshot
 * (docs/architecture.md, glossary).
 */
export function createActivities(deps: ActivityDeps) {
  const cpuBaselines = new CpuBaselineCache();
  return {
    cloneGuest: createCloneActivity(deps),
    restoreGuestFromBackup: createRestoreAsNewActivity(deps),
    configureGuest: createConfigureActivity(deps, cpuBaselines),
    applyCloudInit: createCloudInitActivity(deps),
    attachNetwork: createNetworkActivity(deps),
    bootGuest: createBootActivity(deps),
    verifyGuest: createVerifyActivity(deps),
    finalizeInstance: createFinalizeActivity(deps),
    removeGuest: createDestroyGuestActivity(deps),
    failInstance: createFailInstanceActivity(deps),
    parkInstance: createParkInstanceActivity(deps),
    recordOperatorNote: createRecordOperatorNoteActivity(deps),
    startGuest: createStartActivity(deps),
    stopGuest: createStopActivity(deps),
    shutdownGuest: createShutdownActivity(deps),
    rebootGuest: createRebootActivity(deps),
    resizeGuest: createResizeActivity(deps),
    undoResize: createUndoResizeActivity(deps),
    migrateGuest: createMigrateActivity(deps),
    checkGuest: createCheckGuestActivity(deps),
    discardCredential: createDiscardCredentialActivity(deps),
    finishOperation: createFinishOperationActivity(deps),
    completeDeletion: createCompleteDeletionActivity(deps),
    reconcileGuests: whileHeartbeating(createReconcileGuestsActivity(deps)),
    startStrandedWorkflows: whileHeartbeating(createStartStrandedWorkflowsActivity(deps)),
    closeFinishedOperations: whileHeartbeating(createCloseFinishedOperationsActivity(deps)),
    housekeeping: whileHeartbeating(createHousekeepingActivity(deps)),
    destroyOrphanGuest: whileHeartbeating(createDestroyOrphanGuestActivity(deps)),
    settleOrphan: createSettleOrphanActivity(deps),
    claimWebhookDelivery: whileHeartbeating(createClaimWebhookDeliveryActivity(deps)),
    attemptWebhookDelivery: whileHeartbeating(createAttemptWebhookDeliveryActivity(deps)),
    checkSnippetsStorage: createCheckSnippetsStorageActivity(deps),
    downloadStorageFile: createStorageDownloadActivity(deps),
    planImageImport: createPlanImageImportActivity(deps),
    makeImageTemplate: createMakeImageTemplateActivity(deps),
    failImageBuilds: createFailImageBuildsActivity(deps),
    retireImageBuilds: createRetireImageBuildsActivity(deps),
    refreshImageFromChecksumUrl: createRefreshImageActivity(deps),
    takeSnapshot: createTakeSnapshotActivity(deps),
    removeSnapshot: createDeleteSnapshotActivity(deps),
    rollbackToSnapshot: createRevertToSnapshotActivity(deps),
    claimBackupSlot: createClaimBackupSlotActivity(deps),
    makeBackup: createMakeBackupActivity(deps),
    deleteBackupArchive: createDeleteBackupArchiveActivity(deps),
    deleteKeptBackupArchive: createDeleteKeptBackupArchiveActivity(deps),
    settleKeptBackupDelete: createSettleKeptBackupDeleteActivity(deps),
    restoreGuest: createRestoreGuestActivity(deps),
    reconcileBackups: createReconcileBackupsActivity(deps),
    reconcileFirewalls: whileHeartbeating(createReconcileFirewallsActivity(deps)),
    reconcileImageTemplates: whileHeartbeating(createReconcileImageTemplatesActivity(deps)),
    removeBackupsOfServer: createDeleteBackupsOfServerActivity(deps),
    keepBackupsOfServer: createKeepBackupsOfServerActivity(deps),
    pruneScheduledBackups: createPruneScheduledBackupsActivity(deps),
    requestScheduledBackup: createRequestScheduledBackupActivity(deps),
    sampleTraffic: whileHeartbeating(createSampleTrafficActivity(deps)),
    applyThrottle: createApplyThrottleActivity(deps),
    requestNicRate: createRequestNicRateActivity(deps),
    setNicRate: createSetNicRateActivity(deps),
    restoreThrottles: whileHeartbeating(createRestoreThrottlesActivity(deps)),
    applyFirewallRules: createApplyFirewallActivity(deps),
    requestGroupReapply: createRequestGroupReapplyActivity(deps),
    awaitFirewallTask: createAwaitFirewallTaskActivity(deps),
    reconcileFirewallRules: whileHeartbeating(createReconcileFirewallActivity(deps)),
    applyBootMedia: createApplyBootMediaActivity(deps),
    prepareRescue: createPrepareRescueActivity(deps),
    restoreFromRescue: createRestoreFromRescueActivity(deps),
    planIsoSync: createPlanIsoSyncActivity(deps),
    settleIsoCopy: createSettleIsoCopyActivity(deps),
    removeIsoCopy: createRemoveIsoCopyActivity(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
export type { ActivityDeps } from './deps';
