import type { RequestHandler } from 'express';
import type { ServiceDeps } from '../services/deps';
import { countRequest, type LimitedAction } from '../services/rate-limits';
import { signedIn } from './auth';

/** Middleware: counts the request as `action` for its token (use after authentication); past the limit it is 429 RATE_LIMITED. */
export function rateLimited(deps: Pick<ServiceDeps, 'db' | 'config'>, action: LimitedAction): RequestHandler {
  return async (req, _res, next) => {
    await countRequest(deps, signedIn(req).tokenId, action);
    next();
  };
}

/** Reads (GET) count against the read limit; everything else passes through here. */
export function rateLimitedReads(deps: Pick<ServiceDeps, 'db' | 'config'>): RequestHandler {
  const limit = rateLimited(deps, 'read');
  return (req, res, next) => (req.method === 'GET' || req.method === 'HEAD' ? limit(req, res, next) : next());
}
