import { forgetJobs } from '../db/provider-jobs';
import { IMPORT_FILE_PREFIX } from '../domain/image-sources';
import { listedRunning, type ProxmoxClient } from '../proxmox';
import type { ActivityDeps } from './deps';
import { removeBuildGuest } from './image-import';
import { runProviderJob } from './provider-job';

export interface RetireInput {
  imageId: string;
  connectionId: string;
  /** Every build of the image (it is being deleted), not only those a newer ready version replaced. */
  all: boolean;
}

/**
 * Could a server still be cloned from this template? A provision or rebuild in flight that chose
 * it, or a clone Proxmox is running from it.
 */
async function cloneInFlight(deps: ActivityDeps, client: ProxmoxClient, o: { connectionId: string; node: string; vmid: number }): Promise<boolean> {
  const chosen = await deps.db.instance.count({ where: { connectionId: o.connectionId, templateVmid: o.vmid, activeTask: { isNot: null } } });
  if (chosen > 0) return true;
  const clones = await client.tasks.list(o.node, { typefilter: 'qmclone', vmid: o.vmid, source: 'active' });
  return clones.some(listedRunning);
}

/**
 * retireImageBuilds: the templates a newer ready version replaced on their node (or, when the
 * image is deleted, all of them) are destroyed once no clone from them is in flight, and each
 * downloaded file once no build still uses it; only what carries our marker (the template's
 * description line, the file's name) is removed. Answers how many builds wait on a clone.
 * Converges on retry: every removal is a provider job or finds its target gone; retired builds are skipped.
 */
export function createRetireImageBuildsActivity(deps: ActivityDeps) {
  return async function retireImageBuilds({ imageId, connectionId, all }: RetireInput): Promise<{ waiting: number }> {
    const connection = await deps.db.proxmoxConnection.findUniqueOrThrow({ where: { id: connectionId } });
    const client = deps.proxmox(connection);
    const builds = await deps.db.imageBuild.findMany({ where: { connectionId, retiredAt: null, version: { imageId } }, include: { version: true } });
    const newestReady = new Map<string, number>();
    for (const b of builds) if (b.state === 'ready') newestReady.set(b.node, Math.max(newestReady.get(b.node) ?? 0, b.version.number));
    let waiting = 0;
    for (const build of builds) {
      const replaced = (newestReady.get(build.node) ?? 0) > build.version.number;
      if (!all && !replaced) continue;
      if (build.templateVmid !== null && (await cloneInFlight(deps, client, { connectionId, node: build.node, vmid: build.templateVmid }))) {
        waiting++;
        continue;
      }
      await removeBuildGuest(deps, build.id);
      await deps.db.$transaction([
        deps.db.imageTemplate.deleteMany({ where: { imageId, connectionId, node: build.node, templateVmid: build.templateVmid ?? -1 } }),
        deps.db.imageBuild.update({ where: { id: build.id }, data: { retiredAt: new Date() } }),
      ]);
    }
    await removeUnusedFiles(deps, client, imageId, connectionId);
    const versions = await deps.db.imageVersion.findMany({ where: { imageId, retiredAt: null, builds: { some: {} }, NOT: { builds: { some: { retiredAt: null } } } } });
    if (versions.length > 0) await deps.db.imageVersion.updateMany({ where: { id: { in: versions.map((v) => v.id) } }, data: { retiredAt: new Date() } });
    return { waiting };
  };
}

/** Deletes each downloaded file of the image on the connection whose builds are all retired (a file named with our prefix only). */
async function removeUnusedFiles(deps: ActivityDeps, client: ProxmoxClient, imageId: string, connectionId: string): Promise<void> {
  const builds = await deps.db.imageBuild.findMany({ where: { connectionId, version: { imageId }, downloadKey: { not: null } } });
  const byKey = new Map<string, typeof builds>();
  for (const b of builds) byKey.set(b.downloadKey as string, [...(byKey.get(b.downloadKey as string) ?? []), b]);
  for (const [key, sharing] of byKey) {
    if (sharing.some((b) => b.retiredAt === null)) continue;
    const holder = sharing.find((b) => b.fileVolid !== null);
    const volid = holder?.fileVolid;
    if (!holder || !volid || !volid.split('/').pop()?.startsWith(IMPORT_FILE_PREFIX)) continue;
    const [storage, content] = [volid.slice(0, volid.indexOf(':')), 'import' as const];
    await runProviderJob(deps, client, {
      key: `${key}:remove`,
      connectionId,
      node: holder.node,
      kind: 'remove-file',
      startsTask: { type: 'imgdel', id: '' },
      isDone: async () => !(await client.storage.files(holder.node, storage, content)).some((f) => f.volid === volid),
      issue: () => client.storage.deleteFile(holder.node, volid),
    });
    await deps.db.imageBuild.updateMany({ where: { downloadKey: key }, data: { fileVolid: null } });
    await forgetJobs(deps.db, key);
  }
}
