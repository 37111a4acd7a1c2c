import { appendEvents } from '../db/events';
import type { ProxmoxClient } from '../proxmox';
import type { ActivityDeps } from './deps';

/**
 * Our available snapshots of a server that its guest no longer has (a rebuild destroyed the disk
 * they were of, an in-place restore or someone in the Proxmox UI removed them) are deleted: they
 * are no longer listed or counted against the plan's limit, and their names are free again.
 * `onGuest`: the names the guest has (none when its guest was destroyed). Answers how many went.
 * Converges on retry: only rows still `available` change.
 */
export async function forgetSnapshotsNotOn(deps: ActivityDeps, instanceId: string, onGuest: readonly string[]): Promise<number> {
  return deps.db.$transaction(async (tx) => {
    const gone = await tx.snapshot.findMany({ where: { instanceId, status: 'available', name: { notIn: [...onGuest] } } });
    if (gone.length === 0) return 0;
    await tx.snapshot.updateMany({ where: { id: { in: gone.map((s) => s.id) }, status: 'available' }, data: { status: 'deleted', liveKey: null } });
    const instance = await tx.instance.findUniqueOrThrow({ where: { id: instanceId }, select: { tenantId: true, hostname: true, status: true } });
    await appendEvents(
      tx,
      { tenantId: instance.tenantId, instanceId },
      gone.map((s) => ({ type: 'snapshot.deleted' as const, data: { status: instance.status, hostname: instance.hostname, snapshot: s.name } })),
    );
    return gone.length;
  });
}

/** The snapshot list of a guest of ours followed: one read of its snapshots, then forgetSnapshotsNotOn. */
export async function followSnapshotsOf(deps: ActivityDeps, client: ProxmoxClient, instance: { id: string; node: string; vmid: number }): Promise<number> {
  const names = (await client.snapshots.list(instance.node, instance.vmid)).map((s) => s.name);
  return forgetSnapshotsNotOn(deps, instance.id, names);
}

/**
 * A reconcile pass over the snapshots: each of the connection's running or stopped servers that
 * has available snapshots has its guest's list read. A guest that cannot be read now is left for
 * the next pass. Answers how many snapshots went.
 */
export async function reconcileSnapshots(deps: ActivityDeps, client: ProxmoxClient, connectionId: string, instanceId?: string): Promise<number> {
  const instances = await deps.db.instance.findMany({
    where: { connectionId, status: { in: ['running', 'stopped'] }, activeTask: null, node: { not: null }, vmid: { not: null }, snapshots: { some: { status: 'available' } }, ...(instanceId ? { id: instanceId } : {}) },
    select: { id: true, node: true, vmid: true },
  });
  let gone = 0;
  for (const instance of instances) {
    try {
      gone += await followSnapshotsOf(deps, client, { id: instance.id, node: instance.node as string, vmid: instance.vmid as number });
    } catch (error) {
      deps.logger.warn({ err: error, instanceId: instance.id }, "could not read a server's snapshots this time");
    }
  }
  return gone;
}
