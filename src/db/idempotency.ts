import type { Db } from './client';

/** Keys created before this moment are past their lifetime: they replay nothing. */
export function idempotencyCutoff(now: Date, ttlHours: number): Date {
  return new Date(now.getTime() - ttlHours * 3_600_000);
}

/** Deletes the Idempotency-Keys past their lifetime (periodic housekeeping); answers how many went. */
export async function pruneExpiredIdempotencyKeys(db: Db, now: Date, ttlHours: number): Promise<number> {
  const { count } = await db.idempotencyKey.deleteMany({ where: { createdAt: { lt: idempotencyCutoff(now, ttlHours) } } });
  return count;
}
