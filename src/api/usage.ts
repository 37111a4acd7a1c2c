import { proxmoxClientFactory } from '../proxmox/factory';
import { AppError } from '../domain/errors';
import { ProxmoxError, type VmRrdPoint } from '../proxmox';
import type { Principal } from './auth';
import type { ApiDeps } from './deps';
import { findInstance } from './instance-lookup';
import type { MetricsTimeframe, MetricsView } from './schemas/usage';

/**
 * The step of Proxmox VE 9's round-robin database per time frame. Releases differ (8.x keeps the
 * day in 30-minute and the week in 3-hour steps), so an answer's own points say what its step is.
 */
const STEP_SECONDS: Record<MetricsTimeframe, number> = { hour: 60, day: 60, week: 1_800 };

/** The seconds between an answer's points, or the time frame's usual step when it has fewer than two. */
function stepOf(points: VmRrdPoint[], timeframe: MetricsTimeframe): number {
  const [first, second] = points;
  return first && second ? second.time - first.time : STEP_SECONDS[timeframe];
}
/** A page's graphs wait a few seconds at most: a person is looking at them. */
const READ_TIMEOUT_MS = 5_000;

const orNull = (value: number | undefined) => (value === undefined || !Number.isFinite(value) ? null : value);

export function toMetricsPoint(point: VmRrdPoint): MetricsView['points'][number] {
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

/**
 * A server's usage graphs, read from Proxmox VE (rrddata) and kept `METRICS_CACHE_SECONDS` per
 * server and time frame; viewers asking while a read is under way share it, so a page full of
 * viewers costs one Proxmox read. Only the server's owner (or an admin) gets past the lookup.
 */
export function metricsReader(deps: ApiDeps): (who: Principal, instanceId: string, timeframe: MetricsTimeframe) => Promise<MetricsView> {
  const proxmox = proxmoxClientFactory(deps.secrets, READ_TIMEOUT_MS);
  const cache = new Map<string, { until: number; answer: Promise<MetricsView> }>();
  const ttlMs = deps.config.METRICS_CACHE_SECONDS * 1000;

  const forget = (now: number) => {
    for (const [key, entry] of cache) if (entry.until <= now) cache.delete(key);
  };

  return async (who, instanceId, timeframe) => {
    const instance = await findInstance(deps.db, who, instanceId);
    const { node, vmid } = instance;
    const stepSeconds = STEP_SECONDS[timeframe];
    if (instance.status === 'deleted' || node === null || vmid === null) return { timeframe, stepSeconds, points: [] };
    const key = `${instanceId}:${timeframe}`;
    const now = Date.now();
    const cached = cache.get(key);
    if (cached && cached.until > now) return cached.answer;
    forget(now);
    const answer = proxmox(instance.connection)
      .guests.usage(node, vmid, timeframe)
      .then((points): MetricsView => ({ timeframe, stepSeconds: stepOf(points, timeframe), points: points.map(toMetricsPoint) }))
      .catch((error: unknown) => {
        cache.delete(key);
        // A guest not cloned yet (or gone) has no history; anything else is Proxmox being out of reach.
        if (error instanceof ProxmoxError && error.isNotFound) return { timeframe, stepSeconds, points: [] };
        deps.logger.warn({ instanceId, error: error instanceof Error ? error.message : String(error) }, 'usage read from Proxmox VE failed');
        throw new AppError('PROVIDER_UNAVAILABLE', "The server's usage could not be read right now. Please retry.");
      });
    cache.set(key, { until: now + ttlMs, answer });
    return answer;
  };
}
