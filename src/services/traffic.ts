/**
 * A server's traffic in a billing period, and what an operator may do about its allowance: lift
 * the throttle for the rest of the period, or add allowance to it (both audited).
 */
import { recordAudit } from '../db/audit';
import { allowanceBytes, periodRows, unthrottled } from '../db/traffic-periods';
import { periodTotals } from '../db/traffic-samples';
import { AppError } from '../domain/errors';
import { billingPeriodAt, billingPeriodOfMonth, countedBytes, percentUsed, thresholdsReached } from '../domain/traffic';
import type { TrafficEventFigures } from '../domain/events';
import type { ServiceDeps } from './deps';
import { findInstance } from './instances';
import { requestOperation, type OperationDeps } from './operations';
import type { Principal } from './principal';
import { startApplyThrottle } from '../temporal/starts';

const DAY_MS = 86_400_000;
/** What operators may add to one period in all, GiB. */
const MAX_EXTRA_GIB = 10_000_000;

export interface TrafficReport {
  period: { start: Date; end: Date; current: boolean };
  inBytes: bigint;
  outBytes: bigint;
  countedBytes: bigint;
  counted: 'out' | 'in_out' | 'max';
  allowanceBytes: bigint | null;
  extraAllowanceGiB: number;
  percent: number | null;
  overage: 'throttle' | 'none';
  throttle: { since: Date; mbps: number; until: Date | null } | null;
  liftedAt: Date | null;
  /** When the counters were last read (null: never yet). */
  sampledAt: Date | null;
  daily: { date: string; inBytes: bigint; outBytes: bigint }[];
}

/** `current`, or the period that begins in a calendar month `YYYY-MM`. */
export type TrafficPeriodChoice = 'current' | `${number}-${number}`;

/** A server's traffic in a billing period, with a day-by-day series for a graph (UTC days). */
export async function readTraffic(deps: Pick<ServiceDeps, 'db'>, who: Principal, instanceId: string, choice: TrafficPeriodChoice): Promise<TrafficReport> {
  const instance = await findInstance(deps, who, instanceId);
  const { plan } = instance;
  const now = new Date();
  const current = billingPeriodAt(plan.billingPeriod, instance.createdAt, now);
  const period = choice === 'current' ? current : billingPeriodOfMonth(plan.billingPeriod, instance.createdAt, choice);
  const [hours, row, counter] = await Promise.all([
    deps.db.usageHour.findMany({ where: { instanceId, hour: { gte: period.start, lt: period.end } }, select: { hour: true, inBytes: true, outBytes: true }, orderBy: { hour: 'asc' } }),
    deps.db.trafficPeriod.findUnique({ where: { instanceId_periodStart: { instanceId, periodStart: period.start } } }),
    deps.db.trafficCounter.findUnique({ where: { instanceId }, select: { sampledAt: true } }),
  ]);
  const sum = (pick: (h: (typeof hours)[number]) => bigint) => hours.reduce((total, h) => total + pick(h), 0n);
  const [inBytes, outBytes] = [sum((h) => h.inBytes), sum((h) => h.outBytes)];
  const counted = countedBytes(plan.trafficCounted, inBytes, outBytes);
  const extra = row?.extraAllowanceGiB ?? 0;
  const allowance = allowanceBytes(plan.trafficAllowanceGiB, extra);
  const daily = new Map<string, { date: string; inBytes: bigint; outBytes: bigint }>();
  const lastDay = Math.min(period.end.getTime(), Math.max(now.getTime(), period.start.getTime() + 1));
  for (let day = Math.floor(period.start.getTime() / DAY_MS) * DAY_MS; day < lastDay; day += DAY_MS) {
    const date = new Date(day).toISOString().slice(0, 10);
    daily.set(date, { date, inBytes: 0n, outBytes: 0n });
  }
  for (const h of hours) {
    const entry = daily.get(h.hour.toISOString().slice(0, 10));
    if (!entry) continue;
    entry.inBytes += h.inBytes;
    entry.outBytes += h.outBytes;
  }
  const isCurrent = period.start.getTime() === current.start.getTime();
  return {
    period: { ...period, current: isCurrent },
    inBytes,
    outBytes,
    countedBytes: counted,
    counted: plan.trafficCounted,
    allowanceBytes: allowance,
    extraAllowanceGiB: extra,
    percent: percentUsed(counted, allowance),
    overage: plan.trafficOverage,
    throttle: isCurrent && instance.throttleMbps !== null && instance.throttledAt ? { since: instance.throttledAt, mbps: instance.throttleMbps, until: instance.throttleUntil } : null,
    liftedAt: row?.liftedAt ?? null,
    sampledAt: counter?.sampledAt ?? null,
    daily: [...daily.values()],
  };
}

/**
 * The server's NICs brought to the rate its throttle asks for now, as its `throttle` operation
 * (or `unthrottle`, when it asks for none): a task with its step thread, ending with
 * `instance.throttled` / `instance.unthrottled`, which carry the billing period's figures.
 * Refused like any operation while another holds the server (OPERATION_IN_PROGRESS): the
 * ApplyThrottle workflow asks again until it passes.
 */
export async function requestThrottleOperation(deps: OperationDeps, who: Principal, instanceId: string): Promise<string> {
  const report = await readTraffic(deps, who, instanceId, 'current');
  const throttleMbps = report.throttle?.mbps ?? null;
  const traffic: TrafficEventFigures = {
    periodStart: report.period.start.toISOString(),
    periodEnd: report.period.end.toISOString(),
    countedBytes: Number(report.countedBytes),
    allowanceBytes: report.allowanceBytes === null ? null : Number(report.allowanceBytes),
    percent: report.percent,
    ...(throttleMbps === null ? {} : { throttleMbps }),
  };
  // The operation writes whatever rate the server asks for when it runs; its name says which way the decision went.
  const { taskId } = (await requestOperation(deps, who, instanceId, { operation: throttleMbps === null ? 'unthrottle' : 'throttle', prepare: async () => ({ params: { throttle: { traffic } } }) })) as { taskId: string };
  return taskId;
}

