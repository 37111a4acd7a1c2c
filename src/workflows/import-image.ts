import { proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { ImageImportRef } from '../activities/image-import';
import type { RetireInput } from '../activities/image-retire';
import { activityOptions, bookkeepingOptions, BUDGETS } from './activity-options';
import { readFailure } from './failure';
import { downloadFile } from './storage-download';

/** How long a replaced template waits between looks for clones from it still in flight, and how many looks before it is left to the next build or delete. */
const RETIRE_POLL_SECONDS = 15;
const RETIRE_LOOKS = 240;

export interface ImportImageInput extends ImageImportRef {
  imageId: string;
  /** Shrinks the budgets in tests. */
  timeoutScale?: number;
}

/** A build's failure as its stable code (ours, e.g. DOWNLOAD_CHECKSUM_MISMATCH; else IMAGE_BUILD_FAILED) and the provider's words. */
function buildFailure(error: unknown): { code: string; message: string } {
  const { application, cause } = readFailure(error, {});
  return { code: application?.type?.match(/^[A-Z_]+$/) ? application.type : 'IMAGE_BUILD_FAILED', message: String(cause.detail).slice(0, 1000) };
}

/**
 * An image version built on every node of one connection: each storage's download once (a shared
 * storage's serves all its nodes), then on each node a VM imported from the file and converted to
 * a template. A node that fails is recorded failed with its cause and leaves nothing behind; the
 * others go on. Every Proxmox call is recorded before it is made and resumed by its UPID. Then
 * the templates of older versions this one replaced are destroyed, each once no clone from it is
 * in flight, and their files once no build uses them.
 */
export async function ImportImage(input: ImportImageInput): Promise<void> {
  const scale = input.timeoutScale ?? 1;
  const { planImageImport } = proxyActivities<Activities>(activityOptions(BUDGETS.guestConfig, scale, 'read the nodes and storages, plan the builds'));
  const { makeImageTemplate } = proxyActivities<Activities>(activityOptions(BUDGETS.imageImport, scale, 'import the disk into a VM and make it a template'));
  const { retireImageBuilds } = proxyActivities<Activities>(activityOptions(BUDGETS.guestDestroy, scale, 'destroy replaced templates and unused files'));
  const { failImageBuilds } = proxyActivities<Activities>({ ...bookkeepingOptions(scale, 'record the failure, destroy what the build made'), startToCloseTimeout: '300 seconds' });
  const plan = await planImageImport({ versionId: input.versionId, connectionId: input.connectionId });
  await Promise.all(
    plan.downloads.map(async ({ download, buildIds }) => {
      let volid: string;
      try {
        ({ volid } = await downloadFile(download, scale));
      } catch (error) {
        await failImageBuilds({ buildIds, ...buildFailure(error) });
        return;
      }
      await Promise.all(
        buildIds.map(async (buildId) => {
          try {
            await makeImageTemplate({ buildId, volid });
          } catch (error) {
            await failImageBuilds({ buildIds: [buildId], ...buildFailure(error) });
          }
        }),
      );
    }),
  );
  // The versions this one replaced go once no clone from them is in flight.
  await retireUntilDone(retireImageBuilds, { imageId: input.imageId, connectionId: input.connectionId, all: false }, scale);
}

async function retireUntilDone(retire: Activities['retireImageBuilds'], input: RetireInput, scale: number): Promise<void> {
  for (let look = 0; look < RETIRE_LOOKS; look++) {
    const { waiting } = await retire(input);
    if (waiting === 0) return;
    await sleep(RETIRE_POLL_SECONDS * 1000 * scale);
  }
}

/** A deleted image's templates and downloaded files on one connection, each removed once no clone from it is in flight. */
export async function RemoveImage(input: { imageId: string; connectionId: string; timeoutScale?: number }): Promise<void> {
  const scale = input.timeoutScale ?? 1;
  const { retireImageBuilds } = proxyActivities<Activities>(activityOptions(BUDGETS.guestDestroy, scale, 'destroy the templates and files of a deleted image'));
  await retireUntilDone(retireImageBuilds, { imageId: input.imageId, connectionId: input.connectionId, all: true }, scale);
}
