/**
 * The path parameters of the Proxmox VE API (node, VMID, storage), checked before a request is
 * built: a bad one is a TypeError here, never a request Proxmox answers with its own words.
 */

export function assertNode(node: string): void {
  if (!/^[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?$/.test(node)) throw new TypeError('invalid node name');
}

export function assertVmid(vmid: number): void {
  if (!Number.isInteger(vmid) || vmid < 100 || vmid > 999_999_999) throw new TypeError('invalid VMID');
}

/** pve-storage's `pve-storage-id` format. */
export function assertStorage(storage: string): void {
  if (!/^[a-z][a-z0-9\-_.]*[a-z0-9]$/i.test(storage)) throw new TypeError('invalid storage id');
}

/** Path parameters of one guest, both checked. */
export function guestParams(node: string, vmid: number): { node: string; vmid: number } {
  assertNode(node);
  assertVmid(vmid);
  return { node, vmid };
}

/** Path parameters of a volume (`storage:name`) on a node, all checked. */
export function volumeParams(node: string, volid: string): { node: string; storage: string; volume: string } {
  assertNode(node);
  const storage = volid.slice(0, volid.indexOf(':'));
  assertStorage(storage);
  return { node, storage, volume: volid };
}
