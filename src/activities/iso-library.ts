import type { Prisma } from '../generated/prisma/client';
import type { ChecksumAlgorithm } from '../proxmox';
import { ProxmoxError } from '../proxmox';
import type { ActivityDeps } from './deps';
import { runProviderJob } from './provider-job';
import type { StorageDownloadInput } from './storage-download';

/** One copy of an ISO to download, through the shared storage download path. */
export interface IsoCopyDownload {
  copyId: string;
  download: StorageDownloadInput;
}

export interface IsoSyncPlan {
  downloads: IsoCopyDownload[];
  /** Copies of a deleted ISO whose file goes. */
  removals: string[];
}

const copyWithPlace = { iso: true, location: { include: { connection: { include: { nodes: { where: { enabled: true }, orderBy: { name: 'asc' } } } } } } } satisfies Prisma.IsoCopyInclude;

/**
 * What an ISO's copies need now: those `importing` a download each (on their node, or on any
 * enabled node that reads the shared storage), those `deleting` their file removed.
 * Converges on retry: read-only.
 */
export function createPlanIsoSyncActivity(deps: ActivityDeps) {
  return async function planIsoSync({ isoId }: { isoId: string }): Promise<IsoSyncPlan> {
    const copies = await deps.db.isoCopy.findMany({ where: { isoId, state: { in: ['importing', 'deleting'] } }, include: copyWithPlace, orderBy: { id: 'asc' } });
    const downloads = copies.flatMap((copy): IsoCopyDownload[] => {
      const node = copy.node ?? copy.location.connection.nodes[0]?.name;
      if (copy.state !== 'importing' || !node) return [];
      const { iso } = copy;
      return [
        {
          copyId: copy.id,
          download: {
            // One file per storage (and node, for a node's own storage): a retried or restarted sync resumes its task.
            key: `iso:${iso.id}:${copy.location.connectionId}:${copy.storage}:${copy.node ?? 'shared'}`,
            connectionId: copy.location.connectionId,
            node,
            storage: copy.storage,
            content: 'iso',
            filename: iso.fileName,
            url: iso.url,
            checksum: iso.checksum,
            checksumAlgorithm: iso.checksumAlgorithm as ChecksumAlgorithm,
          },
        },
      ];
    });
    return { downloads, removals: copies.filter((c) => c.state === 'deleting').map((c) => c.id) };
  };
}

/**
 * A copy's download ended: `ready`, or `failed` with its cause in the operator's words. A copy
 * deleted meanwhile stays deleting.
 * Converges on retry: an update of a copy still importing; nothing once it moved on.
 */
export function createSettleIsoCopyActivity(deps: ActivityDeps) {
  return async function settleIsoCopy({ copyId, failure }: { copyId: string; failure?: string }): Promise<void> {
    await deps.db.isoCopy.updateMany({
      where: { id: copyId, state: 'importing' },
      data: failure ? { state: 'failed', failureMessage: failure.slice(0, 1000) } : { state: 'ready', failureMessage: null },
    });
  };
}

/**
 * A deleted ISO's copy: its file deleted from the storage (a file already gone is nothing to do), then its row.
 * Converges on retry: the delete is a recorded provider job keyed by the copy, resumed by its UPID; a missing file counts as deleted.
 */
export function createRemoveIsoCopyActivity(deps: ActivityDeps) {
  return async function removeIsoCopy({ copyId }: { copyId: string }): Promise<void> {
    const copy = await deps.db.isoCopy.findUnique({ where: { id: copyId }, include: copyWithPlace });
    const node = copy?.node ?? copy?.location.connection.nodes[0]?.name;
    if (!copy || !node) return;
    const client = deps.proxmox(copy.location.connection);
    const volid = `${copy.storage}:iso/${copy.iso.fileName}`;
    const listed = async () => (await client.storage.files(node, copy.storage, 'iso')).some((f) => f.volid === volid);
    if (await listed()) {
      await runProviderJob(deps, client, {
        key: `iso-delete:${copy.id}`,
        connectionId: copy.location.connectionId,
        node,
        kind: 'iso_delete',
        startsTask: { type: 'imgdel', id: copy.storage },
        isDone: async () => !(await listed()),
        issue: () => client.storage.deleteFile(node, volid),
      }).catch((error: unknown) => {
        if (!(error instanceof ProxmoxError && error.isNotFound)) throw error;
      });
    }
    await deps.db.isoCopy.deleteMany({ where: { id: copyId } });
  };
}
