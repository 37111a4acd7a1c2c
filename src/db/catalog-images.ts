import type { Image, ImageTemplate, Prisma } from '../generated/prisma/client';
import { newId } from '../security/ids';
import { archivedFilter } from './catalog';
import type { Tx } from './client';
import type { PageArgs } from './pages';

/**
 * The rows of images and their templates (one template VMID per node of a connection). A new
 * image's id is named by its caller.
 */

export type ImageWithTemplates = Image & { templates: ImageTemplate[] };

export interface TemplateSpec {
  connectionId: string;
  node: string;
  templateVmid: number;
}

export const findImages = (tx: Tx, page: PageArgs, archived?: boolean): Promise<ImageWithTemplates[]> =>
  tx.image.findMany({ ...page, where: { ...page.where, ...archivedFilter(archived) }, include: { templates: true } });

/** Images customers may choose, without their templates. */
export const findOfferedImages = (tx: Tx, page: PageArgs): Promise<Image[]> => tx.image.findMany({ ...page, where: { ...page.where, ...archivedFilter(false) } });

export function insertImage(tx: Tx, image: Omit<Prisma.ImageUncheckedCreateInput, 'templates'>, templates: TemplateSpec[]): Promise<ImageWithTemplates> {
  return tx.image.create({
    data: { ...image, templates: { create: templates.map((t) => ({ id: newId('tpl'), connectionId: t.connectionId, node: t.node, templateVmid: t.templateVmid })) } },
    include: { templates: true },
  });
}

/** The image, locked against concurrent updates; none when there is no such image. */
export async function lockImage(tx: Tx, id: string): Promise<Image | undefined> {
  const [image] = await tx.$queryRaw<Image[]>`SELECT * FROM images WHERE id = ${id} FOR UPDATE`;
  return image;
}

/** Adds the image's template on a node of a connection, or moves it to another VMID. */
export async function putTemplate(tx: Tx, imageId: string, template: TemplateSpec): Promise<void> {
  await tx.imageTemplate.upsert({
    where: { imageId_connectionId_node: { imageId, connectionId: template.connectionId, node: template.node } },
    create: { id: newId('tpl'), imageId, ...template },
    update: { templateVmid: template.templateVmid },
  });
}

export const updateImageRow = (tx: Tx, id: string, data: Prisma.ImageUncheckedUpdateInput): Promise<ImageWithTemplates> =>
  tx.image.update({ where: { id }, data, include: { templates: true } });
