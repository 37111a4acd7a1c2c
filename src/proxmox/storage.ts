/**
 * Storage: the storages a node can use and what they hold (disk images, snippets). Backup
 * archives, also storage content, are read through backups.ts.
 */
import type { CallOptions, Params, ProxmoxHttp } from './http';
import { assertNode, assertStorage, assertVmid, volumeParams } from './paths';

/** An entry of GET /nodes/{node}/storage. */
export interface NodeStorage {
  storage: string;
  /** Content types, comma separated: `images,rootdir`, `snippets,iso`, … */
  content?: string;
  type?: string;
  /** 1 for a storage every node reaches alike (NFS, CephFS, …, or a directory marked shared). */
  shared?: number;
  /** 0 where storage.cfg does not configure the storage for this node (or disables it). */
  enabled?: number;
  /** 0 while the node cannot reach it (e.g. an NFS server away). */
  active?: number;
  [key: string]: unknown;
}

/** An entry of GET /nodes/{node}/storage/{storage}/content. */
export interface StorageVolume {
  /** e.g. local-lvm:vm-101-disk-0 */
  volid: string;
  vmid?: number;
  size?: number;
  format?: string;
  content?: string;
  ctime?: number;
  [key: string]: unknown;
}

/** GET /nodes/{node}/storage/{storage}/content?content=…: the volumes of one content type on a storage, as that node sees them. */
export async function readStorageContent<T>(http: ProxmoxHttp, node: string, storage: string, query: Params & { content: string }, call?: CallOptions): Promise<T[]> {
  assertNode(node);
  assertStorage(storage);
  const data = await http.request<T[]>('GET', '/nodes/{node}/storage/{storage}/content', { node, storage }, query, call);
  return Array.isArray(data) ? data : [];
}

/** The content types a file downloaded from a URL may be (pve-storage's download_url takes vztmpl too; we never ask for it). */
export type DownloadContent = 'import' | 'iso';

/** The checksum algorithms download-url accepts that we use. */
export type ChecksumAlgorithm = 'sha256' | 'sha512';

export interface DownloadUrlOptions {
  content: DownloadContent;
  filename: string;
  url: string;
  checksum: string;
  checksumAlgorithm: ChecksumAlgorithm;
}

export class StorageApi {
  constructor(private readonly http: ProxmoxHttp) {}

  /** GET /nodes/{node}/storage: the storages a node can use, with their content types. */
  async list(node: string, call?: CallOptions): Promise<NodeStorage[]> {
    assertNode(node);
    const data = await this.http.request<NodeStorage[]>('GET', '/nodes/{node}/storage', { node }, {}, call);
    return Array.isArray(data) ? data : [];
  }

  /** GET …/content?content=images[&vmid=N]: disk images on a storage. */
  async images(node: string, storage: string, vmid?: number, call?: CallOptions): Promise<StorageVolume[]> {
    if (vmid !== undefined) assertVmid(vmid);
    return readStorageContent<StorageVolume>(this.http, node, storage, { content: 'images', vmid }, call);
  }

  /** GET …/content?content=import|iso: downloaded files on a storage, as that node sees them. */
  async files(node: string, storage: string, content: DownloadContent, call?: CallOptions): Promise<StorageVolume[]> {
    return readStorageContent<StorageVolume>(this.http, node, storage, { content }, call);
  }

  /** POST …/download-url → `download` UPID (id = file name): Proxmox fetches the URL, checks the checksum and the file, then names it. */
  async downloadUrl(node: string, storage: string, o: DownloadUrlOptions, call?: CallOptions): Promise<string> {
    assertNode(node);
    assertStorage(storage);
    return this.http.task(
      'POST',
      '/nodes/{node}/storage/{storage}/download-url',
      { node, storage },
      { content: o.content, filename: o.filename, url: o.url, checksum: o.checksum, 'checksum-algorithm': o.checksumAlgorithm },
      call,
    );
  }

  /** DELETE …/content/{volume} → imgdel UPID. */
  async deleteFile(node: string, volid: string, call?: CallOptions): Promise<string> {
    return this.http.task('DELETE', '/nodes/{node}/storage/{storage}/content/{volume}', volumeParams(node, volid), {}, call);
  }

  /** GET …/content?content=snippets: the snippet files that node sees (it answers itself). */
  async snippets(node: string, storage: string, call?: CallOptions): Promise<StorageVolume[]> {
    return readStorageContent<StorageVolume>(this.http, node, storage, { content: 'snippets' }, call);
  }
}
