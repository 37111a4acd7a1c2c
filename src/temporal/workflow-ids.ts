// Workflow code imports these too: nothing here may import more than @temporalio/common (here: nothing).

export const provisionWorkflowId = (instanceId: string) => `provision-${instanceId}`;

/** The one ApplyThrottle a server may have at a time: whoever starts another while it runs joins it. */
export const applyThrottleWorkflowId = (instanceId: string) => `throttle-${instanceId}`;

/** One lifecycle operation's workflow: unique per task, so an instance's history of operations stays browsable. */
export const operationWorkflowId = (operation: string, instanceId: string, taskId: string) => `${operation}-${instanceId}-${taskId}`;

/** The Temporal Schedule that runs Reconcile for one Proxmox connection. */
/** A backup kept after its server was deleted, deleted on its own. */
export const keptBackupDeleteWorkflowId = (backupId: string, taskId: string) => `backup_delete-${backupId}-${taskId}`;
export const reconcileScheduleId = (connectionId: string) => `reconcile-${connectionId}`;
/** The Temporal Schedule that runs SampleTraffic for one Proxmox connection. */
export const trafficScheduleId = (connectionId: string) => `traffic-${connectionId}`;
/** The Temporal Schedule that backs one server up (PUT /v1/instances/{id}/backup-schedule). */
export const backupScheduleId = (instanceId: string) => `backup-schedule-${instanceId}`;
/** The Temporal Schedule that refreshes one URL image from its checksum URL (its `refreshSchedule`). */
export const imageRefreshScheduleId = (imageId: string) => `image-refresh-${imageId}`;
/** The runs of a server's backup schedule (Temporal appends each run's time). */
export const scheduledBackupWorkflowId = (instanceId: string) => `scheduled-backup-${instanceId}`;
/** An operator's reconcile of one instance; a second request while one runs joins it. */
export const reconcileInstanceWorkflowId = (instanceId: string) => `reconcile-instance-${instanceId}`;
export const destroyOrphanWorkflowId = (orphanId: string) => `destroy-orphan-${orphanId}`;
/** One check of a connection's snippets setting, made while an admin saves it. */
export const snippetsCheckWorkflowId = (checkId: string) => `snippets-check-${checkId}`;

/** The delivery workflow of one endpoint for one instance: its deliveries go out one at a time, in event order. */
export const webhookDeliveryWorkflowId = (endpointId: string, instanceId: string) => `webhook-${endpointId}-${instanceId}`;

/** One change of a firewall group, applied again to every server that names it. */
export const firewallGroupWorkflowId = (groupId: string, changeId: string) => `firewall-group-${groupId}-${changeId}`;
/** One build of an image version on one connection's nodes. */
export const syncIsoWorkflowId = (isoId: string) => `sync-iso-${isoId}`;
export const importImageWorkflowId = (versionId: string, connectionId: string) => `import-image-${versionId}-${connectionId}`;

/** The removal of a deleted image's templates and files on one connection. */
export const removeImageWorkflowId = (imageId: string, connectionId: string) => `remove-image-${imageId}-${connectionId}`;
