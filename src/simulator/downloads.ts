/**
 * Files from a URL, as pve-storage's download_url (API2/Storage/Status.pm) and pve-common's
 * download_file_from_url (Tools.pm) fetch them: a `download` task that really fetches the URL
 * from the simulator's process into a temporary file on the storage, verifies its checksum and
 * its content (an image qemu-img reads without a backing file, an OVA with an `.ovf`), and only
 * then gives it its name; and pve-manager's query-url-metadata (API2/Nodes.pm).
 */
import crypto from 'node:crypto';
import { fail, SimHttpError, type CallContext } from './call';
import { CHECKSUM_ALGORITHMS, type ChecksumAlgorithm, type SimCluster, type SimFileContent, type SimStorageFile } from './cluster';
import { bool } from './config-values';
import { assertOvaContents, IMAGE_HEAD_BYTES, untrustedImageSize, type ImageFormat } from './disk-images';
import { contentFilePath, fileFormat, putFile, storageFree, storageOn, storagePath, takesContent } from './storage';
import { LWP_TIMEOUT_MS, lwpHead, wget, WGET_READ_TIMEOUT_MS } from './url-fetch';

/** pve-storage's KNOWN_COMPRESSION_FORMATS, the `compression` parameter's enumeration. */
const COMPRESSION_FORMATS = ['gz', 'lzo', 'zst', 'bz2'];

const badParam = (key: string, message: string) => new SimHttpError(400, 'Parameter verification failed.', { [key]: message });

/** pve-storage's normalize_content_filename: no directories, every character but `[a-zA-Z0-9_.-]` becomes `_`. */
const normalizeFilename = (name: string): string => name.replace(/\n$/, '').replace(/^.*[/\\]/, '').replace(/[^a-zA-Z0-9_.-]/g, '_');

/** The file name rules of each content type (Status.pm download_url; pve-storage's ISO, template and upload import endings). */
function checkFilename(content: SimFileContent, filename: string): void {
  if (content === 'iso' && !/[^/]+\.(?:iso|img)$/i.test(filename)) throw badParam('filename', 'wrong file extension');
  if (content === 'vztmpl' && !/[^/]+\.(?:tar(?!\.)|tar\.(?:gz|xz|zst|bz2))$/i.test(filename)) throw badParam('filename', 'wrong file extension');
  if (content === 'import' && !/[a-zA-Z0-9\-.+=_]+\.(?:ova|qcow2|raw|vmdk)$/.test(filename)) throw badParam('filename', 'invalid filename or wrong extension');
}

/** Every checksum of a stream at once: a later download may ask any of them of the file. */
function digester(): { update: (chunk: Buffer) => void; digests: () => Record<ChecksumAlgorithm, string> } {
  const hashes = CHECKSUM_ALGORITHMS.map((algorithm) => [algorithm, crypto.createHash(algorithm)] as const);
  return {
    update: (chunk) => hashes.forEach(([, hash]) => hash.update(chunk)),
    digests: () => Object.fromEntries(hashes.map(([algorithm, hash]) => [algorithm, hash.digest('hex')])) as Record<ChecksumAlgorithm, string>,
  };
}

/** A file's checksums and first bytes, for a file written to a storage by other means than a download. */
export function describeBytes(bytes: Buffer): Pick<SimStorageFile, 'digests' | 'head' | 'size'> {
  const d = digester();
  d.update(bytes);
  return { digests: d.digests(), head: Buffer.from(bytes.subarray(0, IMAGE_HEAD_BYTES)), size: bytes.length };
}

/** download_url's assert_file_validity: an ISO without a backing image, a disk image qemu-img reads, an OVA with its `.ovf`. */
function assertValid(content: SimFileContent, path: string, name: string, head: Buffer, size: number, log: (line: string) => void): void {
  if (content === 'iso') untrustedImageSize(path, head, size, 'auto-detect', log);
  if (content !== 'import') return;
  const format = fileFormat({ content, name });
  if (format === 'ova') assertOvaContents(path, head);
  else untrustedImageSize(path, head, size, format as ImageFormat, log);
}

