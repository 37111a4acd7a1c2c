import { lockImage } from '../../db/catalog-images';
import { AppError, notFound } from '../../domain/errors';
import type { ImageChecksumAlgorithm } from '../../domain/image-sources';
import { newId } from '../../security/ids';
import { deleteImageRefreshSchedule } from '../../temporal/schedules';
import { startImageRemoval } from '../../temporal/starts';
import type { ServiceDeps } from '../deps';
import { audit } from './changes';
import { listedChecksum } from './checksum-urls';
import { connectionsOfLocations, startImageBuilds } from './image-sources';
import { type AdminImageRow, readAdminImage } from './images';

/**
 * A URL image's life after registration: a refresh with a new checksum (on request, or on its
 * refresh schedule) builds a new version beside the old (whose templates go once no clone from
 * them is in flight); a delete removes every template and file we made for it, and its schedule.
 */

type VersionDeps = Pick<ServiceDeps, 'db' | 'temporal' | 'config' | 'logger' | 'proxmox'>;

async function readImage(deps: VersionDeps, id: string): Promise<AdminImageRow> {
  const image = await readAdminImage(deps, id);
  if (!image) throw notFound('image');
  return image;
}

/** The checksum a refresh compares: the one given, else the one the image's checksum URL lists now. */
async function currentChecksum(deps: VersionDeps, id: string, given: string | undefined): Promise<string> {
  if (given !== undefined) return given;
  const image = await deps.db.image.findUnique({ where: { id } });
  if (!image) throw notFound('image');
  if (!image.sourceUrl || !image.checksumUrl) throw new AppError('INVALID_INPUT', 'The request body is invalid.', { fields: { checksum: 'required: the image has no checksum URL to read it from' } });
  return listedChecksum(deps.config, { url: image.sourceUrl, checksumUrl: image.checksumUrl, checksumAlgorithm: image.checksumAlgorithm as ImageChecksumAlgorithm });
}

/**
 * A new version when the checksum (given, or read from the image's checksum URL) differs from the
 * newest one's: the file at the URL changed. The same checksum changes nothing. Answers the image
 * and whether a version was added. `actorUserId` null: the image's refresh schedule.
 */
export async function refreshImage(deps: VersionDeps, actorUserId: string | null, id: string, given?: string): Promise<{ image: AdminImageRow; refreshed: boolean }> {
  const checksum = await currentChecksum(deps, id, given);
  const added = await deps.db.$transaction(async (tx) => {
    const image = await lockImage(tx, id);
    if (!image) throw notFound('image');
    if (!image.sourceUrl) throw new AppError('INVALID_STATE', 'The image is made of hand-made templates; only an image from a URL can be refreshed.');
    if (image.archivedAt) throw new AppError('ARCHIVED', 'The image is archived.');
    const newest = await tx.imageVersion.findFirst({ where: { imageId: id }, orderBy: { number: 'desc' } });
    if (newest?.checksum === checksum) return null;
    const version = await tx.imageVersion.create({ data: { id: newId('imv'), imageId: id, number: (newest?.number ?? 0) + 1, checksum } });
    await audit(tx, actorUserId, 'image.refreshed', { imageId: id, version: version.number });
    return { version, locationIds: image.locationIds };
  });
  if (added) await startImageBuilds(deps, added.version, await connectionsOfLocations(deps, added.locationIds));
  return { image: await readImage(deps, id), refreshed: added !== null };
}

/**
 * Deletes an image from a URL: it is archived (existing servers keep it, new creates refuse it),
 * its templates leave the catalog at once, and RemoveImage destroys them and their files on
 * every connection. Refused while a provision or rebuild from it is in flight.
 */
export async function deleteImage(deps: VersionDeps, actorUserId: string, id: string): Promise<AdminImageRow> {
  const connectionIds = await deps.db.$transaction(async (tx) => {
    const image = await lockImage(tx, id);
    if (!image) throw notFound('image');
    if (!image.sourceUrl) throw new AppError('INVALID_STATE', 'The image is made of hand-made templates, which are not ours to remove; archive it instead.');
    const inFlight = await tx.instance.count({ where: { imageId: id, activeTask: { isNot: null } } });
    if (inFlight > 0) throw new AppError('IMAGE_CLONE_IN_FLIGHT', `${inFlight} server(s) are being created or rebuilt from this image; delete it once they are done.`);
    await deleteImageRefreshSchedule(deps.temporal, id);
    await tx.imageTemplate.deleteMany({ where: { imageId: id } });
    await tx.image.update({ where: { id }, data: { archivedAt: image.archivedAt ?? new Date(), refreshIntervalSeconds: null } });
    await audit(tx, actorUserId, 'image.deleted', { imageId: id, name: image.name });
    const builds = await tx.imageBuild.findMany({ where: { version: { imageId: id } }, select: { connectionId: true }, distinct: ['connectionId'] });
    return builds.map((b) => b.connectionId);
  });
  for (const connectionId of connectionIds) {
    try {
      await startImageRemoval(deps.temporal, deps.config, { imageId: id, connectionId });
    } catch (error) {
      deps.logger.warn({ imageId: id, connectionId, err: error }, 'the removal of a deleted image could not be started');
    }
  }
  return readImage(deps, id);
}

/** What one run of an image's refresh schedule did: added a version or not, or why it could not look. */
export interface ScheduledRefreshOutcome {
  refreshed: boolean;
  /**
   * NO_SCHEDULE: the image is gone or has no schedule (its Temporal Schedule is deleted); ARCHIVED:
   * not refreshed while archived (the schedule stays for when it is restored); else the checksum
   * URL's stable code.
   */
  skipped: 'NO_SCHEDULE' | 'ARCHIVED' | 'IMAGE_CHECKSUM_NOT_LISTED' | 'IMAGE_CHECKSUM_URL_UNREACHABLE' | 'IMAGE_CHECKSUM_URL_REFUSED' | null;
}

/**
 * One run of an image's refresh schedule: its checksum URL read again, a new version when the
 * checksum changed. A checksum file that cannot be read (or no longer lists the file) is logged
 * and answered: the versions stay as they are until a later run reads it.
 */
export async function refreshImageOnSchedule(deps: VersionDeps, id: string): Promise<ScheduledRefreshOutcome> {
  const image = await deps.db.image.findUnique({ where: { id } });
  if (!image || !image.checksumUrl || image.refreshIntervalSeconds === null) {
    await deleteImageRefreshSchedule(deps.temporal, id);
    return { refreshed: false, skipped: 'NO_SCHEDULE' };
  }
  if (image.archivedAt) return { refreshed: false, skipped: 'ARCHIVED' };
  try {
    return { refreshed: (await refreshImage(deps, null, id)).refreshed, skipped: null };
  } catch (error) {
    if (!(error instanceof AppError) || !error.code.startsWith('IMAGE_CHECKSUM_')) throw error;
    deps.logger.warn({ imageId: id, code: error.code, reason: error.message }, 'a scheduled image refresh could not read its checksum file');
    return { refreshed: false, skipped: error.code as ScheduledRefreshOutcome['skipped'] };
  }
}
