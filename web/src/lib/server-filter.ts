import type { Instance, InstanceStatus } from '../../../clients/typescript/index';

export interface ServerFilter {
  status?: InstanceStatus | '';
  locationId?: string;
  /** Matched against the host name and the addresses, ignoring case. */
  search?: string;
}

export function filterServers(servers: readonly Instance[], filter: ServerFilter): Instance[] {
  const needle = filter.search?.trim().toLowerCase() ?? '';
  return servers.filter(
    (server) =>
      (!filter.status || server.status === filter.status) &&
      (!filter.locationId || server.location.id === filter.locationId) &&
      (!needle || [server.hostname, server.ipv4 ?? '', server.ipv6 ?? ''].some((text) => text.toLowerCase().includes(needle))),
  );
}

/** What the event feed says changed: the newest status of each server, from events newer than `seenId`. */
export function statusUpdates(events: readonly { id: string; instanceId: string; data: { status: string } }[], seenId: string | undefined): Map<string, InstanceStatus> {
  const updates = new Map<string, InstanceStatus>();
  // The feed is newest first: the first event of a server is its latest.
  for (const event of events) {
    if (event.id === seenId) break;
    if (!updates.has(event.instanceId)) updates.set(event.instanceId, event.data.status as InstanceStatus);
  }
  return updates;
}
