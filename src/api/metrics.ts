import type { Request, RequestHandler } from 'express';
import { histogram } from '../metrics';

/** How long each HTTP request took (registered in the registry of src/metrics.ts, which GET /metrics serves). */
export const httpRequestDuration = histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration by method, route template and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

type RouteLike = { path?: unknown } | undefined;

/**
 * The route template that handled a request, e.g. `/v1/admin/tenants/:id`. Routers restore
 * `req.baseUrl` when they hand a request on (to the error handler, say), so the mount path is
 * captured at the moment the router assigns `req.route`.
 */
function trackRouteTemplate(req: Request): () => string {
  let route: RouteLike;
  let template: string | undefined;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set: (value: RouteLike) => {
      route = value;
      template = typeof value?.path === 'string' ? `${req.baseUrl}${value.path}` : undefined;
    },
  });
  return () => template ?? 'unmatched';
}

/** Observes every request's duration, labelled by template (never the raw URL, which holds ids). */
export const httpMetrics: RequestHandler = (req, res, next) => {
  const started = process.hrtime.bigint();
  const template = trackRouteTemplate(req);
  res.once('finish', () => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    httpRequestDuration.observe({ method: req.method, route: template(), status: String(res.statusCode) }, seconds);
  });
  next();
};
