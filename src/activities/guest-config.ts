/** Reading a guest's Proxmox config: does it already say what we want? */

export type GuestConfig = Record<string, string | number>;

/** The desired values the current config does not say yet. */
export function unappliedConfig<T extends string | number>(current: GuestConfig, desired: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(desired).filter(([key, value]) => String(current[key] ?? '') !== String(value)));
}

/** Size in GiB of a disk line such as `local-lvm:vm-101-disk-0,size=32G`. */
export function diskSizeGiB(config: GuestConfig, disk: string): number | null {
  const line = config[disk];
  const match = typeof line === 'string' ? /(?:^|,)size=(\d+(?:\.\d+)?)([KMGT]?)/.exec(line) : null;
  if (!match?.[1]) return null;
  const factor: Record<string, number> = { K: 1 / 1024 ** 2, M: 1 / 1024, G: 1, T: 1024, '': 1 / 1024 ** 3 };
  return Number(match[1]) * (factor[match[2] ?? ''] ?? 1);
}

/** `virtio=BC:24:11:00:00:01,bridge=vmbr0,tag=20,firewall=1` → its parts. */
export function parseNetLine(line: string | number | undefined): { model?: string; mac?: string; bridge?: string; tag?: string; firewall?: string } {
  if (typeof line !== 'string') return {};
  const parts = Object.fromEntries(line.split(',').map((part) => part.split('=') as [string, string?]));
  const model = ['virtio', 'e1000', 'rtl8139', 'vmxnet3'].find((m) => m in parts);
  return { model, mac: model ? parts[model] : undefined, bridge: parts.bridge, tag: parts.tag, firewall: parts.firewall };
}
