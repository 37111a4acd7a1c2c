import type { Tx } from '../../db/client';
import { findImages, findOfferedImages, type ImageWithTemplates, insertImage, lockImage, putTemplate, type TemplateSpec, updateImageRow } from '../../db/catalog-images';
import { nodesOfConnections } from '../../db/catalog-nodes';
import type { PageArgs } from '../../db/pages';
import type { Image } from '../../generated/prisma/client';
import type { LoginMethod } from '../../generated/prisma/enums';
import { newId } from '../../security/ids';
import { audit, badReference, type CatalogDeps, createRow, updateRow } from './changes';

/** Images: what a server is built from, and its template on each node of a connection. */

export interface ImageSpec {
  name: string;
  os: string;
  version: string;
  loginMethods: LoginMethod[];
  defaultUsername?: string;
  rootAllowed: boolean;
  templates: TemplateSpec[];
}

/** `templates` are added or replaced, by connection and node; the others stay. */
export type ImageChange = Partial<Omit<ImageSpec, 'defaultUsername'>> & { defaultUsername?: string | null; archived?: boolean };

/** Every image, or only the archived (true) or current (false) ones, with their templates. */
export const listImages = (deps: CatalogDeps, page: PageArgs, archived?: boolean): Promise<ImageWithTemplates[]> => findImages(deps.db, page, archived);

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

export function createImage(deps: CatalogDeps, actorUserId: string, image: ImageSpec): Promise<ImageWithTemplates> {
  return createRow(deps, ['image'], async (tx) => {
    await assertTemplateNodes(tx, image.templates);
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
      },
      image.templates,
    );
    await audit(tx, actorUserId, 'image.created', { imageId, name: created.name });
    return created;
  });
}

/** Login rules and templates apply to creates and rebuilds from now on; servers already made keep their login. */
export function updateImage(deps: CatalogDeps, actorUserId: string, id: string, change: ImageChange): Promise<ImageWithTemplates> {
  return updateRow(deps, actorUserId, id, change, {
    duplicate: ['image'],
    lock: lockImage,
    noun: 'image',
    action: 'image.updated',
    subject: 'imageId',
    apply: async (tx, { current: image, fields: { templates = [], ...fields }, archive }) => {
      const defaultUsername = fields.defaultUsername === undefined ? image.defaultUsername : fields.defaultUsername;
      if (defaultUsername === 'root' && !(fields.rootAllowed ?? image.rootAllowed)) throw badReference({ defaultUsername: 'root requires rootAllowed' });
      await assertTemplateNodes(tx, templates);
      for (const template of templates) await putTemplate(tx, id, template);
      return updateImageRow(tx, id, { ...fields, ...archive });
    },
  });
}
