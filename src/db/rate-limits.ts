/**
 * The rows rate limits count in: per-token request counters (a fixed minute window) and per-user
 * create events (sliding windows). Each count is one statement, so limits hold across API replicas.
 */
import type { Config } from '../config';
import { AppError } from '../domain/errors';
import { Prisma } from '../generated/prisma/client';
import { runSql, type Db, type Queryable } from './client';

/** What a token's requests are counted as; each has its own per-minute limit. */
export type LimitedAction = 'read' | 'operation';

const LIMITS: Record<LimitedAction, { setting: keyof Pick<Config, 'RATE_LIMIT_READS_PER_MINUTE' | 'RATE_LIMIT_OPERATIONS_PER_MINUTE'>; noun: string }> = {
  read: { setting: 'RATE_LIMIT_READS_PER_MINUTE', noun: 'reads' },
  operation: { setting: 'RATE_LIMIT_OPERATIONS_PER_MINUTE', noun: 'operations' },
};

/**
 * Counts one request of the token in the current minute (UTC, fixed window) and refuses it with
 * 429 RATE_LIMITED once the limit is passed. One upsert counts and answers, so it costs a read
 * one statement.
 */
export async function countTokenRequest(db: Db, config: Config, tokenId: string, action: LimitedAction): Promise<void> {
  const { setting, noun } = LIMITS[action];
  const limit = config[setting];
  const [row] = await runSql<{ count: number; secondsLeft: number }>(db, Prisma.sql`
    INSERT INTO rate_limit_counters ("tokenId", action, "windowStart", count)
    VALUES (${tokenId}, ${action}, date_trunc('minute', now() AT TIME ZONE 'UTC'), 1)
    ON CONFLICT ("tokenId", action, "windowStart") DO UPDATE SET count = rate_limit_counters.count + 1
    RETURNING count, extract(epoch FROM "windowStart" + interval '1 minute' - now() AT TIME ZONE 'UTC')::float8 AS "secondsLeft"`);
  if (row && row.count > limit) {
    throw new AppError('RATE_LIMITED', `At most ${limit} ${noun} per minute are allowed for one token.`, {
      retryAfterSeconds: Math.max(1, Math.ceil(row.secondsLeft)),
    });
  }
}

/**
 * Counts one server create of the user in sliding windows (a minute, an hour), under a lock on
 * the user's row so that concurrent creates of one user count one after the other: the event is
 * recorded only while both windows have room (one statement that counts and inserts). A refusal
 * is 429 RATE_LIMITED with Retry-After: when the oldest of the last `limit` events leaves its window.
 */
export async function countCreate(tx: Queryable, config: Config, userId: string): Promise<void> {
  const now = new Date();
  const window = (seconds: number, limit: number, per: string) => ({ seconds, limit, per, since: new Date(now.getTime() - seconds * 1000) });
  const minute = window(60, config.RATE_LIMIT_CREATE_PER_MINUTE, 'minute');
  const hour = window(3600, config.RATE_LIMIT_CREATE_PER_HOUR, 'hour');
  await runSql(tx, Prisma.sql`SELECT id FROM users WHERE id = ${userId} FOR NO KEY UPDATE`);
  const recorded = await runSql(tx, Prisma.sql`
    INSERT INTO rate_limit_events ("userId", action, at)
    SELECT ${userId}, 'instance.create', ${now}
    FROM (
      SELECT COUNT(*) FILTER (WHERE at > ${minute.since}) AS minute, COUNT(*) AS hour
      FROM rate_limit_events WHERE "userId" = ${userId} AND action = 'instance.create' AND at > ${hour.since}
    ) recent
    WHERE recent.minute < ${minute.limit} AND recent.hour < ${hour.limit}
    RETURNING at`);
  if (recorded.length === 1) return;
  for (const { seconds, limit, per, since } of [minute, hour]) {
    // The limit-th newest event in the window: once it leaves, there is room again.
    const [oldest] = await runSql<{ at: Date }>(tx, Prisma.sql`
      SELECT at FROM rate_limit_events WHERE "userId" = ${userId} AND action = 'instance.create' AND at > ${since}
      ORDER BY at DESC OFFSET ${limit - 1} LIMIT 1`);
    if (!oldest) continue;
    const retryAfterSeconds = Math.max(1, Math.ceil((oldest.at.getTime() + seconds * 1000 - now.getTime()) / 1000));
    throw new AppError('RATE_LIMITED', `At most ${limit} servers may be created per ${per}.`, { retryAfterSeconds });
  }
}
