import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError } from '../domain/errors';
import { tokenPrincipal } from '../services/authentication';
import type { ServiceDeps } from '../services/deps';
import type { Principal } from '../services/principal';
import { authenticateSession, sessionCookieOf } from './session-auth';

declare module 'express-serve-static-core' {
  interface Request {
    principal?: Principal;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]{16,256})$/;

/**
 * Bearer-token authentication, or a console session's cookie when no Authorization header is
 * sent (see session-auth.ts); the services say who the token or the session is.
 */
export function authenticate(deps: Pick<ServiceDeps, 'db' | 'config'>): RequestHandler {
  return async (req: Request, _res: Response, next: NextFunction) => {
    const authorization = req.header('authorization');
    const sessionSecret = sessionCookieOf(req, deps.config);
    if (authorization === undefined && sessionSecret) {
      req.principal = await authenticateSession(deps, sessionSecret, req);
      return next();
    }
    const match = BEARER.exec(authorization ?? '');
    if (!match?.[1]) return next(new AppError('UNAUTHENTICATED', 'A valid bearer token is required.'));
    req.principal = await tokenPrincipal(deps, match[1]);
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
