import express from 'express';
import type { Client } from '@temporalio/client';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Logger } from '../logger';
import type { SecretBox } from '../security/secrets';
import { authenticate } from './auth';
import { errorHandler, notFoundRoute } from './errors';
import { rejectUnsafeText, requireJsonBody } from './input';
import { httpMetrics } from './metrics';
import { rateLimitedReads } from './rate-limit';
import { healthRouter } from './routes/health';
import { openapiRouter } from './routes/openapi';
import { v1Router } from './routes/v1';

export interface ApiDeps {
  db: Db;
  temporal: Client;
  config: Config;
  logger: Logger;
  secrets: SecretBox;
  /**
   * Runs between a task's commit and its workflow start. Tests use it to stop the API right there,
   * as a crash would; the reconciler then starts the workflow from the task's recorded intent.
   */
  afterCommit?: (taskId: string) => Promise<void>;
  /** Aborted when the process is stopping: open event streams end with `event: close` (reason `shutting_down`). */
  stopping?: AbortSignal;
}

/** Answers of the authenticated API are never stored by a cache: some carry secrets (a revealed password, a new token). */
const noStore: express.RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

export function createApp(deps: ApiDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(httpMetrics);
  app.use(healthRouter(deps));
  app.use(openapiRouter());
  app.use('/v1', noStore, requireJsonBody, express.json({ limit: '64kb', strict: true }), rejectUnsafeText, authenticate(deps.db), rateLimitedReads(deps), v1Router(deps));
  app.use(notFoundRoute);
  app.use(errorHandler(deps.logger));
  return app;
}
