import { Router } from 'express';
import { z } from 'zod';
import type { ApiDeps } from '../app';
import { metricsRegistry } from '../metrics';
import { registerRoute } from '../openapi';

/** How long one readiness probe may take before it counts as failed. */
export const READINESS_TIMEOUT_MS = 2_000;

type CheckResult = 'ok' | 'failed' | 'timeout';

async function probe(check: () => Promise<unknown>, timeoutMs: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    return await Promise.race([check().then((): CheckResult => 'ok', (): CheckResult => 'failed'), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

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
registerRoute({ method: 'get', path: '/metrics', summary: 'Prometheus metrics', tags: ['operations'], public: true, contentType: 'text/plain; version=0.0.4' });

/** Liveness, readiness and metrics: unauthenticated, outside /v1, for orchestrators and scrapers. */
export function healthRouter(deps: ApiDeps, options: { timeoutMs?: number } = {}): Router {
  const timeoutMs = options.timeoutMs ?? READINESS_TIMEOUT_MS;
  const router = Router();

  router.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok' });
  });

  router.get('/readyz', async (_req, res) => {
    const [database, temporal] = await Promise.all([
      probe(() => deps.db.$queryRaw`SELECT 1`, timeoutMs),
      probe(() => deps.temporal.workflowService.getSystemInfo({}), timeoutMs),
    ]);
    const ready = database === 'ok' && temporal === 'ok';
    if (!ready) deps.logger.warn({ database, temporal }, 'readiness check failed');
    res.setHeader('Cache-Control', 'no-store');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks: { database, temporal } });
  });

  router.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', metricsRegistry.contentType);
    res.send(await metricsRegistry.metrics());
  });

  return router;
}
