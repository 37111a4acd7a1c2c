/**
 * The traffic sampler's reads and writes. A sample moves a server's counter state and adds its
 * delta to the hour totals in one transaction, and the counter moves only from the state the pass
 * read: a pass run twice, or a worker killed mid-pass, cannot count a byte twice.
 */
import { Prisma } from '../generated/prisma/client';
import type { BillingPeriodKind, TrafficCountedKind } from '../domain/traffic';
import { runSql, type Queryable } from './client';

/** A server on the connection that has a guest, with its last counter state and what it holds now. */
export interface SampledServer {
  id: string;
  tenantId: string;
  hostname: string;
  status: string;
  createdAt: Date;
  vmid: number;
  node: string | null;
  counterNode: string | null;
  counterVmid: number | null;
  netin: bigint | null;
  netout: bigint | null;
  uptime: number | null;
  sampledAt: Date | null;
  addresses: number;
  backupBytes: bigint;
  snapshotCount: number;
  trafficAllowanceGiB: number | null;
  trafficCounted: TrafficCountedKind;
  trafficOverage: 'throttle' | 'none';
  planThrottleMbps: number | null;
  billingPeriod: BillingPeriodKind;
  throttleMbps: number | null;
}

/** Every server on the connection that holds a guest: one statement, whatever their number. */
export function readSampledServers(db: Queryable, connectionId: string): Promise<SampledServer[]> {
  return runSql<SampledServer>(
    db,
    Prisma.sql`
      SELECT i.id, i."tenantId", i.hostname, i.status::text AS status, i."createdAt", i.vmid, i.node,
             c.node AS "counterNode", c.vmid AS "counterVmid", c.netin, c.netout, c.uptime, c."sampledAt",
             (SELECT count(*)::int FROM ip_addresses a WHERE a."instanceId" = i.id) AS addresses,
             COALESCE((SELECT sum(b."sizeBytes") FROM backups b WHERE b."instanceId" = i.id AND b.status = 'available'), 0)::bigint AS "backupBytes",
             (SELECT count(*)::int FROM snapshots s WHERE s."instanceId" = i.id AND s.status = 'available') AS "snapshotCount",
             p."trafficAllowanceGiB", p."trafficCounted"::text AS "trafficCounted", p."trafficOverage"::text AS "trafficOverage",
             p."throttleMbps" AS "planThrottleMbps", p."billingPeriod"::text AS "billingPeriod", i."throttleMbps"
        FROM instances i
        JOIN plans p ON p.id = i."planId"
        LEFT JOIN traffic_counters c ON c."instanceId" = i.id
       WHERE i."connectionId" = ${connectionId} AND i.vmid IS NOT NULL AND i."deletedAt" IS NULL
         AND i.status NOT IN ('deleted', 'failed', 'pending', 'scheduling')`,
  );
}

/** One server's sample: the counter state it moves from (null: its first) and to, and what it adds to which hours. */
export interface ServerSample {
  instanceId: string;
  tenantId: string;
  previousSampledAt: Date | null;
  node: string;
  vmid: number;
  netin: bigint;
  netout: bigint;
  uptime: number;
  at: Date;
  running: boolean;
  addresses: number;
  backupBytes: bigint;
  snapshotCount: number;
  hours: { hour: Date; inBytes: bigint; outBytes: bigint }[];
}

/**
 * Moves the counter state of each sample still as the pass read it, and adds the deltas of those
 * (only those) to their hours; call it inside one transaction. Answers the servers counted.
 */
