import type { Db } from './client';
import { endLostConsoleSessions } from './console-sessions';
import { pruneExpiredIdempotencyKeys } from './idempotency';

/** The longest rate-limit window (see RATE_LIMIT_CREATE_PER_HOUR): older rows count for nothing. */
const RATE_LIMIT_WINDOW_MS = 3600_000;
/** The longest sign-in lockout window (LOGIN_LOCKOUT_MINUTES at most a day); ended sessions are listed for as long. */
const SIGN_IN_WINDOW_MS = 86_400_000;

export interface HousekeepingResult {
  credentialsErased: number;
  idempotencyKeysDeleted: number;
  rateLimitEventsDeleted: number;
  /** Consoles whose API process died while relaying them, ended as `relay_lost`. */
  consolesLost: number;
}

/** Expired credentials can never be revealed: their ciphertext goes, the row (and its expiry) stays. */
export async function eraseExpiredCredentials(db: Db, now: Date): Promise<number> {
  const { count } = await db.credential.updateMany({ where: { expiresAt: { lte: now }, secretCipher: { not: null } }, data: { secretCipher: null } });
  return count;
}

/** Rate-limit events and per-token counters of past windows, event-stream leases nobody renewed, sign-in attempts and sessions a day past. */
export async function pruneRateLimitEvents(db: Db, now: Date): Promise<number> {
  const before = new Date(now.getTime() - RATE_LIMIT_WINDOW_MS);
  const dayAgo = new Date(now.getTime() - SIGN_IN_WINDOW_MS);
  const deleted = await Promise.all([
    db.loginAttempt.deleteMany({ where: { at: { lt: dayAgo } } }),
    db.session.deleteMany({ where: { expiresAt: { lt: dayAgo } } }),
    db.rateLimitEvent.deleteMany({ where: { at: { lt: before } } }),
    db.rateLimitCounter.deleteMany({ where: { windowStart: { lt: before } } }),
    db.eventStreamLease.deleteMany({ where: { expiresAt: { lt: now } } }),
  ]);
  return deleted.reduce((sum, { count }) => sum + count, 0);
}

/** Every database-only chore of the reconciler; audit events are kept. Each is a conditional delete or update, safe to repeat. */
export async function runHousekeeping(db: Db, now: Date, idempotencyTtlHours: number): Promise<HousekeepingResult> {
  return {
    credentialsErased: await eraseExpiredCredentials(db, now),
    idempotencyKeysDeleted: await pruneExpiredIdempotencyKeys(db, now, idempotencyTtlHours),
    rateLimitEventsDeleted: await pruneRateLimitEvents(db, now),
    consolesLost: await endLostConsoleSessions(db, now),
  };
}
