import type { ImageBuild, ImageBuildState } from '../generated/prisma/client';
import { newId } from '../security/ids';
import type { Db, Tx } from './client';

/**
 * The builds of URL images: one per version, connection and node. A build that becomes ready
 * points the image's template on its node at its VMID when it is the newest ready version there,
 * so placement and clones (which read image_templates) see only nodes where the image is ready.
 */

export interface PlannedBuild {
  node: string;
  storage: string | null;
  downloadKey: string | null;
  /** Set when the node cannot build the image at all (its storage takes no import). */
  failure?: { code: string; message: string };
}

/** The version's builds on a connection's nodes, created once: a node already planned keeps its row. */
export async function planBuilds(db: Db, versionId: string, connectionId: string, planned: PlannedBuild[]): Promise<ImageBuild[]> {
  for (const p of planned) {
    await db.imageBuild.upsert({
      where: { versionId_connectionId_node: { versionId, connectionId, node: p.node } },
      create: {
        id: newId('imb'),
        versionId,
        connectionId,
        node: p.node,
        storage: p.storage,
        downloadKey: p.downloadKey,
        state: p.failure ? 'failed' : 'importing',
        errorCode: p.failure?.code ?? null,
        errorMessage: p.failure?.message ?? null,
      },
      update: {},
    });
  }
  return db.imageBuild.findMany({ where: { versionId, connectionId } });
}

/** Gives the build the VMID its template is made at (once: a retry keeps the first). */
export async function assignTemplateVmid(db: Db, buildId: string, vmid: number): Promise<ImageBuild> {
  await db.imageBuild.updateMany({ where: { id: buildId, templateVmid: null }, data: { templateVmid: vmid } });
  return db.imageBuild.findUniqueOrThrow({ where: { id: buildId } });
}

/** The highest template VMID our builds use on the connection. */
export async function highestTemplateVmid(db: Db, connectionId: string): Promise<number | null> {
  const { _max } = await db.imageBuild.aggregate({ where: { connectionId }, _max: { templateVmid: true } });
  return _max.templateVmid;
}

/** The build is ready; its template becomes the image's on the node unless a newer version is ready there already. */
export async function markBuildReady(db: Db, buildId: string, fileVolid: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const build = await tx.imageBuild.update({ where: { id: buildId }, data: { state: 'ready', fileVolid, errorCode: null, errorMessage: null }, include: { version: true } });
    if (build.templateVmid === null) throw new Error(`build ${buildId} is ready without a template VMID`);
    const newer = await tx.imageBuild.count({
      where: { connectionId: build.connectionId, node: build.node, state: 'ready', version: { imageId: build.version.imageId, number: { gt: build.version.number } } },
    });
    if (newer === 0) await pointTemplate(tx, build.version.imageId, build.connectionId, build.node, build.templateVmid);
  });
}

async function pointTemplate(tx: Tx, imageId: string, connectionId: string, node: string, templateVmid: number): Promise<void> {
  await tx.imageTemplate.upsert({
    where: { imageId_connectionId_node: { imageId, connectionId, node } },
    create: { id: newId('tpl'), imageId, connectionId, node, templateVmid },
    update: { templateVmid },
  });
}

/** The builds failed (or must be made again); the image's template on their nodes goes when it was theirs. */
export async function markBuildsState(db: Db, buildIds: string[], state: ImageBuildState, failure?: { code: string; message: string }): Promise<void> {
  await db.$transaction(async (tx) => {
    const builds = await tx.imageBuild.findMany({ where: { id: { in: buildIds } }, include: { version: true } });
    await tx.imageBuild.updateMany({ where: { id: { in: buildIds } }, data: { state, errorCode: failure?.code ?? null, errorMessage: failure?.message ?? null } });
    for (const b of builds) {
      if (b.templateVmid === null) continue;
      await tx.imageTemplate.deleteMany({ where: { imageId: b.version.imageId, connectionId: b.connectionId, node: b.node, templateVmid: b.templateVmid } });
    }
  });
}

export const findBuild = (db: Db, buildId: string) => db.imageBuild.findUniqueOrThrow({ where: { id: buildId }, include: { version: { include: { image: true } }, connection: true } });
