import { ownerOf } from '../domain/ownership';
import { isNotFound, type ClusterVmResource, type ProxmoxClient } from '../proxmox';

/** A guest found at a VMID, with the instance it belongs to (null: not created by us). */
export interface GuestAtVmid extends ClusterVmResource {
  owner: string | null;
}

/** The instance a listed guest belongs to: its description's marker first (one config read), else its legacy name. */
export async function ownerOfGuest(client: ProxmoxClient, guest: ClusterVmResource): Promise<string | null> {
  const config = await client.guestConfig.get(guest.node, guest.vmid);
  return ownerOf({ name: guest.name, description: typeof config.description === 'string' ? config.description : undefined });
}

/**
 * The guest at `vmid` and its owner, read from its config description (the marker a customer
 * cannot set); undefined when the VMID holds no guest. Both reads see one guest: a guest that
 * moves or vanishes between them is read again, and a read that keeps disagreeing is retried by
 * the activity.
 */
export async function guestAt(client: ProxmoxClient, vmid: number): Promise<GuestAtVmid | undefined> {
  for (let look = 0; look < 3; look++) {
    const guest = (await client.guests.list()).find((r) => r.vmid === vmid);
    if (!guest) return undefined;
    try {
      return { ...guest, owner: await ownerOfGuest(client, guest) };
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
  throw new Error(`guest ${vmid} keeps moving between reads of the cluster and of its config`);
}

/** Our guest at `vmid`, or undefined when the VMID is free or holds someone else's guest. */
export async function ourGuestAt(client: ProxmoxClient, vmid: number, instanceId: string): Promise<GuestAtVmid | undefined> {
  const guest = await guestAt(client, vmid);
  return guest?.owner === instanceId ? guest : undefined;
}
