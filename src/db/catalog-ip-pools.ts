import type { IpPool, Prisma } from '../generated/prisma/client';
import { archivedFilter } from './catalog';
import type { Tx } from './client';
import type { PageArgs } from './pages';

/** The rows of IP pools and the address rows they own. A new pool's id is named by its caller. */

export const findIpPools = (tx: Tx, page: PageArgs, archived?: boolean): Promise<IpPool[]> => tx.ipPool.findMany({ ...page, where: { ...page.where, ...archivedFilter(archived) } });

export const findPoolsById = (tx: Tx, ids: string[]): Promise<IpPool[]> => tx.ipPool.findMany({ where: { id: { in: ids } } });

/**
 * Gives the pools no location holds to `locationId`. When a pool was not free (a concurrent
 * claim makes the count short), `heldElsewhere` names those another location holds.
 */
export async function claimFreePools(tx: Tx, locationId: string, poolIds: string[]): Promise<{ claimedAll: boolean; heldElsewhere: string[] }> {
  const claimed = await tx.ipPool.updateMany({ where: { id: { in: poolIds }, locationId: null }, data: { locationId } });
  if (claimed.count === poolIds.length) return { claimedAll: true, heldElsewhere: [] };
  const held = await tx.ipPool.findMany({ where: { id: { in: poolIds }, NOT: { locationId } }, select: { id: true } });
  return { claimedAll: false, heldElsewhere: held.map((pool) => pool.id) };
}

/**
 * Takes the lock every pool creation and change of network takes, so two overlapping networks
 * cannot both pass their check, and reads the networks of the family's other pools.
 */
export async function lockPoolNetworks(tx: Tx, family: 4 | 6, exceptPoolId: string): Promise<Pick<IpPool, 'id' | 'cidr'>[]> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('ip_pools.create'))`;
  return tx.ipPool.findMany({ where: { family, id: { not: exceptPoolId } }, select: { id: true, cidr: true } });
}

export const insertIpPool = (tx: Tx, pool: Prisma.IpPoolUncheckedCreateInput): Promise<IpPool> => tx.ipPool.create({ data: pool });

/** The pool, locked against concurrent updates; none when there is no such pool. */
export async function lockIpPool(tx: Tx, id: string): Promise<IpPool | undefined> {
  const [pool] = await tx.$queryRaw<IpPool[]>`SELECT * FROM ip_pools WHERE id = ${id} FOR UPDATE`;
  return pool;
}

/**
 * How many of the pool's addresses are held or were ever handed out, with its address rows
 * locked: creates take address rows with SKIP LOCKED and lock no pool, so this waits for any
 * being taken.
 */
export async function lockAddressesHandedOut(tx: Tx, poolId: string): Promise<number> {
  await tx.$queryRaw`SELECT id FROM ip_addresses WHERE "poolId" = ${poolId} FOR UPDATE`;
  return tx.ipAddress.count({ where: { poolId, OR: [{ state: { not: 'free' } }, { releasedAt: { not: null } }] } });
}

/** Deletes the address rows of a pool none was handed out from (free rows added ahead of demand). */
export async function deletePoolAddresses(tx: Tx, poolId: string): Promise<void> {
  await tx.ipAddress.deleteMany({ where: { poolId } });
}

/**
 * Takes an address out of circulation (a pool's new gateway): its row goes, but only while still
 * free, since a create may be taking it right now. 'held' when a server holds it.
 */
export async function withdrawAddress(tx: Tx, poolId: string, address: string): Promise<'withdrawn' | 'held'> {
  const slot = await tx.ipAddress.findUnique({ where: { poolId_address: { poolId, address } } });
  if (!slot) return 'withdrawn';
  const freed = await tx.ipAddress.deleteMany({ where: { id: slot.id, state: 'free' } });
  return freed.count === 0 ? 'held' : 'withdrawn';
}

export const updateIpPoolRow = (tx: Tx, id: string, data: Prisma.IpPoolUncheckedUpdateInput): Promise<IpPool> => tx.ipPool.update({ where: { id }, data });
