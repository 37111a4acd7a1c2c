import type { RequestHandler } from 'express';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { AppError } from '../domain/errors';
import { principal } from './auth';

/** What a token's requests are counted as; each has its own per-minute limit. */
export type LimitedAction = 'read' | 'operation';

const LIMITS: Record<LimitedAction, { setting: keyof Pick<Config, 'RATE_LIMIT_READS_PER_MINUTE' | 'RATE_LIMIT_OPERATIONS_PER_MINUTE'>; noun: string }> = {
  read: { setting: 'RATE_LIMIT_READS_PER_MINUTE', noun: 'reads' },
  operation: { setting: 'RATE_LIMIT_OPERATIONS_PER_MINUTE', noun: 'operations' },
};

/**
 * Counts one request of the token in the current minute (UTC, fixed window) and refuses it with
 * 429 RATE_LIMITED once the limit is passed. One upsert counts and answers, so it holds across
 * API replicas and costs a read one statement.
 */
export async function countRequest(db: Db, config: Config, tokenId: string, action: LimitedAction): Promise<void> {
  const { setting, noun } = LIMITS[action];
  const limit = config[setting];
  const [row] = await db.$queryRaw<{ count: number; secondsLeft: number }[]>`
    INSERT INTO rate_limit_counters ("tokenId", action, "windowStart", count)
    VALUES (${tokenId}, ${action}, date_trunc('minute', now() AT TIME ZONE 'UTC'), 1)
    ON CONFLICT ("tokenId", action, "windowStart") DO UPDATE SET count = rate_limit_counters.count + 1
    RETURNING count, extract(epoch FROM "windowStart" + interval '1 minute' - now() AT TIME ZONE 'UTC')::float8 AS "secondsLeft"`;
  if (row && row.count > limit) {
    throw new AppError('RATE_LIMITED', `At most ${limit} ${noun} per minute are allowed for one token.`, {
      retryAfterSeconds: Math.max(1, Math.ceil(row.secondsLeft)),
    });
  }
}

/** Middleware: counts the request as `action` for its token (use after authentication). */
export function rateLimited(deps: { db: Db; config: Config }, action: LimitedAction): RequestHandler {
  return async (req, _res, next) => {
    await countRequest(deps.db, deps.config, principal(req).tokenId, action);
    next();
  };
}

/** Reads (GET) count against the read limit; everything else passes through here. */
export function rateLimitedReads(deps: { db: Db; config: Config }): RequestHandler {
  const limit = rateLimited(deps, 'read');
  return (req, res, next) => (req.method === 'GET' || req.method === 'HEAD' ? limit(req, res, next) : next());
}
