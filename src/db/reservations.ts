import { AppError } from '../domain/errors';
import { newId } from '../domain/ids';
import { addressAt, lastUsableOrdinal, ordinalOf, parseCidr } from '../domain/ip';
import type { Sizing } from '../domain/sizing';
import type { Tx } from './client';

/**
 * Reservations are taken inside the caller's transaction under row locks, always in the same
 * order (tenant → nodes → connection → pools), so concurrent creates serialize instead of
 * deadlocking, and the unique constraints make a double allocation fail rather than happen.
 * The locks are FOR NO KEY UPDATE: they exclude each other, but not the FOR KEY SHARE lock a
 * foreign-key check takes, so another create's earlier insert (its instance row references the
 * connection) cannot hold up this one's lock and close a cycle.
 */

export type { Sizing } from '../domain/sizing';

export interface TenantQuota {
  id: string;
  quotaInstances: number;
  quotaVcpus: number;
  quotaMemoryMiB: number;
  quotaDiskGiB: number;
}

/** Charges the tenant's quota for `sizing` (plus one instance when `newInstance`), or throws QUOTA_EXCEEDED. */
export async function assertQuota(tx: Tx, tenant: TenantQuota, sizing: Sizing, newInstance: boolean, excludeInstanceId = ''): Promise<void> {
  await tx.$queryRaw`SELECT id FROM tenants WHERE id = ${tenant.id} FOR NO KEY UPDATE`;
  const [usage] = await tx.$queryRaw<{ instances: bigint; vcpus: bigint | null; memory: bigint | null; disk: bigint | null }[]>`
    SELECT COUNT(*) AS instances, SUM("chargedVcpus") AS vcpus, SUM("chargedMemoryMiB") AS memory, SUM("chargedDiskGiB") AS disk
    FROM instances WHERE "tenantId" = ${tenant.id} AND "quotaReleasedAt" IS NULL AND id <> ${excludeInstanceId}`;
  const used = {
    instances: Number(usage?.instances ?? 0),
    vcpus: Number(usage?.vcpus ?? 0),
    memoryMiB: Number(usage?.memory ?? 0),
    diskGiB: Number(usage?.disk ?? 0),
  };
  const checks: [string, number, number, number][] = [
    ['instances', used.instances, newInstance ? 1 : 0, tenant.quotaInstances],
    ['vcpus', used.vcpus, sizing.vcpus, tenant.quotaVcpus],
    ['memoryMiB', used.memoryMiB, sizing.memoryMiB, tenant.quotaMemoryMiB],
    ['diskGiB', used.diskGiB, sizing.diskGiB, tenant.quotaDiskGiB],
  ];
  for (const [resource, inUse, requested, limit] of checks) {
    if (inUse + requested > limit) {
      throw new AppError('QUOTA_EXCEEDED', `This would exceed your ${resource} quota.`, { resource, limit, used: inUse, requested });
    }
  }
}

export interface NodeChoice {
  nodeId: string;
  node: string;
}

/** Free capacity per enabled node of a cluster, with the node rows locked (a migrating instance counts on both nodes); a draining node takes no new placements. */
export async function lockNodeCapacity(tx: Tx, connectionId: string) {
  await tx.$queryRaw`SELECT id FROM nodes WHERE "connectionId" = ${connectionId} ORDER BY id FOR NO KEY UPDATE`;
  const rows = await tx.$queryRaw<{ id: string; name: string; draining: boolean; vcpus: number; memory: number; disk: number }[]>`
    SELECT n.id, n.name, n.draining,
      n.vcpus - COALESCE(SUM(a.vcpus), 0)::int AS vcpus,
      n."memoryMiB" - COALESCE(SUM(a."memoryMiB"), 0)::int AS memory,
      n."diskGiB" - COALESCE(SUM(a."diskGiB"), 0)::int AS disk
    FROM nodes n LEFT JOIN node_allocations a ON (a."nodeId" = n.id OR a."targetNodeId" = n.id) AND a.state <> 'released'
    WHERE n."connectionId" = ${connectionId} AND n.enabled
    GROUP BY n.id ORDER BY n.name`;
  return rows.map((row) => ({ nodeId: row.id, node: row.name, draining: row.draining, free: { vcpus: row.vcpus, memoryMiB: row.memory, diskGiB: row.disk } }));
}

export function fits(free: Sizing, need: Sizing): boolean {
  return free.vcpus >= need.vcpus && free.memoryMiB >= need.memoryMiB && free.diskGiB >= need.diskGiB;
}

/**
 * Picks the node with the most free memory among those that can hold the instance and have
 * the image's template; reserves the capacity there.
 */
export async function scheduleAndReserve(
  tx: Tx,
  args: { connectionId: string; candidateNodes: string[]; sizing: Sizing; instanceId: string },
): Promise<NodeChoice> {
  const nodes = await lockNodeCapacity(tx, args.connectionId);
  const candidates = nodes.filter((n) => !n.draining && args.candidateNodes.includes(n.node));
  const roomy = candidates.filter((n) => fits(n.free, args.sizing)).sort((a, b) => b.free.memoryMiB - a.free.memoryMiB);
  const chosen = roomy[0];
  if (!chosen) {
    throw new AppError('CAPACITY_UNAVAILABLE', 'There is no room for this plan in this location right now.', {
      resource: candidates.length ? 'node_capacity' : 'template',
    });
  }
  await tx.nodeAllocation.create({
    data: { id: newId('alloc'), nodeId: chosen.nodeId, instanceId: args.instanceId, ...args.sizing, state: 'reserved' },
  });
  return { nodeId: chosen.nodeId, node: chosen.node };
}