/**
 * POST /nodes/{node}/storage/{storage}/download-url: checks the storage (file-based, configured for
 * the content type) and the file name at once, then answers a `download` task whose worker fetches
 * the URL (see runDownload).
 */
export function downloadUrl(cluster: SimCluster, ctx: CallContext, node: string, storage: string, p: Record<string, string>): string {
  cluster.checkNode(node);
  const spec = storageOn(cluster, node, storage);
  if (storagePath(spec) === undefined) throw fail(`can't upload to storage type '${spec.type ?? 'lvmthin'}', not a file based storage!`);
  const content = p.content as SimFileContent;
  if (!takesContent(spec, content)) throw fail(`storage '${storage}' is not configured for content-type '${content}'`);
  const filename = normalizeFilename(p.filename as string);
  checkFilename(content, filename);
  if (p.compression !== undefined) {
    if (!COMPRESSION_FORMATS.includes(p.compression)) throw badParam('compression', `value '${p.compression}' does not have a value in the enumeration '${COMPRESSION_FORMATS.join(', ')}'`);
    throw new SimHttpError(501, 'the simulator does not decompress downloads');
  }
  const fault = ctx.fault;
  ctx.faultHandled = true;
  const worked = fault?.mode !== 'task_fail' && fault?.mode !== 'hang';
  // what the worker leaves for the end of a successful task: the rename that makes the file appear
  let store: (() => void) | undefined;
  const task = cluster.tasks.create({
    node,
    type: 'download',
    // pve-common's encode_text: a normalized file name needs no escaping
    id: filename,
    user: ctx.user,
    // the task ends when its worker does; a failing or hanging one (a fault) fetches nothing
    held: worked,
    hang: fault?.mode === 'hang',
    failWith: fault?.mode === 'task_fail' ? (fault.message ?? 'simulated task failure') : undefined,
    warnings: fault?.mode === 'task_warnings' ? (fault.warnings ?? 1) : undefined,
    run: () => store?.(),
    after: () => {
      // ended early (a fault, an operator's stop): the transfer stops and its temporary file goes
      cluster.downloads.get(task.upid)?.abort.abort();
      cluster.downloads.delete(task.upid);
    },
  });
  if (worked) {
    const job = { upid: task.upid, pid: task.pid, node, storage, content, filename, params: p };
    void runDownload(cluster, job, (rename) => {
      store = rename;
    });
  }
  return task.upid;
}

interface DownloadJob {
  upid: string;
  pid: number;
  node: string;
  storage: string;
  content: SimFileContent;
  filename: string;
  params: Record<string, string>;
}

/**
 * download_file_from_url in the task's worker: a file already there passes with the right checksum
 * and is refused otherwise; else wget into `<file>.tmp_dwnl.<pid>` (room on the storage permitting),
 * the checksum, the content check, and the rename that makes the file appear. Every failure removes
 * the temporary file and ends the task with Proxmox's words.
 */
