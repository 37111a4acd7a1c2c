import { Prisma } from '../generated/prisma/client';
import { newId } from '../security/ids';
import { runSql, type Db, type Queryable } from './client';

/** Keys created before this moment are past their lifetime: they replay nothing. */
export function idempotencyCutoff(now: Date, ttlHours: number): Date {
  return new Date(now.getTime() - ttlHours * 3_600_000);
}

/** Deletes the Idempotency-Keys past their lifetime (periodic housekeeping); answers how many went. */
export async function pruneExpiredIdempotencyKeys(db: Db, now: Date, ttlHours: number): Promise<number> {
  const { count } = await db.idempotencyKey.deleteMany({ where: { createdAt: { lt: idempotencyCutoff(now, ttlHours) } } });
  return count;
}

/**
 * Records the key for a create in one statement; false while an earlier request's key is alive
 * (a concurrent one is waited for). A key past its lifetime (`expiredBefore`) is taken over.
 */
export async function claimIdempotencyKey(tx: Queryable, o: { userId: string; key: string; requestHash: string; instanceId: string; expiredBefore: Date }): Promise<boolean> {
  const claimed = await runSql(tx, Prisma.sql`
    INSERT INTO idempotency_keys (id, "userId", key, "requestHash", "instanceId", "createdAt")
    VALUES (${newId('idem')}, ${o.userId}, ${o.key}, ${o.requestHash}, ${o.instanceId}, ${new Date()})
    ON CONFLICT ("userId", key) DO UPDATE
      SET id = EXCLUDED.id, "requestHash" = EXCLUDED."requestHash", "instanceId" = EXCLUDED."instanceId", "createdAt" = EXCLUDED."createdAt"
      WHERE idempotency_keys."createdAt" < ${o.expiredBefore}
    RETURNING id`);
  return claimed.length === 1;
}
