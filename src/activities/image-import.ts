import { assignTemplateVmid, findBuild, highestTemplateVmid, markBuildReady, markBuildsState, planBuilds, type PlannedBuild } from '../db/image-builds';
import { forgetJobs } from '../db/provider-jobs';
import { FailureType } from '../domain/failure-types';
import { imageTemplateMarker, importFilename, isImageTemplateOf } from '../domain/image-sources';
import { isNotFound, type ChecksumAlgorithm, type NodeStorage, type ProxmoxClient } from '../proxmox';
import type { ActivityDeps } from './deps';
import { fail } from './failures';
import { runProviderJob } from './provider-job';
import type { StorageDownloadInput } from './storage-download';

export interface ImageImportRef {
  versionId: string;
  connectionId: string;
}

/** What one ImportImage run does: each download (once per storage, or per node of a local one) and the builds that wait for it. */
export interface ImageImportPlan {
  downloads: { download: StorageDownloadInput; buildIds: string[] }[];
}

/** A storage a node may download disk images to: it takes `import`, is configured for the node and active there. */
const takesImport = (s: NodeStorage) => Boolean(s.content?.split(',').includes('import')) && s.enabled !== 0 && s.active !== 0;

/** The storage a node downloads to: the one asked for, else a shared one taking import, else its own; null with why when there is none. */
export function importStorageOf(storages: NodeStorage[], asked: string | null): { storage: NodeStorage } | { refused: string } {
  if (asked) {
    const named = storages.find((s) => s.storage === asked);
    if (!named) return { refused: `storage ${asked} is not available on this node` };
    return takesImport(named) ? { storage: named } : { refused: `storage ${asked} does not take content type import` };
  }
  const usable = storages.filter(takesImport);
  const storage = usable.find((s) => s.shared === 1) ?? usable[0];
  return storage ? { storage } : { refused: 'no storage on this node takes content type import' };
}

/** A template's VMID: outside the connection's range for servers, above what our builds already use, free on the cluster. */
async function freeTemplateVmid(deps: ActivityDeps, client: ProxmoxClient, connection: { id: string; vmidEnd: number }): Promise<number> {
  let vmid = Math.max((await highestTemplateVmid(deps.db, connection.id)) ?? 0, connection.vmidEnd) + 1;
  while (!(await client.cluster.isVmidFree(vmid))) vmid++;
  return vmid;
}

/**
 * planImageImport: the version's build on every node of the connection (each node's storage
 * read from Proxmox), a template VMID for each, and the downloads they wait for.
 * Converges on retry: builds are created once per node and VMIDs assigned once per build; the plan is read back from them.
 */
export function createPlanImageImportActivity(deps: ActivityDeps) {
  return async function planImageImport({ versionId, connectionId }: ImageImportRef): Promise<ImageImportPlan> {
    const version = await deps.db.imageVersion.findUniqueOrThrow({ where: { id: versionId }, include: { image: true } });
    const { image } = version;
    if (!image.sourceUrl || !image.checksumAlgorithm) throw fail(FailureType.InconsistentState, `image ${image.id} has no source URL`);
    const connection = await deps.db.proxmoxConnection.findUniqueOrThrow({ where: { id: connectionId }, include: { nodes: { where: { enabled: true } } } });
    const client = deps.proxmox(connection);
    const planned: PlannedBuild[] = [];
    for (const node of connection.nodes) {
      const chosen = importStorageOf(await client.storage.list(node.name), image.importStorage);
      if ('refused' in chosen) {
        planned.push({ node: node.name, storage: null, downloadKey: null, failure: { code: 'IMAGE_STORAGE_REFUSED', message: chosen.refused } });
        continue;
      }
      const { storage, shared } = chosen.storage;
      const downloadKey = `download:${versionId}:${connectionId}:${storage}${shared === 1 ? '' : `:${node.name}`}`;
      planned.push({ node: node.name, storage, downloadKey });
    }
    const builds = await planBuilds(deps.db, versionId, connectionId, planned);
    const byKey = new Map<string, ImageImportPlan['downloads'][number]>();
    for (const build of builds.sort((a, b) => a.node.localeCompare(b.node))) {
      const { downloadKey, storage } = build;
      if (build.state !== 'importing' || !downloadKey || !storage) continue;
      if (build.templateVmid === null) await assignTemplateVmid(deps.db, build.id, await freeTemplateVmid(deps, client, connection));
      const entry = byKey.get(downloadKey);
      if (entry) {
        entry.buildIds.push(build.id);
        continue;
      }
      byKey.set(downloadKey, {
        buildIds: [build.id],
        download: {
          key: downloadKey,
          connectionId,
          node: build.node,
          storage,
          content: 'import',
          filename: importFilename(versionId, image.sourceUrl),
          url: image.sourceUrl,
          checksum: version.checksum,
          checksumAlgorithm: image.checksumAlgorithm as ChecksumAlgorithm,
        },
      });
    }
    return { downloads: [...byKey.values()] };
  };
}

