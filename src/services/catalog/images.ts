import type { Tx } from '../../db/client';
import { findImage, findImages, findOfferedImages, type ImageWithTemplates, insertImage, lockImage, putTemplate, type TemplateSpec, updateImageRow } from '../../db/catalog-images';
import { nodesOfConnections } from '../../db/catalog-nodes';
import type { PageArgs } from '../../db/pages';
import { AppError } from '../../domain/errors';
import { refreshEvery, refreshIntervalSeconds } from '../../domain/image-refresh';
import type { Image } from '../../generated/prisma/client';
import type { LoginMethod } from '../../generated/prisma/enums';
import { newId } from '../../security/ids';
import { deleteImageRefreshSchedule, upsertImageRefreshSchedule } from '../../temporal/schedules';
import type { ServiceDeps } from '../deps';
import { asBody, audit, badReference, type CatalogDeps, createRow, updateRow } from './changes';
import { listedChecksum } from './checksum-urls';
import { assertImportStorage, connectionsOfLocations, downloadProgress, type ImageSource, startImageBuilds } from './image-sources';

/** Images: what a server is built from, and its template on each node of a connection. */

export interface ImageSpec {
  name: string;
  os: string;
  version: string;
  loginMethods: LoginMethod[];
  defaultUsername?: string;
  rootAllowed: boolean;
  /** Hand-made templates; or `source`: built from a URL in `locationIds` (default: every location). */
  templates?: TemplateSpec[];
  source?: ImageSource;
  locationIds?: string[];
  /** With `source.checksumUrl`: refreshed on this schedule (its Temporal Schedule). */
  refreshSchedule?: RefreshSchedule | null;
}

export interface RefreshSchedule {
  /** `<n>h` or `<n>d` (src/domain/image-refresh.ts). */
  every: string;
}

/** `templates` are added or replaced, by connection and node; the others stay. `refreshSchedule` null removes it. */
export type ImageChange = Partial<Omit<ImageSpec, 'defaultUsername' | 'source' | 'locationIds'>> & { defaultUsername?: string | null; archived?: boolean };

type ImageDeps = Pick<ServiceDeps, 'db' | 'temporal' | 'config' | 'logger' | 'proxmox'>;

/** The seconds a refresh schedule names (the API checked them). */
const intervalOf = (schedule: RefreshSchedule | null | undefined): number | null => (schedule ? (refreshIntervalSeconds(schedule.every) as number) : null);

/** Brings the image's Temporal Schedule to its row: made or updated with an interval, removed without. */
async function writeRefreshSchedule(deps: Pick<ServiceDeps, 'temporal' | 'config'>, imageId: string, intervalSeconds: number | null): Promise<void> {
  if (intervalSeconds === null) await deleteImageRefreshSchedule(deps.temporal, imageId);
  else await upsertImageRefreshSchedule(deps.temporal, deps.config, imageId, intervalSeconds);
}

/** An image as an admin sees it: with a URL image's download progress by download key. */
export type AdminImageRow = ImageWithTemplates & { progress: Map<string, number | null> };

const withProgress = async (deps: CatalogDeps, images: ImageWithTemplates[]): Promise<AdminImageRow[]> => {
  const progress = await downloadProgress(deps, images.flatMap((i) => i.versions));
  return images.map((image) => ({ ...image, progress }));
};

/** One image as an admin sees it; none when there is no such image. */
export async function readAdminImage(deps: CatalogDeps, id: string): Promise<AdminImageRow | undefined> {
  const image = await findImage(deps.db, id);
  return image ? (await withProgress(deps, [image]))[0] : undefined;
}

/** Every image, or only the archived (true) or current (false) ones, with their templates and builds. */
export const listImages = async (deps: CatalogDeps, page: PageArgs, archived?: boolean): Promise<AdminImageRow[]> => withProgress(deps, await findImages(deps.db, page, archived));

/** The images customers choose from: not archived. */
export const listOfferedImages = (deps: CatalogDeps, page: PageArgs): Promise<Image[]> => findOfferedImages(deps.db, page);

