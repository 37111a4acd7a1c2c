import { createHash, timingSafeEqual } from 'node:crypto';
import express, { Router } from 'express';
import { z } from 'zod';
import type { Config } from '../../config';
import { AppError } from '../../domain/errors';
import { checkReadiness } from '../../services/health';
import type { ApiDeps } from '../deps';
import { errorHandler, notFoundRoute } from '../errors';
import { metricsRegistry } from '../../metrics';
import { registerRoute } from '../openapi';

/** How long one readiness probe may take before it counts as failed. */
export const READINESS_TIMEOUT_MS = 2_000;

const checkSchema = z.enum(['ok', 'failed', 'timeout']);
const readinessSchema = z
  .object({ status: z.enum(['ready', 'not_ready']), checks: z.object({ database: checkSchema, temporal: checkSchema }) })
  .openapi('Readiness');

registerRoute({ method: 'get', path: '/healthz', summary: 'Liveness: the process answers', tags: ['operations'], public: true, raw: true, response: z.object({ status: z.literal('ok') }) });
registerRoute({
  method: 'get',
  path: '/readyz',
  summary: 'Readiness: PostgreSQL and Temporal answer (503 when either does not)',
  tags: ['operations'],
  public: true,
  raw: true,
  response: readinessSchema,
  extraResponses: { '503': { description: 'Not ready: the failed checks are named', content: { 'application/json': { schema: readinessSchema } } } },
});
registerRoute({
  method: 'get',
  path: '/metrics',
  summary: 'Prometheus metrics',
  description: 'On the API port only without METRICS_PORT, and in production only with METRICS_TOKEN (then as `Authorization: Bearer <METRICS_TOKEN>`).',
  tags: ['operations'],
  public: true,
  contentType: 'text/plain; version=0.0.4',
});

/** Whether the API port serves /metrics: not when it has a port of its own, nor in production without a token. */
export function metricsOnApiPort(config: Config): boolean {
  if (config.METRICS_PORT !== undefined) return false;
  return config.NODE_ENV !== 'production' || config.METRICS_TOKEN !== undefined;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** GET /metrics, behind `Authorization: Bearer <METRICS_TOKEN>` when that is set (compared in constant time). */
export function metricsRouter(config: Config): Router {
  const router = Router();
  const expected = config.METRICS_TOKEN === undefined ? null : digest(`Bearer ${config.METRICS_TOKEN}`);
  router.get('/metrics', async (req, res) => {
    if (expected && !timingSafeEqual(digest(req.header('authorization') ?? ''), expected)) {
      throw new AppError('UNAUTHENTICATED', 'The metrics token is required.');
    }
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Type', metricsRegistry.contentType);
    res.send(await metricsRegistry.metrics());
  });
  return router;
}

/** /metrics alone, for METRICS_PORT. */
export function createMetricsApp(deps: Pick<ApiDeps, 'config' | 'logger'>): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(metricsRouter(deps.config));
  app.use(notFoundRoute);
  app.use(errorHandler(deps.logger));
  return app;
}

/** Liveness and readiness (and metrics, see metricsOnApiPort): unauthenticated, outside /v1, for orchestrators and scrapers. */
export function healthRouter(deps: ApiDeps, options: { timeoutMs?: number } = {}): Router {
  const timeoutMs = options.timeoutMs ?? READINESS_TIMEOUT_MS;
  const router = Router();

  router.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok' });
  });

  router.get('/readyz', async (_req, res) => {
    const { database, temporal } = await checkReadiness(deps, timeoutMs);
    const ready = database === 'ok' && temporal === 'ok';
    res.setHeader('Cache-Control', 'no-store');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks: { database, temporal } });
  });

  if (metricsOnApiPort(deps.config)) router.use(metricsRouter(deps.config));
  return router;
}
