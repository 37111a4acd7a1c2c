import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { ImageRefreshOutcome } from '../activities/image-refresh';
import { bookkeepingOptions } from './activity-options';

/**
 * One run of a URL image's refresh schedule (the Temporal Schedule `image-refresh-<imageId>`):
 * reads its checksum URL again; a changed checksum builds a new version, as a refresh through the
 * API does. A checksum file that cannot be read is the run's result, not its failure: the next run
 * comes as planned.
 */
export async function RefreshImage({ imageId }: { imageId: string }): Promise<ImageRefreshOutcome> {
  const { refreshImageFromChecksumUrl } = proxyActivities<Activities>(bookkeepingOptions(1, 'read the checksum URL, add a version when it changed'));
  return refreshImageFromChecksumUrl({ imageId });
}
