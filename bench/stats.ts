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

/** User + system CPU seconds of a process so far (null once it is gone). */
export function cpuSecondsOf(pid: number): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** The PostgreSQL server's processes on this machine (the postmaster and every backend). */
export function postgresPids(): number[] {
  return fs.readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      return fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres' ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

/**
 * CPU milliseconds each group of processes spends from now until the returned function is
 * called. A group is read again at the end (backends come and go): a process that ended
 * meanwhile is missing from the figure, one that started counts from its start.
 */
export function cpuMeter(groups: Record<string, () => number[]>): () => Record<string, number> {
  const seconds = (pids: number[]) => new Map(pids.map((pid) => [pid, cpuSecondsOf(pid) ?? 0]));
  const before = Object.fromEntries(Object.entries(groups).map(([name, pids]) => [name, seconds(pids())]));
  const self = process.cpuUsage();
  return () => {
    const used = Object.fromEntries(
      Object.entries(groups).map(([name, pids]) => {
        let total = 0;
        for (const [pid, now] of seconds(pids())) total += now - (before[name]?.get(pid) ?? 0);
        return [name, round(total * 1000)];
      }),
    );
    const own = process.cpuUsage(self);
    return { ...used, bench: round((own.user + own.system) / 1000) };
  };
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
