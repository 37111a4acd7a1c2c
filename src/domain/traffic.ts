/**
 * Traffic counting rules: what a sample of a guest's counters adds, the billing period a moment
 * falls in, what counts against an allowance, and the NIC rate a throttle in megabits means.
 */

export const GIB = 1n << 30n;
const HOUR_MS = 3_600_000;

/** A guest's counters as /cluster/resources shows them (bytes since its QEMU process started). */
export interface CounterReading {
  node: string;
  vmid: number;
  netin: bigint;
  netout: bigint;
  /** Seconds up. */
  uptime: number;
  at: Date;
}

/**
 * How far a guest's uptime may fall behind the clock between two samples before the sampler takes
 * it for a new QEMU process: the two reads are timed on our side, not Proxmox's.
 */
export const UPTIME_SLACK_SECONDS = 5;

/**
 * What a guest moved since the previous reading. A counter or the uptime going back (beyond the
 * slack), another node or VMID: a new QEMU process, whose counters started from zero, so all of
 * them is new. What the old process moved after the previous reading is lost: at most one interval.
 * Never negative, and a reading equal to the previous one adds nothing.
 */
export function counterDelta(previous: CounterReading | null, current: CounterReading): { inBytes: bigint; outBytes: bigint; reset: boolean } {
  const fresh = { inBytes: current.netin, outBytes: current.netout, reset: true };
  if (!previous) return { ...fresh, reset: false };
  const elapsed = Math.max(0, (current.at.getTime() - previous.at.getTime()) / 1000);
  const restarted =
    current.node !== previous.node ||
    current.vmid !== previous.vmid ||
    current.netin < previous.netin ||
    current.netout < previous.netout ||
    current.uptime < previous.uptime ||
    (previous.uptime > 0 && current.uptime + UPTIME_SLACK_SECONDS < previous.uptime + elapsed);
  if (restarted) return fresh;
  return { inBytes: current.netin - previous.netin, outBytes: current.netout - previous.netout, reset: false };
}

/** Start of the UTC hour `at` lies in. */
export function hourOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
}

/**
 * Spreads bytes moved from `from` to `to` over the UTC hours they span, in proportion to the time
 * in each (the remainder to the last hour), so every byte lands in exactly one hour.
 */
export function spreadOverHours(from: Date, to: Date, inBytes: bigint, outBytes: bigint): { hour: Date; inBytes: bigint; outBytes: bigint }[] {
  const start = Math.min(from.getTime(), to.getTime());
  const end = to.getTime();
  const span = BigInt(Math.max(1, end - start));
  const hours: { hour: Date; inBytes: bigint; outBytes: bigint }[] = [];
  let [givenIn, givenOut] = [0n, 0n];
  for (let h = hourOf(new Date(start)).getTime(); ; h += HOUR_MS) {
    const last = h + HOUR_MS >= end;
    const share = BigInt(Math.min(end, h + HOUR_MS) - Math.max(start, h));
    const part = last ? { inBytes: inBytes - givenIn, outBytes: outBytes - givenOut } : { inBytes: (inBytes * share) / span, outBytes: (outBytes * share) / span };
    givenIn += part.inBytes;
    givenOut += part.outBytes;
    if (part.inBytes > 0n || part.outBytes > 0n || last) hours.push({ hour: new Date(h), ...part });
    if (last) break;
  }
  return hours;
}

export type BillingPeriodKind = 'calendar_month' | 'anniversary';

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/** The anniversary in a month: the anchor's day and time of day, on the month's last day when it is shorter. */
function anniversaryIn(anchor: Date, year: number, month: number): Date {
  const day = Math.min(anchor.getUTCDate(), daysIn(year, month));
  return new Date(Date.UTC(year, month, day, anchor.getUTCHours(), anchor.getUTCMinutes(), anchor.getUTCSeconds(), anchor.getUTCMilliseconds()));
}

/**
 * The billing period `at` falls in: the calendar month in UTC, or the month from the server's own
 * anniversary (`anchor`: when it was created, to the hour; on a shorter month, its last day).
 */
export function billingPeriodAt(kind: BillingPeriodKind, anchor: Date, at: Date): { start: Date; end: Date } {
  const [year, month] = [at.getUTCFullYear(), at.getUTCMonth()];
  if (kind === 'calendar_month') return { start: new Date(Date.UTC(year, month, 1)), end: new Date(Date.UTC(year, month + 1, 1)) };
  // Periods run from the hour the server was created: hour totals add up to them exactly.
  anchor = hourOf(anchor);
  const here = anniversaryIn(anchor, year, month);
  return here <= at ? { start: here, end: anniversaryIn(anchor, year, month + 1) } : { start: anniversaryIn(anchor, year, month - 1), end: here };
}

/** The period that begins in the calendar month `YYYY-MM` (for a calendar-month plan: that month). */
export function billingPeriodOfMonth(kind: BillingPeriodKind, anchor: Date, month: string): { start: Date; end: Date } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  if (kind === 'calendar_month') return { start: new Date(Date.UTC(y, m - 1, 1)), end: new Date(Date.UTC(y, m, 1)) };
  return { start: anniversaryIn(hourOf(anchor), y, m - 1), end: anniversaryIn(hourOf(anchor), y, m) };
}

export type TrafficCountedKind = 'out' | 'in_out' | 'max';

/** The bytes that count against an allowance. */
export function countedBytes(kind: TrafficCountedKind, inBytes: bigint, outBytes: bigint): bigint {
  if (kind === 'out') return outBytes;
  if (kind === 'in_out') return inBytes + outBytes;
  return inBytes > outBytes ? inBytes : outBytes;
}

/** The thresholds, percent of the allowance, that send `instance.traffic_threshold` once a period each. */
export const TRAFFIC_THRESHOLDS = [80, 100] as const;

/** The thresholds `counted` has reached of `allowance` bytes. */
export function thresholdsReached(counted: bigint, allowance: bigint): (typeof TRAFFIC_THRESHOLDS)[number][] {
  return TRAFFIC_THRESHOLDS.filter((percent) => counted * 100n >= allowance * BigInt(percent));
}

/** Percent of the allowance used, one decimal; null when unmetered. */
export function percentUsed(counted: bigint, allowance: bigint | null): number | null {
  if (allowance === null) return null;
  if (allowance === 0n) return counted > 0n ? 100 : 0;
  return Number((counted * 1000n) / allowance) / 10;
}

/**
 * Proxmox's NIC `rate` for a throttle of `mbps` megabits per second. `rate` is in megabytes per
 * second and Proxmox shapes at `rate * 1024 * 1024` bytes/s (pve-common, PVE/Network.pm
 * `tap_rate_limit`): 10 Mbit/s = 1,250,000 bytes/s = 1.192 MB/s. Rounded down to the three
 * decimals Proxmox keeps, never above the throttle.
 */
export function nicRateForMbps(mbps: number): number {
  const bytesPerSecond = (mbps * 1_000_000) / 8;
  return Math.floor((bytesPerSecond / (1024 * 1024)) * 1000) / 1000;
}

/** The `rate=` of a Proxmox NIC line, or null without one. */
export function nicRateOf(line: string): number | null {
  const match = /(?:^|,)rate=([0-9.]+)(?:,|$)/.exec(line);
  return match?.[1] ? Number(match[1]) : null;
}

/** A NIC line with `rate` set to `rate` (null: removed), every other part kept in place. */
export function withNicRate(line: string, rate: number | null): string {
  const parts = line.split(',').filter((part) => !part.startsWith('rate='));
  return rate === null ? parts.join(',') : [...parts, `rate=${rate}`].join(',');
}
