/** Small measuring tools shared by the phases. */
import fs from 'node:fs';

/** Nearest-rank percentile of ascending values. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
export const mib = (bytes: number) => round(bytes / 1024 / 1024);

export interface Spread {
  count: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** p50 / p90 / p99 / max of durations in milliseconds. */
export function spread(durations: number[]): Spread {
  const sorted = [...durations].sort((x, y) => x - y);
  return {
    count: sorted.length,
    p50Ms: round(percentile(sorted, 50)),
    p90Ms: round(percentile(sorted, 90)),
    p99Ms: round(percentile(sorted, 99)),
    maxMs: round(sorted[sorted.length - 1] ?? Number.NaN),
  };
}

/** Runs `count` jobs on `concurrency` clients; each client takes the next job when its last one ends. */
export async function runClients<T>(count: number, concurrency: number, job: (index: number, client: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  const client = async (id: number) => {
    while (next < count) {
      const index = next++;
      results[index] = await job(index, id);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, (_, id) => client(id)));
  return results;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Current (VmRSS) and peak (VmHWM) resident memory of a process in bytes (Linux), or null. */
export function residentMemoryOf(pid: number | undefined): { rss: number; peak: number } | null {
  if (!pid) return null;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
    const memory = { rss: kib('VmRSS'), peak: kib('VmHWM') };
    return Number.isNaN(memory.peak) ? null : memory;
  } catch {
    return null;
  }
}

/** Waits until `check` answers a value, polling every `everyMs`; throws after `timeoutMs` naming `what`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, everyMs: number, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
    await sleep(everyMs);
  }
}
