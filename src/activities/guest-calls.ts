import type { ProxmoxClient } from '../proxmox';
import { diskSizeGiB, unappliedConfig } from './guest-config';
import type { ProviderCall } from './provider-call';

/** One provider call with its own test of provider truth, ready for runProviderCall. */
export type GuestCall = Pick<ProviderCall, 'kind' | 'isDone' | 'repeatable' | 'issue' | 'startsTask' | 'acceptsTaskError'>;

/** Power on: a running guest, or a Proxmox task that ends "already running", counts as done. */
export function powerOn(client: ProxmoxClient, node: string, vmid: number): GuestCall {
  return {
    kind: 'start',
    isDone: async () => (await client.guests.status(node, vmid)).status === 'running',
    issue: () => client.guests.start(node, vmid),
    startsTask: { type: 'qmstart', id: vmid },
    acceptsTaskError: (exit) => /already running/i.test(exit),
  };
}

/** Forced stop: a stopped guest counts as done. */
export function powerOff(client: ProxmoxClient, node: string, vmid: number): GuestCall {
  return {
    kind: 'stop',
    isDone: async () => (await client.guests.status(node, vmid)).status === 'stopped',
    issue: () => client.guests.stop(node, vmid),
    startsTask: { type: 'qmstop', id: vmid },
  };
}

/**
 * A config write that is skipped when the guest's config already says it; once the config was
 * read, only the values it does not say yet are sent.
 */
export function writeConfig(client: ProxmoxClient, node: string, vmid: number, kind: string, desired: Record<string, string | number>): GuestCall {
  let unapplied = desired;
  return {
    kind,
    isDone: async () => {
      unapplied = unappliedConfig(await client.guestConfig.get(node, vmid), desired);
      return Object.keys(unapplied).length === 0;
    },
    repeatable: true,
    issue: () => client.guestConfig.set(node, vmid, unapplied),
    startsTask: { type: 'qmconfig', id: vmid },
  };
}

/** Grows the root disk to an absolute size; a disk already that large needs nothing (disks only grow). */
export function growDisk(client: ProxmoxClient, node: string, vmid: number, sizeGiB: number): GuestCall {
  return {
    kind: 'resize',
    isDone: async () => (diskSizeGiB(await client.guestConfig.get(node, vmid), 'scsi0') ?? 0) >= sizeGiB,
    issue: () => client.guestConfig.resizeDisk(node, vmid, 'scsi0', sizeGiB),
    startsTask: { type: 'resize', id: vmid },
  };
}
