/**
 * Usage records for billing: one per server per UTC hour of its life (two where a resize changed
 * its plan within the hour, split at that moment), in server and hour order. Each record says the
 * seconds it covers under its plan, the state the sampler saw (running; stopped; exists: no sample
 * of a guest in that hour), what the server held at the hour's last sample, and the traffic counted
 * in the hour. A record is final once the sample after its hour has been taken (or the server is
 * gone); until then it is open and may still grow. Final records never change.
 */
import { runSql } from '../db/client';
import { AppError } from '../domain/errors';
import { Prisma } from '../generated/prisma/client';
import { hourOf } from '../domain/traffic';
import type { ServiceDeps } from './deps';
import type { Principal } from './principal';

const HOUR_MS = 3_600_000;

export interface UsageRecord {
  instanceId: string;
  tenantId: string;
  hostname: string;
  hour: Date;
  /** The record's place in its hour: 0, or 1 after a resize within it. */
  part: number;
  planId: string;
  planName: string;
  seconds: number;
  state: 'running' | 'stopped' | 'exists';
  addresses: number;
  inBytes: bigint;
  outBytes: bigint;
  backupBytes: bigint;
  snapshotCount: number;
  open: boolean;
}

export interface UsageQuery {
  from: Date;
  to: Date;
  tenantId?: string;
}

/** Where a page ends: the last record's server, hour and part. */
export interface UsageCursor {
  instanceId: string;
  hour: Date;
  part: number;
}

/** Servers read per batch while records are made. */
const SERVER_BATCH = 100;

/** The range a caller may ask for: whole hours, `from` before `to`, at most a year. */
export function checkedRange(from: Date, to: Date): UsageQuery {
  if (from.getTime() % HOUR_MS !== 0 || to.getTime() % HOUR_MS !== 0) throw new AppError('INVALID_INPUT', 'The query is invalid.', { fields: { from: 'from and to are whole UTC hours' } });
  if (to <= from) throw new AppError('INVALID_INPUT', 'The query is invalid.', { fields: { to: 'to must be after from' } });
  if (to.getTime() - from.getTime() > 366 * 24 * HOUR_MS) throw new AppError('INVALID_INPUT', 'The query is invalid.', { fields: { to: 'at most 366 days at once' } });
  return { from, to };
}

type UsageHourRow = { instanceId: string; hour: Date; inBytes: bigint; outBytes: bigint; running: boolean; addresses: number; backupBytes: bigint; snapshotCount: number };

type Server = { id: string; tenantId: string; hostname: string; planId: string; status: string; createdAt: Date; deletedAt: Date | null; updatedAt: Date };

/** When the server stopped existing for billing: deleted, or failed (it held nothing after). */
const lifeEnd = (s: Server) => s.deletedAt ?? (s.status === 'failed' ? s.updatedAt : null);