/**
 * Starts the server's ApplyThrottle (one per server: a start while one runs joins it), which asks
 * for its throttle or unthrottle operation as `who`: the operator who changed its period, or the
 * system when the reconciler finds the throttle differ from the one last applied.
 */
export async function askForNicRate(deps: Pick<ServiceDeps, 'temporal' | 'config'>, who: Principal, instanceId: string): Promise<void> {
  await startApplyThrottle(deps.temporal, deps.config, { instanceId, ...(who.userId ? { actorUserId: who.userId } : {}) });
}

/** An operator's change that released the throttle: its unthrottle operation asked for, now or by the reconciler's next pass. */
async function applyNicRate(deps: Pick<ServiceDeps, 'temporal' | 'config' | 'logger'>, who: Principal, instanceId: string): Promise<void> {
  // The release is committed: should this start fail, the reconciler sees the rate applied differ from the throttle and asks again.
  await askForNicRate(deps, who, instanceId).catch((error: unknown) => deps.logger.warn({ err: error, instanceId }, 'could not ask for the unthrottle operation now; the reconciler will'));
}

/**
 * An operator's change to a server's current billing period, in one transaction under the
 * instance's row lock: lifts the throttle for the rest of the period, or adds allowance (which
 * lifts the throttle when the server is back under 100%, and lets a threshold no longer reached
 * be sent again when it is).
 */
async function changePeriod(
  deps: Pick<ServiceDeps, 'db' | 'temporal' | 'config' | 'logger'>,
  who: Principal,
  instanceId: string,
  change: { lift: true } | { addGiB: number },
): Promise<TrafficReport> {
  const instance = await findInstance(deps, who, instanceId);
  const now = new Date();
  const period = billingPeriodAt(instance.plan.billingPeriod, instance.createdAt, now);
  const released = await deps.db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM instances WHERE id = ${instanceId} FOR UPDATE`;
    const locked = await tx.instance.findUniqueOrThrow({ where: { id: instanceId } });
    await periodRows(tx, [{ instanceId, ...period }]);
    const key = { instanceId_periodStart: { instanceId, periodStart: period.start } };
    const subject = { tenantId: locked.tenantId, instanceId };
    let release = 'lift' in change;
    if ('lift' in change) {
      await tx.trafficPeriod.update({ where: key, data: { liftedAt: now } });
      await recordAudit(tx, { action: 'instance.throttle_lifted', ...subject, actorUserId: who.userId, details: { periodStart: period.start.toISOString(), wasThrottled: locked.throttleMbps !== null } });
    } else {
      const before = await tx.trafficPeriod.findUniqueOrThrow({ where: key });
      if (before.extraAllowanceGiB + change.addGiB > MAX_EXTRA_GIB) {
        throw new AppError('INVALID_INPUT', 'The request body is invalid.', { fields: { addGiB: `at most ${MAX_EXTRA_GIB} GiB may be added to one period` } });
      }
      const row = await tx.trafficPeriod.update({ where: key, data: { extraAllowanceGiB: { increment: change.addGiB } } });
      const totals = (await periodTotals(tx, [{ instanceId, ...period }])).get(instanceId) ?? { inBytes: 0n, outBytes: 0n };
      const allowance = allowanceBytes(instance.plan.trafficAllowanceGiB, row.extraAllowanceGiB);
      const reached = allowance === null ? [] : thresholdsReached(countedBytes(instance.plan.trafficCounted, totals.inBytes, totals.outBytes), allowance);
      await tx.trafficPeriod.update({ where: key, data: { ...(reached.includes(80) ? {} : { warnedAt: null }), ...(reached.includes(100) ? {} : { exceededAt: null }) } });
      await recordAudit(tx, { action: 'instance.traffic_allowance_added', ...subject, actorUserId: who.userId, details: { addedGiB: change.addGiB, extraAllowanceGiB: row.extraAllowanceGiB, periodStart: period.start.toISOString() } });
      release = !reached.includes(100);
    }
    if (!release || locked.throttleMbps === null) return false;
    await tx.instance.update({ where: { id: instanceId }, data: { throttleMbps: null, throttledAt: null, throttleUntil: null } });
    await unthrottled(tx, { id: instanceId, tenantId: locked.tenantId }, { reason: 'lift' in change ? 'lifted' : 'allowance_added' }, who.userId);
    return true;
  });
  if (released) await applyNicRate(deps, who, instanceId);
  return readTraffic(deps, who, instanceId, 'current');
}

export const liftThrottle = (deps: Pick<ServiceDeps, 'db' | 'temporal' | 'config' | 'logger'>, who: Principal, instanceId: string) => changePeriod(deps, who, instanceId, { lift: true });

export function addTrafficAllowance(deps: Pick<ServiceDeps, 'db' | 'temporal' | 'config' | 'logger'>, who: Principal, instanceId: string, addGiB: number): Promise<TrafficReport> {
  if (!Number.isInteger(addGiB) || addGiB <= 0) throw new AppError('INVALID_INPUT', 'The request body is invalid.', { fields: { addGiB: 'a positive whole number of GiB' } });
  return changePeriod(deps, who, instanceId, { addGiB });
}
