// Everything the worker bundles as workflow code.
export { ImportImage, RemoveImage } from './import-image';
export { InstanceOperation } from './instance-operation';
export { ProvisionInstance } from './provision-instance';
export { DestroyOrphan, Reconcile } from './reconcile';
export { ScheduledBackup } from './scheduled-backup';
export { CheckSnippetsStorage } from './snippets-check';
export { StorageDownload } from './storage-download';
export { DeliverWebhooks } from './webhooks';
