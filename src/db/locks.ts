/**
 * Row and advisory locks a service takes inside its transaction, held until it commits. Each
 * names what it orders: the requests that lock the same row or key run one after the other.
 */
import { Prisma } from '../generated/prisma/client';
import { runSql, type Tx } from './client';

/** The tables whose rows a service locks by id before it decides on them. */
type LockedTable = 'instances' | 'backups' | 'orphan_guests';

/** Locks one row for update (nothing else changes it or locks it until commit); a missing row locks nothing. */
export async function lockRow(tx: Tx, table: LockedTable, id: string): Promise<void> {
  await runSql(tx, Prisma.sql`SELECT id FROM ${Prisma.raw(`"${table}"`)} WHERE id = ${id} FOR UPDATE`);
}

/** The instance's status with its row share-locked: no operation can begin on it until commit. */
export async function shareLockInstanceStatus(tx: Tx, instanceId: string): Promise<string | undefined> {
  const [row] = await runSql<{ status: string }>(tx, Prisma.sql`SELECT status::text FROM instances WHERE id = ${instanceId} FOR SHARE`);
  return row?.status;
}

/** Locks the instance's credential row for update; its id, or undefined when it has none. */
export async function lockCredentialOf(tx: Tx, instanceId: string): Promise<string | undefined> {
  const [row] = await runSql<{ id: string }>(tx, Prisma.sql`SELECT id FROM credentials WHERE "instanceId" = ${instanceId} FOR UPDATE`);
  return row?.id;
}

/** A transaction-wide advisory lock on `key`: the transactions that take the same key run one at a time. */
export async function lockKey(tx: Tx, key: string): Promise<void> {
  // Executed, not queried: the function returns void, which a query's row cannot carry.
  await tx.$executeRaw(Prisma.sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`);
}

/** Takes the transaction-wide advisory lock on `key` if it is free, without waiting: false when another transaction holds it. */
export async function tryLockKey(tx: Tx, key: string): Promise<boolean> {
  const [row] = await runSql<{ taken: boolean }>(tx, Prisma.sql`SELECT pg_try_advisory_xact_lock(hashtext(${key})) AS taken`);
  return row?.taken === true;
}
