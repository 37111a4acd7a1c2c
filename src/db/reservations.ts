import { AppError } from '../domain/errors';
import { newId } from '../security/ids';
import type { Sizing } from '../domain/sizing';
import { Prisma } from '../generated/prisma/client';
import { runSql, type Queryable, type Tx } from './client';

/**
 * Reservations are taken inside the caller's transaction: quota, node capacity and, from their
 * ranges (`ranges.ts`), a VMID and addresses. The locks that make creates wait (the user's, the
 * project's, the tenant's, one node's) are FOR NO KEY UPDATE, taken in the same order everywhere
 * (user → project → tenant → nodes) and as late as possible: they exclude each other, but not the FOR KEY SHARE lock a
 * foreign-key check takes. What a finished provision keeps, and what a rollback or delete gives
 * back, is settled here too.
 */

export type { Sizing } from '../domain/sizing';

export interface TenantQuota {
  id: string;
  quotaInstances: number;
  quotaVcpus: number;
  quotaMemoryMiB: number;
  quotaDiskGiB: number;
}

/** A project's own quota inside its tenant's: all four limits, or none (null: only the tenant's). */
export interface ProjectQuota {
  id: string;
  quotaInstances: number | null;
  quotaVcpus: number | null;
  quotaMemoryMiB: number | null;
  quotaDiskGiB: number | null;
}

/** Charges the tenant's quota for `sizing` (plus one instance when `newInstance`), or throws QUOTA_EXCEEDED. */
export function assertQuota(tx: Queryable, tenant: TenantQuota, sizing: Sizing, newInstance: boolean, excludeInstanceId = ''): Promise<void> {
  return chargeWithin(tx, { table: 'tenants', column: 'tenantId', code: 'QUOTA_EXCEEDED', whose: 'your' }, tenant, sizing, newInstance, excludeInstanceId);
}

/**
 * Charges the project's own quota like the tenant's, or throws PROJECT_QUOTA_EXCEEDED. Its row is
 * locked whether it has a quota or not: a change of its restrictions or quota waits for the create.
 */
export async function assertProjectQuota(tx: Queryable, project: ProjectQuota, sizing: Sizing, newInstance: boolean, excludeInstanceId = ''): Promise<void> {
  const { quotaInstances, quotaVcpus, quotaMemoryMiB, quotaDiskGiB } = project;
  if (quotaInstances === null || quotaVcpus === null || quotaMemoryMiB === null || quotaDiskGiB === null) return;
  const limits = { id: project.id, quotaInstances, quotaVcpus, quotaMemoryMiB, quotaDiskGiB };
  await chargeWithin(tx, { table: 'projects', column: 'projectId', code: 'PROJECT_QUOTA_EXCEEDED', whose: "this project's" }, limits, sizing, newInstance, excludeInstanceId);
}

interface QuotaHolder {
  table: 'tenants' | 'projects';
  /** The instances' column naming the holder. */
  column: 'tenantId' | 'projectId';
  code: 'QUOTA_EXCEEDED' | 'PROJECT_QUOTA_EXCEEDED';
  whose: string;
}

/** The holder's row is locked (FOR NO KEY UPDATE), then what its servers hold is counted under the lock. */
async function chargeWithin(tx: Queryable, holder: QuotaHolder, limits: TenantQuota, sizing: Sizing, newInstance: boolean, excludeInstanceId: string): Promise<void> {
  await runSql(tx, Prisma.sql`SELECT id FROM ${Prisma.raw(holder.table)} WHERE id = ${limits.id} FOR NO KEY UPDATE`);
  const [usage] = await runSql<{ instances: bigint; vcpus: bigint | null; memory: bigint | null; disk: bigint | null }>(tx, Prisma.sql`
    SELECT COUNT(*) AS instances, SUM("chargedVcpus") AS vcpus, SUM("chargedMemoryMiB") AS memory, SUM("chargedDiskGiB") AS disk
    FROM instances WHERE ${Prisma.raw(`"${holder.column}"`)} = ${limits.id} AND "quotaReleasedAt" IS NULL AND id <> ${excludeInstanceId}`);
  const used = {
    instances: Number(usage?.instances ?? 0),
    vcpus: Number(usage?.vcpus ?? 0),
    memoryMiB: Number(usage?.memory ?? 0),
    diskGiB: Number(usage?.disk ?? 0),
  };
  const checks: [string, number, number, number][] = [
    ['instances', used.instances, newInstance ? 1 : 0, limits.quotaInstances],
    ['vcpus', used.vcpus, sizing.vcpus, limits.quotaVcpus],
    ['memoryMiB', used.memoryMiB, sizing.memoryMiB, limits.quotaMemoryMiB],
    ['diskGiB', used.diskGiB, sizing.diskGiB, limits.quotaDiskGiB],
  ];
  for (const [resource, inUse, requested, limit] of checks) {
    if (inUse + requested > limit) {
      throw new AppError(holder.code, `This would exceed ${holder.whose} ${resource} quota.`, { resource, limit, used: inUse, requested });
    }
  }
}