async function runDownload(cluster: SimCluster, job: DownloadJob, onSuccess: (rename: () => void) => void): Promise<void> {
  const spec = cluster.storages.get(job.storage);
  if (!spec) return;
  const log = (line: string) => cluster.taskLog(job.upid).push(line);
  const end = (error?: string) => cluster.tasks.finish(job.upid, error);
  const running = () => cluster.tasks.get(job.upid)?.status === 'running';
  const url = job.params.url as string;
  const dest = contentFilePath(spec, job.content, job.filename);
  const fileNode = spec.shared ? undefined : job.node;
  const algorithm = job.params['checksum-algorithm'] as ChecksumAlgorithm | undefined;
  const expected = job.params.checksum;
  log(`downloading ${url} to ${dest}`);
  const existing = cluster.storageFiles.find((f) => f.storage === job.storage && f.node === fileNode && f.content === job.content && f.name === job.filename);
  if (existing) {
    if (!algorithm || expected === undefined) return end(`refusing to override existing file '${dest}'`);
    const got = existing.digests[algorithm];
    if (got === expected.toLowerCase()) {
      log('calculating checksum of existing file...OK, got correct file already, no need to download');
      onSuccess(() => undefined);
      return end();
    }
    log('calculating checksum of existing file...');
    return end(`checksum mismatch: got '${got}' != expect '${expected}', aborting`);
  }
  const tmp = `${dest}.tmp_dwnl.${job.pid}`;
  const abort = new AbortController();
  const inFlight = { storage: job.storage, ...(fileNode !== undefined ? { node: fileNode } : {}), bytes: 0, abort };
  cluster.downloads.set(job.upid, inFlight);
  const digests = digester();
  const head: Buffer[] = [];
  let headBytes = 0;
  const outcome = await wget(url, {
    output: tmp,
    verifyCertificates: job.params['verify-certificates'] === undefined || bool(job.params['verify-certificates']),
    timeoutMs: cluster.settings.urlTimeoutMs ?? WGET_READ_TIMEOUT_MS,
    signal: abort.signal,
    log,
    write: (chunk) => {
      if (storageFree(cluster, job.node, job.storage) < chunk.length) return false;
      inFlight.bytes += chunk.length;
      digests.update(chunk);
      if (headBytes < IMAGE_HEAD_BYTES) {
        head.push(chunk.subarray(0, IMAGE_HEAD_BYTES - headBytes));
        headBytes += Math.min(chunk.length, IMAGE_HEAD_BYTES - headBytes);
      }
      return true;
    },
  });
  cluster.downloads.delete(job.upid);
  if (!running()) return;
  if (!outcome.ok) return end(`download failed: ${outcome.failure}`);
  const sums = digests.digests();
  if (algorithm && expected !== undefined) {
    if (sums[algorithm] !== expected.toLowerCase()) {
      log('calculating checksum...');
      return end(`checksum mismatch: got '${sums[algorithm]}' != expect '${expected}'`);
    }
    log('calculating checksum...OK, checksum verified');
  }
  const bytes = Buffer.concat(head);
  try {
    assertValid(job.content, tmp, job.filename, bytes, outcome.length, log);
  } catch (e) {
    return end(`failed to verify file: ${(e as Error).message}`);
  }
  onSuccess(() => {
    putFile(cluster, { storage: job.storage, ...(fileNode !== undefined ? { node: fileNode } : {}), content: job.content, name: job.filename, size: outcome.length, ctime: Math.floor(Date.now() / 1000), head: bytes, digests: sums });
    log(`download of '${url}' to '${dest}' finished`);
  });
  end();
}

/**
 * GET /nodes/{node}/query-url-metadata: a HEAD request; anything but 200 (LWP's own 500 when the
 * server cannot be reached) is refused; the file name from Content-Disposition or the URL's path.
 */
export async function urlMetadata(cluster: SimCluster, node: string, p: Record<string, string>): Promise<object> {
  cluster.checkNode(node);
  const url = p.url as string;
  const answer = await lwpHead(url, {
    verifyCertificates: p['verify-certificates'] === undefined || bool(p['verify-certificates']),
    timeoutMs: cluster.settings.urlTimeoutMs ?? LWP_TIMEOUT_MS,
  });
  if (answer.status !== 200) throw fail(`invalid server response: '${answer.statusLine}'`);
  const size = Number(answer.headers['content-length'] ?? 0);
  const disposition = answer.headers['content-disposition'] ?? '';
  const type = answer.headers['content-type']?.replace(/;.*$/, '');
  const filename = /filename="([^"]*)"/.exec(disposition)?.[1] ?? /filename=([^;]*)/.exec(disposition)?.[1] ?? /^[^?]+\/([^?/]*)(?:\?.*)?$/.exec(url)?.[1];
  return { ...(filename ? { filename } : {}), ...(size ? { size } : {}), ...(type ? { mimetype: type } : {}) };
}