export async function recordServerSamples(tx: Queryable, samples: ServerSample[]): Promise<Set<string>> {
  if (samples.length === 0) return new Set();
  const input = samples.map(
    (s) =>
      Prisma.sql`(${s.instanceId}, ${s.node}, ${s.vmid}::int, ${s.netin}::bigint, ${s.netout}::bigint, ${s.uptime}::int, ${s.at}::timestamp(3), ${s.previousSampledAt}::timestamp(3))`,
  );
  const moved = await runSql<{ instanceId: string }>(
    tx,
    Prisma.sql`
      WITH input (id, node, vmid, netin, netout, uptime, at, prev) AS (VALUES ${Prisma.join(input)}),
      updated AS (
        UPDATE traffic_counters c SET node = i.node, vmid = i.vmid, netin = i.netin, netout = i.netout, uptime = i.uptime, "sampledAt" = i.at
          FROM input i WHERE c."instanceId" = i.id AND i.prev IS NOT NULL AND c."sampledAt" = i.prev
        RETURNING c."instanceId"),
      inserted AS (
        INSERT INTO traffic_counters ("instanceId", node, vmid, netin, netout, uptime, "sampledAt")
        SELECT id, node, vmid, netin, netout, uptime, at FROM input WHERE prev IS NULL
        ON CONFLICT ("instanceId") DO NOTHING
        RETURNING "instanceId")
      SELECT "instanceId" FROM updated UNION ALL SELECT "instanceId" FROM inserted`,
  );
  const counted = new Set(moved.map((row) => row.instanceId));
  const kept = samples.filter((s) => counted.has(s.instanceId));
  // What the server held is what the newest sample saw, in the hour it was taken; earlier hours only gain bytes.
  const row = (s: ServerSample, h: ServerSample['hours'][number], newest: boolean) =>
    Prisma.sql`(${s.instanceId}, ${s.tenantId}, ${h.hour}::timestamp(3), ${h.inBytes}::bigint, ${h.outBytes}::bigint, ${s.running && newest}, ${s.addresses}::int, ${s.backupBytes}::bigint, ${s.snapshotCount}::int)`;
  const earlier = kept.flatMap((s) => s.hours.slice(0, -1).map((h) => row(s, h, false)));
  const newest = kept.flatMap((s) => s.hours.slice(-1).map((h) => row(s, h, true)));
  const upsert = (values: Prisma.Sql[], held: Prisma.Sql) =>
    values.length === 0
      ? Promise.resolve()
      : runSql(
          tx,
          Prisma.sql`
            INSERT INTO usage_hours ("instanceId", "tenantId", hour, "inBytes", "outBytes", running, addresses, "backupBytes", "snapshotCount")
            VALUES ${Prisma.join(values)}
            ON CONFLICT ("instanceId", hour) DO UPDATE SET
              "inBytes" = usage_hours."inBytes" + EXCLUDED."inBytes",
              "outBytes" = usage_hours."outBytes" + EXCLUDED."outBytes"${held}`,
        );
  await upsert(earlier, Prisma.empty);
  await upsert(
    newest,
    Prisma.sql`, running = usage_hours.running OR EXCLUDED.running, addresses = EXCLUDED.addresses, "backupBytes" = EXCLUDED."backupBytes", "snapshotCount" = EXCLUDED."snapshotCount"`,
  );
  return counted;
}

/** Each server's traffic from `start` (inclusive) to `end` (exclusive), in whole hours. */
export async function periodTotals(db: Queryable, periods: { instanceId: string; start: Date; end: Date }[]): Promise<Map<string, { inBytes: bigint; outBytes: bigint }>> {
  if (periods.length === 0) return new Map();
  const input = periods.map((p) => Prisma.sql`(${p.instanceId}, ${p.start}::timestamp(3), ${p.end}::timestamp(3))`);
  const rows = await runSql<{ instanceId: string; inBytes: bigint; outBytes: bigint }>(
    db,
    Prisma.sql`
      SELECT p.id AS "instanceId", COALESCE(sum(u."inBytes"), 0)::bigint AS "inBytes", COALESCE(sum(u."outBytes"), 0)::bigint AS "outBytes"
        FROM (VALUES ${Prisma.join(input)}) AS p (id, start, finish)
        LEFT JOIN usage_hours u ON u."instanceId" = p.id AND u.hour >= p.start AND u.hour < p.finish
       GROUP BY p.id`,
  );
  return new Map(rows.map((row) => [row.instanceId, { inBytes: row.inBytes, outBytes: row.outBytes }]));
}