export interface NodeChoice {
  nodeId: string;
  node: string;
}

interface NodeCapacity extends NodeChoice {
  draining: boolean;
  free: Sizing;
}

/** Free capacity per enabled node of a cluster, as committed (a migrating instance counts on both nodes). */
async function readNodeCapacity(tx: Queryable, connectionId: string): Promise<NodeCapacity[]> {
  const rows = await runSql<{ id: string; name: string; draining: boolean; vcpus: number; memory: number; disk: number }>(tx, Prisma.sql`
    SELECT n.id, n.name, n.draining,
      n.vcpus - COALESCE(SUM(a.vcpus), 0)::int AS vcpus,
      n."memoryMiB" - COALESCE(SUM(a."memoryMiB"), 0)::int AS memory,
      n."diskGiB" - COALESCE(SUM(a."diskGiB"), 0)::int AS disk
    FROM nodes n LEFT JOIN node_allocations a ON (a."nodeId" = n.id OR a."targetNodeId" = n.id) AND a.state <> 'released'
    WHERE n."connectionId" = ${connectionId} AND n.enabled
    GROUP BY n.id ORDER BY n.name`);
  return rows.map((row) => ({ nodeId: row.id, node: row.name, draining: row.draining, free: { vcpus: row.vcpus, memoryMiB: row.memory, diskGiB: row.disk } }));
}

/** Free capacity per enabled node of a cluster with every node row locked, for moves that weigh several nodes at once (resize, migration); a draining node takes no new placements. */
export async function lockNodeCapacity(tx: Queryable, connectionId: string): Promise<NodeCapacity[]> {
  await runSql(tx, Prisma.sql`SELECT id FROM nodes WHERE "connectionId" = ${connectionId} ORDER BY id FOR NO KEY UPDATE`);
  return readNodeCapacity(tx, connectionId);
}

export function fits(free: Sizing, need: Sizing): boolean {
  return free.vcpus >= need.vcpus && free.memoryMiB >= need.memoryMiB && free.diskGiB >= need.diskGiB;
}

/** Where a new instance may go, best first, from a read without locks; `reserve` makes it binding. */
export interface Placement {
  /** The node the instance most likely lands on (the first candidate). */
  preferred: NodeChoice;
  /**
   * Takes the capacity on the first candidate that still holds it under that node's lock (only
   * that node's row is locked, and held until commit: call it last), or throws CAPACITY_UNAVAILABLE.
   */
  reserve(tx: Queryable, instanceId: string): Promise<NodeChoice>;
}

const noRoom = (resource: 'node_capacity' | 'template') =>
  new AppError('CAPACITY_UNAVAILABLE', 'There is no room for this plan in this location right now.', { resource });

/**
 * The nodes that can hold the instance and have the image's template, the one with the most free
 * memory first. The read takes no lock, so concurrent creates do not wait for each other here;
 * each re-checks its node under the node's lock when it reserves.
 */
export async function planPlacement(tx: Queryable, args: { connectionId: string; candidateNodes: string[]; sizing: Sizing }): Promise<Placement> {
  const candidates = (await readNodeCapacity(tx, args.connectionId)).filter((n) => !n.draining && args.candidateNodes.includes(n.node));
  const roomy = candidates.filter((n) => fits(n.free, args.sizing)).sort((a, b) => b.free.memoryMiB - a.free.memoryMiB);
  const [preferred] = roomy;
  if (!preferred) throw noRoom(candidates.length ? 'node_capacity' : 'template');
  return {
    preferred,
    async reserve(tx, instanceId) {
      for (const node of roomy) {
        if (await reserveOnNode(tx, node.nodeId, instanceId, args.sizing)) return node;
      }
      throw noRoom('node_capacity');
    },
  };
}

/**
 * Reserves `sizing` on one node if it still fits there. The node's row lock orders every
 * placement on it; the check and the insert run after the lock is granted, in a statement of
 * their own, so they see every placement committed before.
 */
