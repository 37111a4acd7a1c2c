import { ApplicationFailure } from '@temporalio/common';
import { recordJobProgress } from '../db/provider-jobs';
import { FailureType } from '../domain/failure-types';
import { type ChecksumAlgorithm, type DownloadContent, type ProxmoxClient } from '../proxmox';
import type { ActivityDeps } from './deps';
import { fail } from './failures';
import { runProviderJob } from './provider-job';

/** One file Proxmox is to fetch from a URL into a storage (pve-storage's download-url), wherever in the product it is wanted. */
export interface StorageDownloadInput {
  /**
   * Names the download for good: a retry (or a crashed worker's successor) with the same key
   * resumes the recorded task instead of starting another. One key per file per storage (and per
   * node when the storage is the node's own).
   */
  key: string;
  connectionId: string;
  /** The node that runs the download; for a shared storage, any node that sees it. */
  node: string;
  storage: string;
  content: DownloadContent;
  /** The file's name on the storage: `.qcow2`/`.raw`/`.vmdk`/`.ova` for import, `.iso`/`.img` for iso. */
  filename: string;
  url: string;
  checksum: string;
  checksumAlgorithm: ChecksumAlgorithm;
}

export interface StorageDownloadResult {
  /** `<storage>:<content>/<filename>`, what import-from (or a CD-ROM drive) names. */
  volid: string;
}

/** The volume id a downloaded file gets. */
export const downloadedVolid = (input: Pick<StorageDownloadInput, 'storage' | 'content' | 'filename'>) => `${input.storage}:${input.content}/${input.filename}`;

/** The last percentage wget's progress rows in a download task's log show (0 before the first). */
export function downloadProgress(log: string[]): number {
  for (let i = log.length - 1; i >= 0; i--) {
    const row = /^\s*\d+K[ .]*\s(\d{1,3})%/.exec(log[i] as string);
    if (row) return Math.min(100, Number(row[1]));
  }
  return 0;
}

/** Stable codes for what a download task's exit (or download-url's refusal) says, Proxmox's words kept for operators. */
export function downloadFailure(words: string, context: Record<string, unknown>) {
  const type = /checksum mismatch/i.test(words)
    ? FailureType.DownloadChecksumMismatch
    : /No space left on device|not enough space/i.test(words)
      ? FailureType.DownloadStorageFull
      : /failed to verify file|invalid filename|wrong file extension/i.test(words)
        ? FailureType.DownloadInvalidFile
        : /not configured for content-type|not a file based storage/i.test(words)
          ? FailureType.DownloadStorageRefused
          : /download failed|ERROR \d+|Giving up|Name or service not known|Connection refused|timed out/i.test(words)
            ? FailureType.DownloadUnreachable
            : undefined;
  return type ? fail(type, words, context) : undefined;
}

/** Reads the task log at most this often while a download runs. */
const PROGRESS_EVERY_MS = 2_000;

/**
 * Fetches a URL into a storage through Proxmox, with its checksum checked by Proxmox, and answers
 * the file's volume id. The file is listed only once the whole download checked out, so a listed
 * file is a finished one. Used by every workflow that needs a file from a URL (disk images, ISOs).
 */
export async function downloadToStorage(deps: ActivityDeps, client: ProxmoxClient, input: StorageDownloadInput): Promise<StorageDownloadResult> {
  const volid = downloadedVolid(input);
  const context = { kind: 'download', node: input.node, storage: input.storage, url: input.url };
  let lastRead = 0;
  try {
    await runProviderJob(deps, client, {
      key: input.key,
      connectionId: input.connectionId,
      node: input.node,
      kind: 'download',
      startsTask: { type: 'download', id: input.filename },
      isDone: async () => (await client.storage.files(input.node, input.storage, input.content)).some((f) => f.volid === volid),
      issue: () =>
        client.storage.downloadUrl(input.node, input.storage, {
          content: input.content,
          filename: input.filename,
          url: input.url,
          checksum: input.checksum,
          checksumAlgorithm: input.checksumAlgorithm,
        }),
      onPoll: (jobId, upid) => {
        if (Date.now() - lastRead < PROGRESS_EVERY_MS) return;
        lastRead = Date.now();
        // Progress is a courtesy: a log read that fails waits for the next poll.
        void client.tasks
          .log(upid)
          .then((log) => recordJobProgress(deps.db, jobId, downloadProgress(log)))
          .catch(() => undefined);
      },
    });
  } catch (error) {
    throw classified(error, context);
  }
  return { volid };
}

/** A refused or failed download (as fromProxmoxError made it final) with a stable code where Proxmox's words tell one; anything else as it was. */
function classified(error: unknown, context: Record<string, unknown>): unknown {
  const final = error instanceof ApplicationFailure && (error.type === FailureType.ProviderTaskFailed || error.type === FailureType.ProviderRejected);
  return (final && downloadFailure(error.message, context)) || error;
}

/**
 * downloadStorageFile: the activity form of downloadToStorage, for workflows (a child workflow
 * StorageDownload wraps it for those that want it as one step).
 * Converges on retry: the download's key holds its recorded UPID, which a retry polls; a lost answer adopts the task our token started, or the listed file.
 */
export function createStorageDownloadActivity(deps: ActivityDeps) {
  return async function downloadStorageFile(input: StorageDownloadInput): Promise<StorageDownloadResult> {
    const connection = await deps.db.proxmoxConnection.findUniqueOrThrow({ where: { id: input.connectionId } });
    return downloadToStorage(deps, deps.proxmox(connection), input);
  };
}
