/**
 * Storage: the storages a node can use and what they hold (disk images, snippets). Backup
 * archives, also storage content, are read through backups.ts.
 */
import type { CallOptions, Params, ProxmoxHttp } from './http';
import { assertNode, assertStorage, assertVmid } from './paths';

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

  /** GET …/content?content=snippets: the snippet files that node sees (it answers itself). */
  async snippets(node: string, storage: string, call?: CallOptions): Promise<StorageVolume[]> {
    return readStorageContent<StorageVolume>(this.http, node, storage, { content: 'snippets' }, call);
  }
}
