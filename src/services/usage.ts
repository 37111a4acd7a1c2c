import { AppError } from '../domain/errors';
import { ProxmoxError, type VmRrdPoint } from '../proxmox';
import type { ProxmoxClientFactory } from '../proxmox/factory';
import type { ServiceDeps } from './deps';
import { findInstance } from './instances';
import type { Principal } from './principal';

export type UsageTimeframe = 'hour' | 'day' | 'week';

export interface Usage {
  timeframe: UsageTimeframe;
  /** Seconds between two points. */
  stepSeconds: number;
  points: VmRrdPoint[];
}

/**
 * The step of Proxmox VE 9's round-robin database per time frame. Releases differ (8.x keeps the
 * day in 30-minute and the week in 3-hour steps), so an answer's own points say what its step is.
 */
const STEP_SECONDS: Record<UsageTimeframe, number> = { hour: 60, day: 60, week: 1_800 };

/** The seconds between an answer's points, or the time frame's usual step when it has fewer than two. */
function stepOf(points: VmRrdPoint[], timeframe: UsageTimeframe): number {
  const [first, second] = points;
  return first && second ? second.time - first.time : STEP_SECONDS[timeframe];
}

/**
 * The points of the server's own life on its VMID: Proxmox keeps a VMID's round-robin database
 * when its guest is destroyed and writes the next guest of that VMID into it, so a point that
 * averages any moment before the server took the VMID (`vmidSince`) may hold an earlier guest's
 * usage and keeps only its time. A migration, a rebuild or a restore in place keeps the server's
 * VMID and so its history; a restore as a new server is a new server on a VMID of its own.
 */
function ownPoints(points: VmRrdPoint[], stepSeconds: number, vmidSince: Date | null): VmRrdPoint[] {
  if (vmidSince === null) return points;
  const since = vmidSince.getTime() / 1000;
  return points.map((point) => (point.time - stepSeconds >= since ? point : { time: point.time }));
}

type UsageCache = Map<string, { until: number; answer: Promise<Usage> }>;
/** One cache per process's Proxmox clients (an API), by server and time frame. */
const caches = new WeakMap<ProxmoxClientFactory, UsageCache>();

function cacheOf(proxmox: ProxmoxClientFactory): UsageCache {
  let cache = caches.get(proxmox);
  if (!cache) {
    cache = new Map();
    caches.set(proxmox, cache);
  }
  return cache;
}

/**
 * A server's usage graphs, read from Proxmox VE (rrddata) and kept `METRICS_CACHE_SECONDS` per
 * server and time frame; viewers asking while a read is under way share it, so a page full of
 * viewers costs one Proxmox read. Only the server's owner (or an admin) gets past the lookup, and
 * only points of the server's own life on its VMID carry values.
 */
export async function readUsage(deps: Pick<ServiceDeps, 'db' | 'config' | 'logger' | 'proxmox'>, who: Principal, instanceId: string, timeframe: UsageTimeframe): Promise<Usage> {
  const instance = await findInstance(deps, who, instanceId);
  const { node, vmid } = instance;
  const stepSeconds = STEP_SECONDS[timeframe];
  if (instance.status === 'deleted' || node === null || vmid === null) return { timeframe, stepSeconds, points: [] };
  const cache = cacheOf(deps.proxmox);
  const key = `${instanceId}:${timeframe}`;
  const now = Date.now();
  const cached = cache.get(key);
  if (cached && cached.until > now) return cached.answer;
  for (const [stale, entry] of cache) if (entry.until <= now) cache.delete(stale);
  const answer = deps
    .proxmox(instance.connection)
    .guests.usage(node, vmid, timeframe)
    .then((points): Usage => {
      const step = stepOf(points, timeframe);
      return { timeframe, stepSeconds: step, points: ownPoints(points, step, instance.vmidSince) };
    })
    .catch((error: unknown) => {
      cache.delete(key);
      // A guest not cloned yet (or gone) has no history; anything else is Proxmox being out of reach.
      if (error instanceof ProxmoxError && error.isNotFound) return { timeframe, stepSeconds, points: [] };
      deps.logger.warn({ instanceId, error: error instanceof Error ? error.message : String(error) }, 'usage read from Proxmox VE failed');
      throw new AppError('PROVIDER_UNAVAILABLE', "The server's usage could not be read right now. Please retry.");
    });
  cache.set(key, { until: now + deps.config.METRICS_CACHE_SECONDS * 1000, answer });
  return answer;
}
