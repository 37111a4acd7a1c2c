/**
 * How a guest proves it is ours. The guest's name is the customer's hostname, which anyone can
 * choose, so ownership rests on a marker a customer cannot set: a line `pvecp:<instance id>` in
 * the guest's description, written by the clone call itself and kept by later config writes
 * (a config PUT leaves keys it does not name). Guests created before the marker existed were
 * named `pvecp-<instance id>`; that name still counts.
 */

/** The tag every guest we create carries (configure stage); cheap to read from /cluster/resources. */
export const OWNERSHIP_TAG = 'pvecp';

const MARKER_LINE = /^pvecp:(inst_[0-9a-z]+)$/m;
const LEGACY_NAME = /^pvecp-inst-([0-9a-z]+)$/;

export function ownershipMarker(instanceId: string): string {
  return `pvecp:${instanceId}`;
}

/** The description the clone writes: the marker on a line of its own, and a note for people reading the Proxmox UI. */
export function guestDescription(instanceId: string): string {
  return `${ownershipMarker(instanceId)}\nManaged by pvecp; changes made here may be overwritten.`;
}

/** The name guests carried before they were named after the hostname. */
export function legacyGuestName(instanceId: string): string {
  return `pvecp-${instanceId.replace(/_/g, '-')}`;
}

/** The instance a guest belongs to, from its description marker or its legacy name; null when it carries neither. */
export function ownerOf(guest: { name?: string; description?: string }): string | null {
  const marked = guest.description ? MARKER_LINE.exec(guest.description) : null;
  if (marked) return marked[1] as string;
  const legacy = guest.name ? LEGACY_NAME.exec(guest.name) : null;
  return legacy ? `inst_${legacy[1]}` : null;
}

/** Hostnames a customer may not choose: they would read as a legacy guest name, i.e. as someone else's ownership. */
export function isReservedGuestName(name: string): boolean {
  return LEGACY_NAME.test(name.toLowerCase());
}

/** True when a guest from /cluster/resources may be ours and its description is worth reading. */
export function mayBeOurs(guest: { name?: string; tags?: string }): boolean {
  return Boolean(guest.tags?.split(/[;, ]/).includes(OWNERSHIP_TAG)) || Boolean(guest.name && LEGACY_NAME.test(guest.name));
}
