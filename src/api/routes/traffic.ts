import { Router } from 'express';
import type { z } from 'zod';
import { addTrafficAllowance, liftThrottle, readTraffic, type TrafficPeriodChoice, type TrafficReport } from '../../services/traffic';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { parseBody, parseQuery, pathParam, send } from '../http';
import { registerRoute } from '../openapi';
import { addAllowanceBody, trafficQuery, trafficView } from '../schemas/traffic';

registerRoute({
  method: 'get',
  path: '/v1/instances/:id/traffic',
  summary: "Read a server's traffic in a billing period",
  description:
    "Bytes received and sent, what counts against the plan's allowance, the percent used, the throttle if one holds, and a day-by-day series. Counted from Proxmox VE's counters every `TRAFFIC_SAMPLE_SECONDS`: what moved since `sampledAt` is not in yet.",
  tags: ['instances'],
  request: { query: trafficQuery },
  response: trafficView,
  errors: ['NOT_FOUND'],
});
registerRoute({
  method: 'post',
  path: '/v1/admin/instances/:id/traffic/lift',
  summary: "Lift a server's throttle for the rest of its billing period",
  description: 'The throttle is removed (`instance.unthrottled`) and does not come back this period; audited. The next period counts afresh.',
  tags: ['admin: instances'],
  admin: true,
  response: trafficView,
  errors: ['NOT_FOUND'],
});
registerRoute({
  method: 'post',
  path: '/v1/admin/instances/:id/traffic/allowance',
  summary: "Add allowance to a server's current billing period",
  description: 'Audited. Back under 100%, a throttle is removed; a threshold no longer reached is sent again when it is reached again.',
  tags: ['admin: instances'],
  admin: true,
  request: { body: addAllowanceBody },
  response: trafficView,
  errors: ['NOT_FOUND'],
});

function toTrafficView(report: TrafficReport): z.infer<typeof trafficView> {
  return {
    period: { start: report.period.start.toISOString(), end: report.period.end.toISOString(), current: report.period.current },
    inBytes: Number(report.inBytes),
    outBytes: Number(report.outBytes),
    counted: report.counted === 'in_out' ? 'in+out' : report.counted,
    countedBytes: Number(report.countedBytes),
    allowanceBytes: report.allowanceBytes === null ? null : Number(report.allowanceBytes),
    extraAllowanceGiB: report.extraAllowanceGiB,
    percent: report.percent,
    overage: report.overage,
    throttle: report.throttle && { since: report.throttle.since.toISOString(), mbps: report.throttle.mbps, until: report.throttle.until?.toISOString() ?? null },
    liftedAt: report.liftedAt?.toISOString() ?? null,
    sampledAt: report.sampledAt?.toISOString() ?? null,
    daily: report.daily.map((d) => ({ date: d.date, inBytes: Number(d.inBytes), outBytes: Number(d.outBytes) })),
  };
}

export function trafficRouter(deps: ApiDeps): Router {
  const router = Router();
  router.get('/instances/:id/traffic', async (req, res) => {
    const { period } = parseQuery(trafficQuery, req);
    send(res, toTrafficView(await readTraffic(deps, principal(req), pathParam(req, 'id'), period as TrafficPeriodChoice)));
  });
  return router;
}

export function adminTrafficRouter(deps: ApiDeps): Router {
  const router = Router();
  router.post('/instances/:id/traffic/lift', async (req, res) => {
    send(res, toTrafficView(await liftThrottle(deps, principal(req), pathParam(req, 'id'))));
  });
  router.post('/instances/:id/traffic/allowance', async (req, res) => {
    const { addGiB } = parseBody(addAllowanceBody, req);
    send(res, toTrafficView(await addTrafficAllowance(deps, principal(req), pathParam(req, 'id'), addGiB)));
  });
  return router;
}