/** Every template names a node of a known connection. */
async function assertTemplateNodes(tx: Tx, templates: TemplateSpec[]): Promise<void> {
  const nodes = await nodesOfConnections(tx, [...new Set(templates.map((t) => t.connectionId))]);
  const known = new Set(nodes.map((n) => `${n.connectionId}/${n.name}`));
  const knownConnections = new Set(nodes.map((n) => n.connectionId));
  const fields: Record<string, string> = {};
  templates.forEach((t, i) => {
    if (!knownConnections.has(t.connectionId)) fields[`templates.${i}.connectionId`] = 'no such connection';
    else if (!known.has(`${t.connectionId}/${t.node}`)) fields[`templates.${i}.node`] = 'no such node on this connection';
  });
  if (Object.keys(fields).length > 0) throw badReference(fields);
}

/**
 * A new image: from hand-made templates, or from a URL (its first version then builds on every
 * node of the connections of its locations; the storage named for downloads is checked first).
 */
export async function createImage(deps: ImageDeps, actorUserId: string, image: ImageSpec): Promise<AdminImageRow> {
  const { source } = image;
  const connectionIds = source ? await connectionsOfLocations(deps, image.locationIds ?? []) : [];
  if (source?.storage) await assertImportStorage(deps, connectionIds, source.storage);
  const checksum = source && (source.checksum ?? (await listedChecksum(deps.config, { ...source, checksumUrl: source.checksumUrl as string })));
  const refreshInterval = intervalOf(image.refreshSchedule);
  const versionId = newId('imv');
  const created = await createRow(deps, ['image'], async (tx) => {
    await assertTemplateNodes(tx, image.templates ?? []);
    const imageId = newId('img');
    const created = await insertImage(
      tx,
      {
        id: imageId,
        name: image.name,
        os: image.os,
        version: image.version,
        loginMethods: image.loginMethods,
        defaultUsername: image.defaultUsername ?? null,
        rootAllowed: image.rootAllowed,
        ...(source
          ? {
              sourceUrl: source.url,
              checksumUrl: source.checksumUrl ?? null,
              checksumAlgorithm: source.checksumAlgorithm,
              importStorage: source.storage ?? null,
              locationIds: image.locationIds ?? [],
              refreshIntervalSeconds: refreshInterval,
            }
          : {}),
      },
      image.templates ?? [],
      checksum ? { id: versionId, checksum } : undefined,
    );
    await audit(tx, actorUserId, 'image.created', { imageId, name: created.name, ...(source ? { sourceUrl: source.url } : {}) });
    // Inside the transaction: a schedule Temporal refused leaves no image behind.
    if (refreshInterval !== null) await writeRefreshSchedule(deps, imageId, refreshInterval);
    return created;
  });
  if (source) await startImageBuilds(deps, { imageId: created.id, id: versionId }, connectionIds);
  const [row] = await withProgress(deps, [created]);
  return row as AdminImageRow;
}

/**
 * Login rules and templates apply to creates and rebuilds from now on; servers already made keep
 * their login. A refresh schedule is set (or removed) on the row and its Temporal Schedule together.
 */
export async function updateImage(deps: ImageDeps, actorUserId: string, id: string, change: ImageChange): Promise<AdminImageRow> {
  const updated = await updateRow(deps, actorUserId, id, change, {
    duplicate: ['image'],
    lock: lockImage,
    noun: 'image',
    action: 'image.updated',
    subject: 'imageId',
    asBody: (image) => ({ ...asBody(image), refreshSchedule: image.refreshIntervalSeconds === null ? null : { every: refreshEvery(image.refreshIntervalSeconds) } }),
    apply: async (tx, { current: image, fields: { templates = [], refreshSchedule, ...fields }, archive }) => {
      const defaultUsername = fields.defaultUsername === undefined ? image.defaultUsername : fields.defaultUsername;
      if (defaultUsername === 'root' && !(fields.rootAllowed ?? image.rootAllowed)) throw badReference({ defaultUsername: 'root requires rootAllowed' });
      if (refreshSchedule && !image.checksumUrl) throw new AppError('INVALID_STATE', 'Only an image whose checksum is read from a checksum URL can be refreshed on a schedule.');
      await assertTemplateNodes(tx, templates);
      for (const template of templates) await putTemplate(tx, id, template);
      const refreshInterval = refreshSchedule === undefined ? {} : { refreshIntervalSeconds: intervalOf(refreshSchedule) };
      const updated = await updateImageRow(tx, id, { ...fields, ...archive, ...refreshInterval });
      if (refreshSchedule !== undefined) await writeRefreshSchedule(deps, id, updated.refreshIntervalSeconds);
      return updated;
    },
  });
  const [row] = await withProgress(deps, [updated]);
  return row as AdminImageRow;
}