/** The records of a batch of servers within the range, in server, hour and part order. */
async function recordsOf(deps: Pick<ServiceDeps, 'db'>, servers: Server[], q: UsageQuery, plans: Map<string, string>, now: Date): Promise<UsageRecord[]> {
  const ids = servers.map((s) => s.id);
  const [hours, changes, counters] = await Promise.all([
    // Plain rows: a month of a hundred servers is 74,400 of them.
    runSql<UsageHourRow>(
      deps.db,
      Prisma.sql`SELECT "instanceId", hour, "inBytes", "outBytes", running, addresses, "backupBytes", "snapshotCount" FROM usage_hours
                  WHERE "instanceId" = ANY(${ids}::text[]) AND hour >= ${q.from} AND hour < ${q.to}`,
    ),
    deps.db.planChange.findMany({ where: { instanceId: { in: ids } }, orderBy: { changedAt: 'asc' } }),
    deps.db.trafficCounter.findMany({ where: { instanceId: { in: ids } }, select: { instanceId: true, sampledAt: true } }),
  ]);
  const hourRows = new Map(hours.map((h) => [`${h.instanceId}@${h.hour.getTime()}`, h]));
  const sampledAt = new Map(counters.map((c) => [c.instanceId, c.sampledAt]));
  const records: UsageRecord[] = [];
  for (const server of servers) {
    const end = lifeEnd(server);
    const lifeTo = Math.min(q.to.getTime(), (end ?? now).getTime());
    const own = changes.filter((c) => c.instanceId === server.id);
    /** The plan at a moment: the plan a later change moved away from, else the current one. */
    const planAt = (t: number) => own.find((c) => c.changedAt.getTime() > t)?.fromPlanId ?? server.planId;
    for (let h = Math.max(q.from.getTime(), hourOf(server.createdAt).getTime()); h < lifeTo; h += HOUR_MS) {
      const [a, b] = [Math.max(h, server.createdAt.getTime()), Math.min(h + HOUR_MS, lifeTo)];
      if (b <= a) continue;
      const cuts = [a, ...own.map((c) => c.changedAt.getTime()).filter((t) => t > a && t < b), b];
      const row = hourRows.get(`${server.id}@${h}`);
      const seconds = cuts.slice(1).map((t, i) => Math.floor(t / 1000) - Math.floor((cuts[i] as number) / 1000));
      const total = BigInt(Math.max(1, seconds.reduce((sum, s) => sum + s, 0)));
      const hourEnd = h + HOUR_MS;
      const final = hourEnd <= now.getTime() && (end !== null || (sampledAt.get(server.id)?.getTime() ?? 0) >= hourEnd);
      let [givenIn, givenOut] = [0n, 0n];
      seconds.forEach((secs, part) => {
        const last = part === seconds.length - 1;
        const inBytes = last ? (row?.inBytes ?? 0n) - givenIn : ((row?.inBytes ?? 0n) * BigInt(secs)) / total;
        const outBytes = last ? (row?.outBytes ?? 0n) - givenOut : ((row?.outBytes ?? 0n) * BigInt(secs)) / total;
        givenIn += inBytes;
        givenOut += outBytes;
        const planId = planAt(cuts[part] as number);
        records.push({
          instanceId: server.id,
          tenantId: server.tenantId,
          hostname: server.hostname,
          hour: new Date(h),
          part,
          planId,
          planName: plans.get(planId) ?? '',
          seconds: secs,
          state: !row ? 'exists' : row.running ? 'running' : 'stopped',
          addresses: row?.addresses ?? 0,
          inBytes,
          outBytes,
          backupBytes: row?.backupBytes ?? 0n,
          snapshotCount: row?.snapshotCount ?? 0,
          open: !final,
        });
      });
    }
  }
  return records;
}

const after = (r: UsageRecord, c: UsageCursor) => r.instanceId > c.instanceId || (r.instanceId === c.instanceId && (r.hour > c.hour || (r.hour.getTime() === c.hour.getTime() && r.part > c.part)));

/**
 * The usage records of the range, batch by batch of servers (in id order), from after `cursor`.
 */
export async function* usageRecords(deps: Pick<ServiceDeps, 'db'>, q: UsageQuery, cursor?: UsageCursor): AsyncGenerator<UsageRecord> {
  const now = new Date();
  const plans = new Map((await deps.db.plan.findMany({ select: { id: true, name: true } })).map((p) => [p.id, p.name]));
  // The cursor's own server may have records left after it: it is read again.
  let ids: { gte: string } | { gt: string } | undefined = cursor ? { gte: cursor.instanceId } : undefined;
  for (;;) {
    const servers: Server[] = await deps.db.instance.findMany({
      where: {
        ...(q.tenantId ? { tenantId: q.tenantId } : {}),
        ...(ids ? { id: ids } : {}),
        createdAt: { lt: q.to },
        OR: [{ deletedAt: null }, { deletedAt: { gt: q.from } }],
      },
      select: { id: true, tenantId: true, hostname: true, planId: true, status: true, createdAt: true, deletedAt: true, updatedAt: true },
      orderBy: { id: 'asc' },
      take: SERVER_BATCH,
    });
    for (const record of await recordsOf(deps, servers, q, plans, now)) if (!cursor || after(record, cursor)) yield record;
    if (servers.length < SERVER_BATCH) return;
    ids = { gt: (servers.at(-1) as Server).id };
  }
}

/** One page of a caller's usage records: customers see their tenant's only. */
export async function usagePage(deps: Pick<ServiceDeps, 'db'>, who: Principal, q: UsageQuery, limit: number, cursor?: UsageCursor): Promise<{ records: UsageRecord[]; next: UsageCursor | null }> {
  const scoped = scope(who, q);
  const records: UsageRecord[] = [];
  for await (const record of usageRecords(deps, scoped, cursor)) {
    records.push(record);
    if (records.length > limit) break;
  }
  const more = records.length > limit;
  const page = records.slice(0, limit);
  const last = page.at(-1);
  return { records: page, next: more && last ? { instanceId: last.instanceId, hour: last.hour, part: last.part } : null };
}

/** Every usage record of the range for a caller (a CSV export). */
export function allUsageRecords(deps: Pick<ServiceDeps, 'db'>, who: Principal, q: UsageQuery): AsyncGenerator<UsageRecord> {
  return usageRecords(deps, scope(who, q));
}

function scope(who: Principal, q: UsageQuery): UsageQuery {
  return who.role === 'admin' ? q : { ...q, tenantId: who.tenantId ?? '-' };
}
