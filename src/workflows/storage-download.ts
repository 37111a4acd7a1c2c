import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { StorageDownloadInput, StorageDownloadResult } from '../activities/storage-download';
import { activityOptions, BUDGETS } from './activity-options';

/**
 * A file fetched from a URL into a storage by Proxmox (download-url, checksum checked), as one
 * durable step: a workflow calls downloadFile itself, or starts StorageDownload as a child
 * workflow. `scale` shrinks the budgets in tests.
 */
export function downloadFile(input: StorageDownloadInput, scale = 1): Promise<StorageDownloadResult> {
  const { downloadStorageFile } = proxyActivities<Activities>(activityOptions(BUDGETS.download, scale, `download ${input.url} to ${input.storage} on ${input.node}`));
  return downloadStorageFile(input);
}

/** The download as a child workflow: one per file and storage (its workflow id from the download's key keeps it single). */
export async function StorageDownload(input: StorageDownloadInput & { scale?: number }): Promise<StorageDownloadResult> {
  const { scale, ...download } = input;
  return downloadFile(download, scale ?? 1);
}
