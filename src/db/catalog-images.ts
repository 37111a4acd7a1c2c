import type { Image, ImageBuild, ImageTemplate, ImageVersion, Prisma } from '../generated/prisma/client';
import { newId } from '../security/ids';
import { archivedFilter } from './catalog';
import type { Tx } from './client';
import type { PageArgs } from './pages';

/**
 * The rows of images and their templates (one template VMID per node of a connection). A new
 * image's id is named by its caller.
 */

export type ImageWithTemplates = Image & { templates: ImageTemplate[]; versions: (ImageVersion & { builds: ImageBuild[] })[] };

/** An image with its templates, and a URL image's versions and their builds. */
const WITH_TEMPLATES = { templates: true, versions: { include: { builds: true }, orderBy: { number: 'asc' } } } as const satisfies Prisma.ImageInclude;

export interface TemplateSpec {
  connectionId: string;
  node: string;
  templateVmid: number;
}

export const findImages = (tx: Tx, page: PageArgs, archived?: boolean): Promise<ImageWithTemplates[]> =>
  tx.image.findMany({ ...page, where: { ...page.where, ...archivedFilter(archived) }, include: WITH_TEMPLATES });

export const findImage = (tx: Tx, id: string): Promise<ImageWithTemplates | null> => tx.image.findUnique({ where: { id }, include: WITH_TEMPLATES });

/** Images customers may choose, without their templates. */
export const findOfferedImages = (tx: Tx, page: PageArgs): Promise<Image[]> => tx.image.findMany({ ...page, where: { ...page.where, ...archivedFilter(false) } });

export function insertImage(tx: Tx, image: Omit<Prisma.ImageUncheckedCreateInput, 'templates' | 'versions'>, templates: TemplateSpec[], firstVersion?: { id: string; checksum: string }): Promise<ImageWithTemplates> {
  return tx.image.create({
    data: { ...image, ...(firstVersion ? { versions: { create: { id: firstVersion.id, number: 1, checksum: firstVersion.checksum } } } : {}), templates: { create: templates.map((t) => ({ id: newId('tpl'), connectionId: t.connectionId, node: t.node, templateVmid: t.templateVmid })) } },
    include: WITH_TEMPLATES,
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
  tx.image.update({ where: { id }, data, include: WITH_TEMPLATES });
