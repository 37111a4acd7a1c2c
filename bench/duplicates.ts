/**
 * After the phases: VMIDs and addresses held (not free) by more than one row or live instance.
 * Every count must be 0; anything else is a double booking.
 */
import type { Db } from '../src/db/client';

export interface Duplicates {
  /** (cluster, VMID) pairs held by more than one reservation. */
  vmidReservations: number;
  /** (cluster, VMID) pairs carried by more than one instance that is not deleted. */
  instanceVmids: number;
  /** (pool, address) pairs held by more than one address row. */
  addresses: number;
}

async function countOf(db: Db, sql: string): Promise<number> {
  const [row] = await db.$queryRawUnsafe<{ count: bigint }[]>(`SELECT count(*) AS count FROM (${sql}) AS twice`);
  return Number(row?.count ?? 0);
}

export async function countDuplicates(db: Db): Promise<Duplicates> {
  return {
    vmidReservations: await countOf(db, `SELECT "connectionId", vmid FROM vmid_reservations WHERE state <> 'free' GROUP BY 1, 2 HAVING count(*) > 1`),
    instanceVmids: await countOf(db, `SELECT "connectionId", vmid FROM instances WHERE vmid IS NOT NULL AND "deletedAt" IS NULL AND status NOT IN ('deleted', 'failed') GROUP BY 1, 2 HAVING count(*) > 1`),
    addresses: await countOf(db, `SELECT "poolId", address FROM ip_addresses WHERE state <> 'free' GROUP BY 1, 2 HAVING count(*) > 1`),
  };
}
