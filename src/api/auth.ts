import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Config } from '../config';
import { runSql, type Db } from '../db/client';
import { AppError } from '../domain/errors';
import { Prisma } from '../generated/prisma/client';
import type { Role } from '../generated/prisma/enums';
import { hashToken } from '../security/secrets';
import { authenticateSession, sessionCookieOf } from './session-auth';

export interface Principal {
  userId: string;
  /** The API token (or the session) the request came with: rate limits and stream limits count per token. */
  tokenId: string;
  /** Set when the request came with a session cookie instead of a bearer token. */
  sessionId?: string;
  role: Role;
  /** Set for customers: every query they make is scoped to it. */
  tenantId: string | null;
}

declare module 'express-serve-static-core' {
  interface Request {
    principal?: Principal;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]{16,256})$/;

/** lastUsedAt is written at most this often per token, so a busy client does not write on every request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Bearer-token authentication, or a console session's cookie when no Authorization header is
 * sent (see session-auth.ts). Tokens are looked up by their SHA-256 digest (a unique index),
 * so the comparison never touches the plaintext and takes the same time for every wrong token.
 * A revoked or expired token, or one of a disabled user, answers exactly like an unknown one.
 */
export function authenticate(deps: { db: Db; config: Config }): RequestHandler {
  const { db } = deps;
  return async (req: Request, _res: Response, next: NextFunction) => {
    const authorization = req.header('authorization');
    const sessionSecret = sessionCookieOf(req, deps.config);
    if (authorization === undefined && sessionSecret) {
      req.principal = await authenticateSession(deps, sessionSecret, req);
      return next();
    }
    const match = BEARER.exec(authorization ?? '');
    if (!match?.[1]) return next(new AppError('UNAUTHENTICATED', 'A valid bearer token is required.'));
    const token = await tokenByHash(db, hashToken(match[1]));
    const now = new Date();
    if (!token || token.revokedAt || token.disabledAt || (token.expiresAt && token.expiresAt <= now)) {
      return next(new AppError('UNAUTHENTICATED', 'A valid bearer token is required.'));
    }
    if (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
      // Conditional, so concurrent requests of one client write it once.
      const usedBefore = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
      await runSql(db, Prisma.sql`UPDATE api_tokens SET "lastUsedAt" = ${now} WHERE id = ${token.id} AND ("lastUsedAt" IS NULL OR "lastUsedAt" <= ${usedBefore})`);
    }
    req.principal = { userId: token.userId, tokenId: token.id, role: token.role, tenantId: token.tenantId };
    next();
  };
}

interface TokenHolder {
  id: string;
  userId: string;
  revokedAt: Date | null;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  role: Role;
  tenantId: string | null;
  disabledAt: Date | null;
}

/** A token and what its user is, in one statement on the pool (every request makes it). */
async function tokenByHash(db: Db, tokenHash: string): Promise<TokenHolder | undefined> {
  const [token] = await runSql<TokenHolder>(db, Prisma.sql`
    SELECT t.id, t."userId", t."revokedAt", t."expiresAt", t."lastUsedAt", u.role::text AS role, u."tenantId", u."disabledAt"
    FROM api_tokens t JOIN users u ON u.id = t."userId" WHERE t."tokenHash" = ${tokenHash}`);
  return token;
}

export function principal(req: Request): Principal {
  if (!req.principal) throw new AppError('UNAUTHENTICATED', 'A valid bearer token is required.');
  return req.principal;
}

export const requireAdmin: RequestHandler = (req, _res, next) => {
  next(principal(req).role === 'admin' ? undefined : new AppError('FORBIDDEN', 'This route is for administrators.'));
};

export const requireCustomer: RequestHandler = (req, _res, next) => {
  const who = principal(req);
  next(who.role === 'customer' && who.tenantId ? undefined : new AppError('FORBIDDEN', 'This route is for customers.'));
};
