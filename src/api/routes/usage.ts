import { Router } from 'express';
import type { z } from 'zod';
import type { VmRrdPoint } from '../../proxmox';
import { readUsage } from '../../services/usage';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { parseQuery, pathParam, send } from '../http';
import { registerRoute } from '../openapi';
import { metricsQuery, metricsView } from '../schemas/usage';

registerRoute({
  method: 'get',
  path: '/v1/instances/:id/metrics',
  summary: "Read a server's usage graphs",
  description:
    'CPU, memory, network and disk I/O over the last hour, day or week, as Proxmox VE consolidates them (averages per point). Answers are kept a few seconds per server and time frame (`METRICS_CACHE_SECONDS`), so many viewers cost one read. Values are null where nothing was measured (the server was stopped), and for every point whose interval begins before the server was created (Proxmox VE may still hold the usage of an earlier server there; only the history of this server is shown).',
  tags: ['instances'],
  request: { query: metricsQuery },
  response: metricsView,
  errors: ['NOT_FOUND', 'PROVIDER_UNAVAILABLE'],
});

const orNull = (value: number | undefined) => (value === undefined || !Number.isFinite(value) ? null : value);

function toMetricsPoint(point: VmRrdPoint): z.infer<typeof metricsView>['points'][number] {
  return {
    time: new Date(point.time * 1000).toISOString(),
    cpu: orNull(point.cpu),
    memoryBytes: orNull(point.mem),
    memoryTotalBytes: orNull(point.maxmem),
    netInBytesPerSecond: orNull(point.netin),
    netOutBytesPerSecond: orNull(point.netout),
    diskReadBytesPerSecond: orNull(point.diskread),
    diskWriteBytesPerSecond: orNull(point.diskwrite),
  };
}

export function usageRouter(deps: ApiDeps): Router {
  const router = Router();
  router.get('/instances/:id/metrics', async (req, res) => {
    const { timeframe } = parseQuery(metricsQuery, req);
    const usage = await readUsage(deps, principal(req), pathParam(req, 'id'), timeframe);
    send(res, { timeframe: usage.timeframe, stepSeconds: usage.stepSeconds, points: usage.points.map(toMetricsPoint) });
  });
  return router;
}
