import type { Db, Tx } from './client';

/**
 * Ends sessions (all of a user's, or one) that are still going; the count ended. Used on sign-out,
 * revocation, a password change and when a user is disabled.
 */
export async function endSessions(db: Db | Tx, where: { userId: string; id?: string | { not: string } }): Promise<number> {
  const { count } = await db.session.updateMany({ where: { ...where, revokedAt: null }, data: { revokedAt: new Date() } });
  return count;
}