async function reserveOnNode(tx: Queryable, nodeId: string, instanceId: string, sizing: Sizing): Promise<boolean> {
  await runSql(tx, Prisma.sql`SELECT id FROM nodes WHERE id = ${nodeId} FOR NO KEY UPDATE`);
  const inserted = await runSql(tx, Prisma.sql`
    INSERT INTO node_allocations (id, "nodeId", "instanceId", vcpus, "memoryMiB", "diskGiB", state, "updatedAt")
    SELECT ${newId('alloc')}, n.id, ${instanceId}, ${sizing.vcpus}, ${sizing.memoryMiB}, ${sizing.diskGiB}, 'reserved'::"AllocationState", ${new Date()}
    FROM nodes n
    CROSS JOIN LATERAL (
      SELECT COALESCE(SUM(a.vcpus), 0) AS vcpus, COALESCE(SUM(a."memoryMiB"), 0) AS memory, COALESCE(SUM(a."diskGiB"), 0) AS disk
      FROM node_allocations a WHERE (a."nodeId" = n.id OR a."targetNodeId" = n.id) AND a.state <> 'released'
    ) held
    WHERE n.id = ${nodeId} AND n.enabled AND NOT n.draining
      AND n.vcpus - held.vcpus >= ${sizing.vcpus} AND n."memoryMiB" - held.memory >= ${sizing.memoryMiB} AND n."diskGiB" - held.disk >= ${sizing.diskGiB}
    RETURNING id`);
  return inserted.length === 1;
}

/** How many held VMIDs a refused range change names. */
const HELD_VMIDS_SHOWN = 20;

/**
 * Moves a cluster's VMID range to `range`, with the connection's row locked by the caller. VMIDs
 * that leave the range must be free: their rows go (a take under way holds its row, so it is
 * waited for and then counted as held); otherwise VMID_RANGE_IN_USE names the held ones. New VMIDs
 * get their rows on demand, like any range that grows.
 */
export async function moveVmidRange(tx: Tx, connectionId: string, range: { start: number; end: number }): Promise<{ rowsRemoved: number }> {
  const outside = { connectionId, OR: [{ vmid: { lt: range.start } }, { vmid: { gt: range.end } }] };
  const removed = await tx.vmidReservation.deleteMany({ where: { ...outside, state: 'free' } });
  const heldOutside = { ...outside, state: { not: 'free' as const } };
  const held = await tx.vmidReservation.count({ where: heldOutside });
  if (held > 0) {
    const shown = await tx.vmidReservation.findMany({ where: heldOutside, orderBy: { vmid: 'asc' }, take: HELD_VMIDS_SHOWN, select: { vmid: true, state: true } });
    throw new AppError('VMID_RANGE_IN_USE', `${held} VMID(s) outside the new range are still held; a range can only leave out free VMIDs.`, { held, vmids: shown });
  }
  await tx.proxmoxConnection.update({ where: { id: connectionId }, data: { vmidStart: range.start, vmidEnd: range.end } });
  return { rowsRemoved: removed.count };
}

/**
 * A provision's reservations become the instance's for good (VMID and addresses assigned,
 * capacity allocated, volume ready), in one statement; the credential's reveal window, `ttlMs`,
 * starts now that the server is usable. Each update is conditional on the state it moves from,
 * so running it again changes nothing.
 */
export async function commitHoldings(tx: Queryable, instanceId: string, ttlMs: number): Promise<void> {
  const now = new Date();
  await runSql(tx, Prisma.sql`
    WITH vmid AS (UPDATE vmid_reservations SET state = 'assigned', "updatedAt" = ${now} WHERE "instanceId" = ${instanceId} AND state = 'reserved'),
    addresses AS (UPDATE ip_addresses SET state = 'assigned', "updatedAt" = ${now} WHERE "instanceId" = ${instanceId} AND state = 'reserved'),
    capacity AS (UPDATE node_allocations SET state = 'allocated', "updatedAt" = ${now} WHERE "instanceId" = ${instanceId} AND state = 'reserved'),
    volume AS (UPDATE volumes SET status = 'ready', "updatedAt" = ${now} WHERE "instanceId" = ${instanceId} AND status = 'pending')
    UPDATE credentials SET "expiresAt" = ${new Date(now.getTime() + ttlMs)} WHERE "instanceId" = ${instanceId} AND "revealedAt" IS NULL`);
}

/**
 * Gives back everything an instance holds, each step a no-op when already done, so a retried
 * rollback or delete never releases twice. A given-back VMID or address records when, and is not
 * handed out again before its cooldown. `keepVmid`: a guest we did not create sits on the VMID,
 * so it is quarantined instead (listed for admins, out of circulation) rather than freed.
 */
export async function releaseReservations(tx: Tx, instanceId: string, options: { keepVmid?: boolean } = {}): Promise<void> {
  const now = new Date();
  await tx.vmidReservation.updateMany({
    where: { instanceId },
    data: options.keepVmid ? { state: 'quarantined', instanceId: null, quarantinedFor: instanceId, quarantinedAt: now } : { state: 'free', instanceId: null, releasedAt: now },
  });
  await tx.ipAddress.updateMany({ where: { instanceId }, data: { state: 'free', instanceId: null, releasedAt: now } });
  await tx.nodeAllocation.updateMany({ where: { instanceId, state: { not: 'released' } }, data: { state: 'released', targetNodeId: null } });
  await tx.instance.updateMany({ where: { id: instanceId, quotaReleasedAt: null }, data: { quotaReleasedAt: now } });
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
