import client from 'prom-client';

/**
 * Prometheus metrics of every kind of process. Everything lives in prom-client's default
 * registry, which GET /metrics serves.
 */
export const metricsRegistry = client.register;

const DEFAULT_METRICS_MARK = Symbol.for('pve-control-plane.default-metrics');
const globalMarks = globalThis as unknown as Record<symbol, boolean>;
if (!globalMarks[DEFAULT_METRICS_MARK]) {
  globalMarks[DEFAULT_METRICS_MARK] = true;
  client.collectDefaultMetrics({ register: metricsRegistry });
}

/** Returns the registered metric of that name, or registers it: safe when a module loads twice. */
function existing<T>(name: string): T | undefined {
  return metricsRegistry.getSingleMetric(name) as T | undefined;
}

export function histogram<L extends string>(config: client.HistogramConfiguration<L>): client.Histogram<L> {
  return existing<client.Histogram<L>>(config.name) ?? new client.Histogram<L>({ ...config, registers: [metricsRegistry] });
}

export function counter<L extends string>(config: client.CounterConfiguration<L>): client.Counter<L> {
  return existing<client.Counter<L>>(config.name) ?? new client.Counter<L>({ ...config, registers: [metricsRegistry] });
}
