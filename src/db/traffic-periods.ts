/**
 * Billing periods of metered servers: thresholds crossed (each once a period: the marker is set
 * only where it was unset), throttles begun at 100% and ended when the period does. Events and
 * audit rows are written in the transaction that sets the marker.
 */
import type { TrafficEventFigures } from '../domain/events';
import { billingPeriodAt, countedBytes, GIB, percentUsed, thresholdsReached, type BillingPeriodKind, type TrafficCountedKind } from '../domain/traffic';
import { Prisma } from '../generated/prisma/client';
import { recordAudit } from './audit';
import { runSql, type Tx } from './client';
import { appendEvents } from './events';
import { periodTotals } from './traffic-samples';

export interface MeteredServer {
  id: string;
  tenantId: string;
  hostname: string;
  status: string;
  createdAt: Date;
  trafficAllowanceGiB: number | null;
  trafficCounted: TrafficCountedKind;
  trafficOverage: 'throttle' | 'none';
  planThrottleMbps: number | null;
  billingPeriod: BillingPeriodKind;
  throttleMbps: number | null;
}

/** The period's row (made on first need) as it stands. */
export async function periodRows(tx: Tx, keys: { instanceId: string; start: Date; end: Date }[]) {
  if (keys.length === 0) return new Map<string, PeriodRow>();
  const values = keys.map((k) => Prisma.sql`(${k.instanceId}, ${k.start}::timestamp(3), ${k.end}::timestamp(3))`);
  await runSql(tx, Prisma.sql`INSERT INTO traffic_periods ("instanceId", "periodStart", "periodEnd") VALUES ${Prisma.join(values)} ON CONFLICT DO NOTHING`);
  const rows = await runSql<PeriodRow>(
    tx,
    Prisma.sql`SELECT t."instanceId", t."extraAllowanceGiB", t."warnedAt", t."exceededAt", t."liftedAt" FROM traffic_periods t
                JOIN (VALUES ${Prisma.join(values)}) AS k (id, start, finish) ON t."instanceId" = k.id AND t."periodStart" = k.start`,
  );
  return new Map(rows.map((row) => [row.instanceId, row]));
}

interface PeriodRow {
  instanceId: string;
  extraAllowanceGiB: number;
  warnedAt: Date | null;
  exceededAt: Date | null;
  liftedAt: Date | null;
}

/** Allowance in bytes: the plan's and what an operator added for the period; null: unmetered. */
export const allowanceBytes = (planGiB: number | null, extraGiB: number): bigint | null => (planGiB === null ? null : BigInt(planGiB + extraGiB) * GIB);

/**
 * Looks at each metered server's period after a sample: 80% and 100% send
 * `instance.traffic_threshold` once; 100% on a throttling plan (not lifted) throttles. Answers the
 * servers whose NIC rate must change.
 */
export async function settleThresholds(tx: Tx, servers: MeteredServer[], at: Date): Promise<string[]> {
  const metered = servers.filter((s) => s.trafficAllowanceGiB !== null);
  if (metered.length === 0) return [];
  const periods = metered.map((s) => ({ server: s, ...billingPeriodAt(s.billingPeriod, s.createdAt, at) }));
  const keys = periods.map((p) => ({ instanceId: p.server.id, start: p.start, end: p.end }));
  const [rows, totals] = [await periodRows(tx, keys), await periodTotals(tx, keys)];
  const toApply: string[] = [];
  for (const { server, start, end } of periods) {
    const row = rows.get(server.id);
    const total = totals.get(server.id);
    if (!row || !total) continue;
    const allowance = allowanceBytes(server.trafficAllowanceGiB, row.extraAllowanceGiB) as bigint;
    const counted = countedBytes(server.trafficCounted, total.inBytes, total.outBytes);
    const figures: TrafficEventFigures = { periodStart: start.toISOString(), periodEnd: end.toISOString(), countedBytes: Number(counted), allowanceBytes: Number(allowance), percent: percentUsed(counted, allowance) };
    const subject = { tenantId: server.tenantId, instanceId: server.id };
    const data = { status: server.status, hostname: server.hostname };
    for (const threshold of thresholdsReached(counted, allowance)) {
      const marker = threshold === 80 ? Prisma.raw('"warnedAt"') : Prisma.raw('"exceededAt"');
      const marked = await runSql(
        tx,
        Prisma.sql`UPDATE traffic_periods SET ${marker} = ${at} WHERE "instanceId" = ${server.id} AND "periodStart" = ${start} AND ${marker} IS NULL RETURNING "instanceId"`,
      );
      if (marked.length > 0) await appendEvents(tx, subject, [{ type: 'instance.traffic_threshold', data: { ...data, traffic: { ...figures, threshold } } }]);
    }
    const throttles = server.trafficOverage === 'throttle' && server.planThrottleMbps !== null && row.liftedAt === null;
    if (!throttles || counted < allowance || server.throttleMbps !== null) continue;
    const mbps = server.planThrottleMbps as number;
    const begun = await runSql(
      tx,
      Prisma.sql`UPDATE instances SET "throttleMbps" = ${mbps}, "throttledAt" = ${at}, "throttleUntil" = ${end} WHERE id = ${server.id} AND "throttleMbps" IS NULL RETURNING id`,
    );
    if (begun.length === 0) continue;
    // The event `instance.throttled` is the throttle operation's, once the NICs hold the rate.
    await recordAudit(tx, { action: 'instance.throttled', ...subject, details: { throttleMbps: mbps, until: end.toISOString(), countedBytes: Number(counted), allowanceBytes: Number(allowance) } });
    toApply.push(server.id);
  }
  return toApply;
}

/** Ends the throttles whose period is over; answers the servers whose NIC rate must go. */
export async function endThrottles(tx: Tx, connectionId: string, at: Date): Promise<string[]> {
  const ended = await runSql<{ id: string; tenantId: string; until: Date }>(
    tx,
    Prisma.sql`
      WITH due AS (SELECT id, "throttleUntil" AS until FROM instances
                    WHERE "connectionId" = ${connectionId} AND "throttleMbps" IS NOT NULL AND "throttleUntil" <= ${at} FOR UPDATE)
      UPDATE instances i SET "throttleMbps" = NULL, "throttledAt" = NULL, "throttleUntil" = NULL FROM due WHERE i.id = due.id
      RETURNING i.id, i."tenantId", due.until`,
  );
  for (const server of ended) await unthrottled(tx, server, { reason: 'period_ended', periodEnd: server.until.toISOString() });
  return ended.map((server) => server.id);
}

/** Records that a throttle ended (the audit row); the event `instance.unthrottled` is the unthrottle operation's, once the NICs lost the rate. */
export async function unthrottled(tx: Tx, server: { id: string; tenantId: string }, details: Record<string, string>, actorUserId: string | null = null): Promise<void> {
  await recordAudit(tx, { action: 'instance.unthrottled', tenantId: server.tenantId, instanceId: server.id, actorUserId, details });
}
