// Everything the worker bundles as workflow code.
export { ApplyFirewallGroup } from './firewall-group';
export { ImportImage, RemoveImage } from './import-image';
export { RefreshImage } from './image-refresh';
export { InstanceOperation } from './instance-operation';
export { ProvisionInstance } from './provision-instance';
export { DestroyOrphan, Reconcile } from './reconcile';
export { ScheduledBackup } from './scheduled-backup';
export { ApplyThrottle, SampleTraffic } from './traffic';
export { CheckSnippetsStorage } from './snippets-check';
export { StorageDownload } from './storage-download';
export { SyncIso } from './iso-library';
export { DeliverWebhooks } from './webhooks';
export { DeleteKeptBackup } from './kept-backup';
