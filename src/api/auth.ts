import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError, notFound } from '../domain/errors';
import { targetOf } from '../services/access';
import { identifyRequestActor } from '../services/audit-trail';
import { tokenPrincipal } from '../services/authentication';
import { can, TENANT, type Action } from '../services/authorization';
import type { ServiceDeps } from '../services/deps';
import type { Principal } from '../services/principal';
import { countRequest } from '../services/rate-limits';
import { ruleOf } from './route-actions';
import { authenticateSession, sessionCookieOf } from './session-auth';

declare module 'express-serve-static-core' {
  interface Request {
    principal?: Principal;
    /** The action the route table named for this request, once it was allowed. */
    authorized?: Action;
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
      identifyRequestActor(req.principal);
      return next();
    }
    const match = BEARER.exec(authorization ?? '');
    if (!match?.[1]) return next(new AppError('UNAUTHENTICATED', 'A valid bearer token is required.'));
    req.principal = await tokenPrincipal(deps, match[1]);
    identifyRequestActor(req.principal);
    next();
  };
}

/** The route's `:id`, the first path segment after the collection the table names it in (rejectUnsafeText refused paths that do not decode). */
const idOf = (path: string): string => decodeURIComponent(path.split('/')[3] ?? '');

/**
 * Decides every signed-in request before its route runs: the route table (route-actions.ts) names
 * the action and where its server comes from, and `can` answers. A refusal says why (403
 * FORBIDDEN); a server the caller may not see is 404 NOT_FOUND, as another tenant's is.
 * A path the table does not know goes on to its 404, or to a route that refuses (see principal).
 */
export function authorize(deps: Pick<ServiceDeps, 'db' | 'config'>): RequestHandler {
  return async (req: Request, _res: Response, next: NextFunction) => {
    const path = req.baseUrl + req.path;
    const rule = ruleOf(req.method, path);
    const who = req.principal;
    if (!rule || !who) return next();
    // A change asked of one server counts as an operation whatever its answer, refusals too.
    if (rule.target && req.method !== 'GET' && req.method !== 'HEAD') await countRequest(deps, who.tokenId, 'operation');
    const target = rule.target ? await targetOf(deps, who, rule.target, idOf(path)) : TENANT;
    const decision = can(who, rule.action, target);
    if (!decision.allowed) return next(decision.hidden ? notFound(target.kind === 'project' ? 'project' : 'server') : new AppError('FORBIDDEN', decision.reason, { action: rule.action }));
    req.authorized = rule.action;
    next();
  };
}

/** Who signed the request in, decided or not: what rate limits count by. */
export function signedIn(req: Request): Principal {
  if (!req.principal) throw new AppError('UNAUTHENTICATED', 'A valid bearer token is required.');
  return req.principal;
}

/** The caller of a request the route table decided; a route missing from the table is refused here. */
export function principal(req: Request): Principal {
  const who = signedIn(req);
  if (!req.authorized) throw new AppError('FORBIDDEN', 'This route has no authorization decision.');
  return who;
}