/** The guest config of an image's template: the disk imported from the file, a cloud-init drive, a serial console, the guest agent, booting from the disk. */
function templateConfig(o: { name: string; diskStorage: string; volid: string; marker: string }) {
  return {
    name: o.name,
    description: `${o.marker}\nManaged by pvecp: an image template built from a URL; removed when the image is.`,
    tags: 'pvecp-image',
    ostype: 'l26',
    memory: 1024,
    cores: 1,
    scsihw: 'virtio-scsi-single',
    scsi0: `${o.diskStorage}:0,import-from=${o.volid},iothread=1`,
    ide2: `${o.diskStorage}:cloudinit`,
    boot: 'order=scsi0',
    serial0: 'socket',
    vga: 'serial0',
    agent: 'enabled=1',
  };
}

/** True when our template VM (its marker in the description) is at the VMID; a guest we did not make there is a conflict. */
async function ourGuestAt(client: ProxmoxClient, node: string, vmid: number, buildId: string): Promise<{ template: boolean } | null> {
  try {
    const config = await client.guestConfig.get(node, vmid);
    if (!isImageTemplateOf(String(config.description ?? ''), buildId)) {
      throw fail(FailureType.GuestConflict, `VMID ${vmid} holds a guest we did not create`, { node, vmid });
    }
    return { template: Number(config.template) === 1 };
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/**
 * makeImageTemplate: a VM whose disk is imported from the downloaded file, then converted to a
 * template; the build is then ready, and the image's template on that node when it is the newest.
 * Converges on retry: each call is a provider job (UPID recorded before it is polled); a lost answer adopts the task or finds our VM (its marker) or template.
 */
export function createMakeImageTemplateActivity(deps: ActivityDeps) {
  return async function makeImageTemplate({ buildId, volid }: { buildId: string; volid: string }): Promise<void> {
    const build = await findBuild(deps.db, buildId);
    const vmid = build.templateVmid;
    if (vmid === null) throw fail(FailureType.InconsistentState, `build ${buildId} has no template VMID`);
    const { node, connection } = build;
    const client = deps.proxmox(connection);
    const name = `${build.version.image.name.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'image'}-v${build.version.number}`;
    await runProviderJob(deps, client, {
      key: `${buildId}:create`,
      connectionId: connection.id,
      node,
      kind: 'create',
      startsTask: { type: 'qmcreate', id: String(vmid) },
      isDone: async () => (await ourGuestAt(client, node, vmid, buildId)) !== null,
      issue: () => client.guests.create(node, vmid, templateConfig({ name, diskStorage: connection.storage, volid, marker: imageTemplateMarker(buildId) })),
    });
    await runProviderJob(deps, client, {
      key: `${buildId}:template`,
      connectionId: connection.id,
      node,
      kind: 'template',
      startsTask: { type: 'qmtemplate', id: String(vmid) },
      isDone: async () => (await ourGuestAt(client, node, vmid, buildId))?.template === true,
      issue: () => client.guests.convertToTemplate(node, vmid),
    });
    await markBuildReady(deps.db, buildId, volid);
  };
}

/**
 * failImageBuilds: the builds failed with a stable code; a VM or template we made for them is
 * destroyed (proven ours by its marker), so nothing is left behind but the record.
 * Converges on retry: the destroy is a provider job, and a VM that is gone needs none.
 */
export function createFailImageBuildsActivity(deps: ActivityDeps) {
  return async function failImageBuilds({ buildIds, code, message }: { buildIds: string[]; code: string; message: string }): Promise<void> {
    for (const buildId of buildIds) await removeBuildGuest(deps, buildId);
    await markBuildsState(deps.db, buildIds, 'failed', { code, message });
  };
}

/** Destroys the build's VM or template when it is there and ours, and forgets the build's calls so a rebuild makes them again. */
export async function removeBuildGuest(deps: ActivityDeps, buildId: string): Promise<void> {
  const build = await findBuild(deps.db, buildId);
  const vmid = build.templateVmid;
  if (vmid !== null) {
    const client = deps.proxmox(build.connection);
    const there = await ourGuestAt(client, build.node, vmid, buildId).catch((error: unknown) => {
      // Someone else's guest on the VMID is not ours to destroy.
      if ((error as { type?: string }).type === FailureType.GuestConflict) return null;
      throw error;
    });
    if (there) {
      await runProviderJob(deps, client, {
        key: `${buildId}:destroy`,
        connectionId: build.connectionId,
        node: build.node,
        kind: 'destroy',
        startsTask: { type: 'qmdestroy', id: String(vmid) },
        isDone: async () => (await ourGuestAt(client, build.node, vmid, buildId)) === null,
        issue: () => client.guests.delete(build.node, vmid),
      });
    }
  }
  await forgetJobs(deps.db, `${buildId}:`);
}
