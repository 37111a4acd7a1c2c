import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { AppError } from '../domain/errors';
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
    const sessionSecret = sessionCookieOf(req);
    if (authorization === undefined && sessionSecret) {
      req.principal = await authenticateSession(deps, sessionSecret, req);
      return next();
    }
    const match = BEARER.exec(authorization ?? '');
    if (!match?.[1]) return next(new AppError('UNAUTHENTICATED', 'A valid bearer token is required.'));
    const token = await db.apiToken.findUnique({
      where: { tokenHash: hashToken(match[1]) },
      include: { user: true },
    });
    const now = new Date();
    if (!token || token.revokedAt || token.user.disabledAt || (token.expiresAt && token.expiresAt <= now)) {
      return next(new AppError('UNAUTHENTICATED', 'A valid bearer token is required.'));
    }
    if (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
      // Conditional, so concurrent requests of one client write it once.
      await db.apiToken.updateMany({
        where: { id: token.id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lte: new Date(now.getTime() - LAST_USED_RESOLUTION_MS) } }] },
        data: { lastUsedAt: now },
      });
    }
    req.principal = { userId: token.userId, tokenId: token.id, role: token.user.role, tenantId: token.user.tenantId };
    next();
  };
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
