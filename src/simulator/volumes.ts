/**
 * One volume of a storage's content as GET and DELETE …/storage/{storage}/content/{volume} see it
 * (pve-storage API2/Storage/Content.pm): a backup archive or a file (ISO image, disk image to
 * import, container template). A delete is an `imgdel` task; a protected archive refuses it.
 */
import { fail, type CallContext } from './call';
import type { SimCluster } from './cluster';
import { backupVolumeInfo } from './backups';
import { untrustedImageSize, type ImageFormat } from './disk-images';
import { contentFilePath, contentVolumeId, fileFormat, findArchive, findFile, removeFile } from './storage';

/** GET …/content/{volume}: an archive's attributes, or a file's path, size (an image's virtual size), used space and format. */
export function volumeInfo(cluster: SimCluster, node: string, storage: string, volume: string): object {
  cluster.checkNode(node);
  const file = findFile(cluster, node, contentVolumeId(storage, volume));
  if (!file) return backupVolumeInfo(cluster, node, storage, volume);
  const spec = cluster.storages.get(file.storage);
  const path = spec ? contentFilePath(spec, file.content, file.name) : file.name;
  // volume_size_info: qemu-img with the format the volume name gives (ISO images and OVAs: raw)
  const format = file.content === 'import' && fileFormat(file) !== 'ova' ? fileFormat(file) : 'raw';
  const size = format === 'raw' ? file.size : untrustedImageSize(path, file.head, file.size, format as ImageFormat, () => undefined);
  return { path, size, used: file.size, format };
}

/** DELETE …/content/{volume}: an `imgdel` task (id `<owner vmid>@<storage>` for a guest's archive, else the storage) that removes it. */
export function deleteVolume(cluster: SimCluster, ctx: CallContext, node: string, storage: string, volume: string): string {
  cluster.checkNode(node);
  const volid = contentVolumeId(storage, volume);
  const file = findFile(cluster, node, volid);
  const archive = file ? undefined : findArchive(cluster, node, volid);
  if (!file && !archive) throw fail(`volume '${volume}' does not exist`);
  if (archive?.protected) throw fail(`unable to delete protected backup '${archive.volid}'`);
  const fault = ctx.fault;
  ctx.faultHandled = true;
  let upid = '';
  upid = cluster.tasks.create({
    node,
    type: 'imgdel',
    id: archive ? `${archive.vmid}@${storage}` : storage,
    user: ctx.user,
    hang: fault?.mode === 'hang',
    failWith: fault?.mode === 'task_fail' ? (fault.message ?? 'simulated task failure') : undefined,
    run: () => {
      if (file) removeFile(cluster, file);
      const at = archive ? cluster.backupVolumes.indexOf(archive) : -1;
      if (at >= 0) cluster.backupVolumes.splice(at, 1);
      cluster.taskLog(upid).push(`Removed volume '${volid}'`);
    },
  }).upid;
  return upid;
}
