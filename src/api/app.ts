import type { IncomingMessage } from 'node:http';
import express from 'express';
import { withRequestActor } from '../services/audit-trail';
import { authenticate, authorize } from './auth';
import { consoleRouter } from './console';
import type { ApiDeps } from './deps';
import { errorHandler, notFoundRoute } from './errors';
import { rejectUnsafeText, requireJsonBody } from './input';
import { httpMetrics } from './metrics';
import { rateLimitedReads } from './rate-limit';
import { healthRouter } from './routes/health';
import { openapiRouter } from './routes/openapi';
import { publicSessionRouter } from './routes/sessions';
import { v1Router } from './routes/v1';

/** Answers of the authenticated API are never stored by a cache: some carry secrets (a revealed password, a new token). */
const noStore: express.RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/** Every audit row a request writes records the client's address (and, once authenticated, the token or session): set after the body is read, so the rest of the request runs inside it. */
const auditedRequest: express.RequestHandler = (req, _res, next) => withRequestActor({ address: req.ip ?? null }, next);

/** The client's address of a request Express does not route (the console WebSocket's upgrade), read as `req.ip` reads it (TRUST_PROXY). */
export function clientAddressOf(app: express.Express, req: IncomingMessage): string | null {
  const asExpressReads = Object.create(app.request, { headers: { value: req.headers }, socket: { value: req.socket } }) as express.Request;
  return asExpressReads.ip ?? null;
}

export function createApp(deps: ApiDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.TRUST_PROXY);
  app.use(httpMetrics);
  app.use(healthRouter(deps));
  app.use(openapiRouter());
  app.use('/v1', noStore, requireJsonBody, express.json({ limit: '64kb', strict: true }), rejectUnsafeText, auditedRequest, publicSessionRouter(deps), authenticate(deps), authorize(deps), rateLimitedReads(deps), v1Router(deps));
  app.use(consoleRouter(deps.config));
  app.use(notFoundRoute);
  app.use(errorHandler(deps.logger));
  return app;
}
