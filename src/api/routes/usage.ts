import { Router } from 'express';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { parseQuery, pathParam, send } from '../http';
import { metricsReader } from '../usage';
import { registerRoute } from '../openapi';
import { metricsQuery, metricsView } from '../schemas/usage';

registerRoute({
  method: 'get',
  path: '/v1/instances/:id/metrics',
  summary: "Read a server's usage graphs",
  description:
    'CPU, memory, network and disk I/O over the last hour, day or week, as Proxmox VE consolidates them (averages per point). Answers are kept a few seconds per server and time frame (`METRICS_CACHE_SECONDS`), so many viewers cost one read. Values are null where nothing was measured (the server was stopped).',
  tags: ['instances'],
  request: { query: metricsQuery },
  response: metricsView,
  errors: ['NOT_FOUND', 'PROVIDER_UNAVAILABLE'],
});

export function usageRouter(deps: ApiDeps): Router {
  const router = Router();
  const read = metricsReader(deps);
  router.get('/instances/:id/metrics', async (req, res) => {
    const { timeframe } = parseQuery(metricsQuery, req);
    send(res, await read(principal(req), pathParam(req, 'id'), timeframe));
  });
  return router;
}