/** The lowest free VMID of the cluster's range, held for the instance. */
export async function reserveVmid(tx: Tx, connection: { id: string; vmidStart: number; vmidEnd: number }, instanceId: string): Promise<number> {
  await tx.$queryRaw`SELECT id FROM proxmox_connections WHERE id = ${connection.id} FOR NO KEY UPDATE`;
  const free = await tx.vmidReservation.findFirst({ where: { connectionId: connection.id, state: 'free' }, orderBy: { vmid: 'asc' } });
  if (free) {
    await tx.vmidReservation.update({ where: { id: free.id }, data: { state: 'reserved', instanceId } });
    return free.vmid;
  }
  const top = await tx.vmidReservation.aggregate({ where: { connectionId: connection.id }, _max: { vmid: true } });
  const vmid = Math.max((top._max.vmid ?? connection.vmidStart - 1) + 1, connection.vmidStart);
  if (vmid > connection.vmidEnd) {
    throw new AppError('CAPACITY_UNAVAILABLE', 'There is no room for new servers in this location right now.', { resource: 'vmid' });
  }
  await tx.vmidReservation.create({ data: { id: newId('vmid'), connectionId: connection.id, vmid, instanceId, state: 'reserved' } });
  return vmid;
}

export interface PoolRef {
  id: string;
  cidr: string;
  gateway: string;
}

/** The lowest free address of the pool (never the network, broadcast or gateway), or null when the pool is full. */
export async function reserveAddress(tx: Tx, pool: PoolRef, instanceId: string): Promise<string | null> {
  await tx.$queryRaw`SELECT id FROM ip_pools WHERE id = ${pool.id} FOR NO KEY UPDATE`;
  const free = await tx.ipAddress.findFirst({ where: { poolId: pool.id, state: 'free' }, orderBy: { ordinal: 'asc' } });
  if (free) {
    await tx.ipAddress.update({ where: { id: free.id }, data: { state: 'reserved', instanceId } });
    return free.address;
  }
  const cidr = parseCidr(pool.cidr);
  const gateway = ordinalOf(cidr, pool.gateway);
  const top = await tx.ipAddress.aggregate({ where: { poolId: pool.id }, _max: { ordinal: true } });
  let ordinal = (top._max.ordinal ?? 0n) + 1n;
  if (ordinal === gateway) ordinal += 1n;
  if (ordinal > lastUsableOrdinal(cidr)) return null;
  const address = addressAt(cidr, ordinal);
  await tx.ipAddress.create({
    data: { id: newId('ip'), poolId: pool.id, address, ordinal, family: cidr.family, instanceId, state: 'reserved' },
  });
  return address;
}

/**
 * Gives back everything an instance holds, each step a no-op when already done, so a retried
 * rollback or delete never releases twice. `keepVmid`: a guest we did not create sits on the
 * VMID, so it is quarantined instead (listed for admins, out of circulation) rather than freed.
 */
export async function releaseReservations(tx: Tx, instanceId: string, options: { keepVmid?: boolean } = {}): Promise<void> {
  await tx.vmidReservation.updateMany({
    where: { instanceId },
    data: options.keepVmid ? { state: 'quarantined', instanceId: null, quarantinedFor: instanceId, quarantinedAt: new Date() } : { state: 'free', instanceId: null },
  });
  await tx.ipAddress.updateMany({ where: { instanceId }, data: { state: 'free', instanceId: null } });
  await tx.nodeAllocation.updateMany({ where: { instanceId, state: { not: 'released' } }, data: { state: 'released', targetNodeId: null } });
  await tx.instance.updateMany({ where: { id: instanceId, quotaReleasedAt: null }, data: { quotaReleasedAt: new Date() } });
}

/**
 * Everything a deleted instance held goes back (see releaseReservations), its volumes are marked
 * deleted and its credential erased; the row stays readable. A no-op the second time. The status
 * itself moves with `deleted` of instance-state, in the same transaction.
 */
export async function retireHoldings(tx: Tx, instanceId: string, options: { keepVmid?: boolean } = {}): Promise<void> {
  await releaseReservations(tx, instanceId, options);
  await tx.volume.updateMany({ where: { instanceId, status: { not: 'deleted' } }, data: { status: 'deleted' } });
  await tx.credential.deleteMany({ where: { instanceId } });
}

/** How many VMIDs one provision may set aside for strangers before it gives up. */
export const MAX_QUARANTINED_PER_INSTANCE = 5;

export interface Stranger {
  node: string;
  name: string | null;
}

/**
 * The instance's VMID holds a guest we did not create: the VMID leaves circulation (quarantined,
 * with the stranger's node and name for admins) and the instance takes the next free VMID of the
 * range. Answers the new VMID, or null once this instance has set aside its maximum (it is then
 * left without a VMID, and its provision fails).
 * Converges on retry: a VMID this instance no longer holds is not quarantined again.
 */
export async function quarantineVmid(tx: Tx, instanceId: string, vmid: number, stranger: Stranger): Promise<number | null> {
  const instance = await tx.instance.findUniqueOrThrow({ where: { id: instanceId }, include: { connection: true } });
  if (instance.vmid !== vmid) return instance.vmid;
  await tx.vmidReservation.updateMany({
    where: { connectionId: instance.connectionId, vmid, instanceId },
    data: { state: 'quarantined', instanceId: null, strangerNode: stranger.node, strangerName: stranger.name, quarantinedFor: instanceId, quarantinedAt: new Date() },
  });
  const setAside = await tx.vmidReservation.count({ where: { quarantinedFor: instanceId } });
  const next = setAside < MAX_QUARANTINED_PER_INSTANCE ? await reserveVmid(tx, instance.connection, instanceId) : null;
  await tx.instance.update({ where: { id: instanceId }, data: { vmid: next } });
  return next;
}
