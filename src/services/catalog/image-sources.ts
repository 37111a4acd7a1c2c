import type { ImageBuild, ImageVersion } from '../../generated/prisma/client';
import { AppError } from '../../domain/errors';
import { startImageImport } from '../../temporal/starts';
import type { ServiceDeps } from '../deps';
import { badReference } from './changes';

/**
 * Images built from a URL: where they are built (the connections of their locations), the
 * storage check at registration, the build workflows' starts, and the download progress shown
 * beside each build.
 */

/** A URL image's source: its checksum given, or read from `checksumUrl` (one of the two). */
export interface ImageSource {
  url: string;
  checksum?: string;
  checksumUrl?: string;
  checksumAlgorithm: 'sha256' | 'sha512';
  storage?: string;
}

type SourceDeps = Pick<ServiceDeps, 'db' | 'temporal' | 'config' | 'logger' | 'proxmox'>;

/** The connections an image offered in these locations (default: every current location) is built on. */
export async function connectionsOfLocations(deps: Pick<ServiceDeps, 'db'>, locationIds: string[]): Promise<string[]> {
  const locations = await deps.db.location.findMany({
    where: locationIds.length > 0 ? { id: { in: locationIds } } : { archivedAt: null },
    select: { id: true, connectionId: true },
  });
  const known = new Set(locations.map((l) => l.id));
  const fields = Object.fromEntries(locationIds.flatMap((id, i) => (known.has(id) ? [] : [[`locationIds.${i}`, 'no such location']])));
  if (Object.keys(fields).length > 0) throw badReference(fields);
  return [...new Set(locations.map((l) => l.connectionId))];
}

/**
 * A storage named for downloads must take content type `import` where Proxmox VE lists it, and be
 * listed on some node of every connection: refused now rather than failing on every node later.
 */
export async function assertImportStorage(deps: SourceDeps, connectionIds: string[], storage: string): Promise<void> {
  for (const connectionId of connectionIds) {
    const connection = await deps.db.proxmoxConnection.findUniqueOrThrow({ where: { id: connectionId }, include: { nodes: { where: { enabled: true } } } });
    const client = deps.proxmox(connection);
    let listed;
    try {
      listed = (await Promise.all(connection.nodes.map((n) => client.storage.list(n.name)))).flat().filter((s) => s.storage === storage);
    } catch {
      throw new AppError('PROVIDER_UNAVAILABLE', `The storages of connection ${connection.name} could not be read; nothing was saved. Please retry.`);
    }
    if (listed.length === 0) throw new AppError('IMAGE_STORAGE_REFUSED', `No node of connection ${connection.name} has storage ${storage}.`, { fields: { 'source.storage': 'not found' } });
    if (!listed.every((s) => s.content?.split(',').includes('import'))) {
      throw new AppError('IMAGE_STORAGE_REFUSED', `Storage ${storage} does not take content type import; add it to the storage's content types in Proxmox VE.`, {
        fields: { 'source.storage': 'does not take content type import' },
      });
    }
  }
}

/** Starts the version's build on each connection; a start that fails is logged and made again by the image reconcile. */
export async function startImageBuilds(deps: SourceDeps, version: { imageId: string; id: string }, connectionIds: string[]): Promise<void> {
  for (const connectionId of connectionIds) {
    const versionId = version.id;
    try {
      await startImageImport(deps.temporal, deps.config, { imageId: version.imageId, versionId, connectionId });
    } catch (error) {
      deps.logger.warn({ versionId, connectionId, err: error }, 'the build of an image version could not be started');
    }
  }
}

export type VersionWithBuilds = ImageVersion & { builds: ImageBuild[] };

/** The download progress of each build's download (by its key), from the provider jobs. */
export async function downloadProgress(deps: Pick<ServiceDeps, 'db'>, versions: VersionWithBuilds[]): Promise<Map<string, number | null>> {
  const keys = versions.flatMap((v) => v.builds.flatMap((b) => (b.downloadKey ? [b.downloadKey] : [])));
  if (keys.length === 0) return new Map();
  const jobs = await deps.db.providerJob.findMany({ where: { key: { in: keys } }, select: { key: true, progress: true } });
  return new Map(jobs.map((j) => [j.key, j.progress]));
}

/**
 * Builds every current URL image's newest version on a connection again: its new nodes get
 * builds, and builds set back to `importing` (a template deleted behind our back) are made again.
 */
export async function buildImagesOnConnection(deps: SourceDeps, connectionId: string): Promise<void> {
  const locations = await deps.db.location.findMany({ where: { connectionId }, select: { id: true } });
  const images = await deps.db.image.findMany({
    where: { sourceUrl: { not: null }, archivedAt: null, OR: [{ locationIds: { isEmpty: true } }, { locationIds: { hasSome: locations.map((l) => l.id) } }] },
    include: { versions: { orderBy: { number: 'desc' }, take: 1 } },
  });
  for (const image of images) {
    const [newest] = image.versions;
    if (newest) await startImageBuilds(deps, newest, [connectionId]);
  }
}

/** Starts the build of one version on a connection again (after the reconciler found a template gone). */
export const rebuildImageVersion = (deps: SourceDeps, version: { imageId: string; id: string }, connectionId: string) => startImageBuilds(deps, version, [connectionId]);
