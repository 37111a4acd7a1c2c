import { Context } from '@temporalio/activity';
import { refreshImageOnSchedule, type ScheduledRefreshOutcome } from '../services/catalog/image-versions';
import type { ActivityDeps } from './deps';

export type ImageRefreshOutcome = ScheduledRefreshOutcome;

/**
 * refreshImageFromChecksumUrl: one scheduled refresh of a URL image (refreshImageOnSchedule).
 * Converges on retry: a retried attempt reads the same checksum, which the version the first
 * attempt added already has, so it adds none.
 */
export function createRefreshImageActivity(deps: ActivityDeps) {
  return async function refreshImageFromChecksumUrl({ imageId }: { imageId: string }): Promise<ImageRefreshOutcome> {
    return refreshImageOnSchedule({ ...deps, temporal: Context.current().client }, imageId);
  };
}
