import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { activityOptions, bookkeepingOptions, BUDGETS } from './activity-options';
import { readFailure } from './failure';
import { downloadFile } from './storage-download';

export interface SyncIsoInput {
  isoId: string;
  /** Shrinks the budgets in tests. */
  timeoutScale?: number;
}

/**
 * Brings an ISO's copies to what the library says: each copy `importing` downloaded by Proxmox
 * (the shared storage download path: recorded, resumed by its UPID, the checksum checked) and
 * recorded `ready`, or `failed` with its cause while the others go on; each copy of a deleted ISO
 * removed from its storage.
 */
export async function SyncIso(input: SyncIsoInput): Promise<void> {
  const scale = input.timeoutScale ?? 1;
  const { planIsoSync, removeIsoCopy } = proxyActivities<Activities>(activityOptions(BUDGETS.guestConfig, scale, 'read the ISO copies, delete a deleted one'));
  const { settleIsoCopy } = proxyActivities<Activities>(bookkeepingOptions(scale, 'record a copy ready or failed'));
  const plan = await planIsoSync({ isoId: input.isoId });
  await Promise.all([
    ...plan.downloads.map(async ({ copyId, download }) => {
      try {
        await downloadFile(download, scale);
      } catch (error) {
        const { application, cause } = readFailure(error, {});
        await settleIsoCopy({ copyId, failure: `${application?.type ?? 'DOWNLOAD_FAILED'}: ${String(cause.detail)}` });
        return;
      }
      await settleIsoCopy({ copyId });
    }),
    ...plan.removals.map((copyId) => removeIsoCopy({ copyId })),
  ]);
}
