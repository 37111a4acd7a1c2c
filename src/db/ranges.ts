/**
 * VMIDs and addresses are rows of their range: a create takes the lowest free, cooled-down row
 * with FOR UPDATE SKIP LOCKED inside its transaction, so concurrent creates take different rows
 * without waiting for each other; the unique constraints make a double allocation fail rather
 * than happen. A range is grown by a batch of free rows, in a statement of its own, only when it
 * has none left to take (`reservingTransaction` runs the transaction again after).
 */
import { AppError, serviceBusy } from '../domain/errors';
import { newId } from '../security/ids';
import { addressAt, lastUsableOrdinal, ordinalOf, parseCidr } from '../net/ip';
import { Prisma, type IpAddress } from '../generated/prisma/client';
import { runSql, sqlTransaction, type Db, type Queryable, type SqlTransaction, type TransactionLimits } from './client';
import { isDeadlock } from './errors';

/** Free rows a range grows by when it has none left to take. */
const VMID_BATCH = 64;
const ADDRESS_BATCH = 256;

export interface VmidRange {
  id: string;
  vmidStart: number;
  vmidEnd: number;
}

export interface PoolRef {
  id: string;
  cidr: string;
  gateway: string;
}

/** The lowest and highest VMID rows a cluster has (null: none yet). */
interface VmidRows {
  lowest: number | null;
  highest: number | null;
}

/** A range to grow, with the rows it had when it was found without a free one (pools: the highest). */
type GrowableRange = { kind: 'vmid'; connection: VmidRange; rows: VmidRows } | { kind: 'pool'; pool: PoolRef; top: bigint | null };

/** Notes a range with few free rows left above the one just taken: it is grown once the transaction has committed. */
export type RunningLow = (range: GrowableRange) => void;

/**
 * A range has no free row to take but may still grow. Thrown inside a transaction, so it rolls
 * back (nothing waits on a second connection while holding the first); `reservingTransaction`
 * grows the range and runs the transaction again.
 */
export class RangeNeedsRows extends Error {
  override name = 'RangeNeedsRows';
  constructor(readonly range: GrowableRange) {
    super(range.kind === 'vmid' ? `the VMID range of ${range.connection.id} needs more rows` : `the pool ${range.pool.id} needs more rows`);
  }
}

const cutoff = (seconds: number) => new Date(Date.now() - seconds * 1000);

/**
 * The lowest VMID of the cluster's range that is free and cooled down, held for the instance.
 * Only rows inside the range as committed now are taken (free rows outside it are left by a
 * range an admin shrank). A take close to the highest row tells `runningLow`, so the range grows
 * before it is empty.
 */
export async function reserveVmid(tx: Queryable, connection: VmidRange, instanceId: string, cooldownSeconds: number, runningLow: RunningLow): Promise<number> {
  const take = async () => {
    const [taken] = await runSql<{ vmid: number; lowest: number; highest: number }>(tx, Prisma.sql`
      UPDATE vmid_reservations SET state = 'reserved', "instanceId" = ${instanceId}, "updatedAt" = ${new Date()}
      WHERE id = (
        SELECT r.id FROM vmid_reservations r, proxmox_connections c
        WHERE c.id = ${connection.id} AND r."connectionId" = c.id AND r.vmid BETWEEN c."vmidStart" AND c."vmidEnd"
          AND r.state = 'free' AND (r."releasedAt" IS NULL OR r."releasedAt" <= ${cutoff(cooldownSeconds)})
        ORDER BY r.vmid LIMIT 1 FOR UPDATE OF r SKIP LOCKED)
      RETURNING vmid,
        (SELECT MIN(vmid) FROM vmid_reservations WHERE "connectionId" = ${connection.id}) AS lowest,
        (SELECT MAX(vmid) FROM vmid_reservations WHERE "connectionId" = ${connection.id}) AS highest`);
    if (!taken) return null;
    if (taken.highest - taken.vmid < VMID_BATCH / 4) runningLow({ kind: 'vmid', connection, rows: { lowest: taken.lowest, highest: taken.highest } });
    return taken.vmid;
  };
  const vmid = (await take()) ?? (await takeOrGrow(take, { kind: 'vmid', connection, rows: await vmidRows(tx, connection.id) }));
  if (vmid === null) throw new AppError('CAPACITY_UNAVAILABLE', 'There is no room for new servers in this location right now.', { resource: 'vmid' });
  return vmid;
}

/**
 * After a take found no row: a range that can grow is grown (by the caller, see RangeNeedsRows);
 * a range already whole is taken from once more, since rows another request added after the
 * first take's snapshot are committed by the time its top was read.
 */
async function takeOrGrow<T>(take: () => Promise<T | null>, range: GrowableRange): Promise<T | null> {
  if (nextRows(range).length > 0) throw new RangeNeedsRows(range);
  return take();
}

function nextRows(range: GrowableRange): unknown[] {
  return range.kind === 'vmid' ? nextVmids(range.connection, range.rows) : nextOrdinals(range.pool, range.top);
}

async function vmidRows(db: Queryable, connectionId: string): Promise<VmidRows> {
  const [rows] = await runSql<VmidRows>(db, Prisma.sql`SELECT MIN(vmid) AS lowest, MAX(vmid) AS highest FROM vmid_reservations WHERE "connectionId" = ${connectionId}`);
  return rows ?? { lowest: null, highest: null };
}

const vmidsFrom = (first: number, last: number) => Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => first + i);

/**
 * The next batch of VMIDs past the highest row, within the range; once the top of the range has
 * rows, the batch below the lowest row (a range whose start an admin moved down).
 */
function nextVmids(connection: VmidRange, rows: VmidRows): number[] {
  const above = Math.max((rows.highest ?? connection.vmidStart - 1) + 1, connection.vmidStart);
  const upward = vmidsFrom(above, Math.min(above + VMID_BATCH - 1, connection.vmidEnd));
  if (upward.length > 0 || rows.lowest === null) return upward;
  const below = Math.min(rows.lowest - 1, connection.vmidEnd);
  return vmidsFrom(Math.max(below - VMID_BATCH + 1, connection.vmidStart), below);
}

/**
 * The lowest address of the pool that is free and cooled down (never the network, broadcast or
 * gateway), or null when the pool is full. Like reserveVmid, a take close to the top tells `runningLow`.
 */
export async function reserveAddress(tx: Queryable, pool: PoolRef, instanceId: string, cooldownSeconds: number, runningLow: RunningLow): Promise<IpAddress | null> {
  const take = async () => {
    const [taken] = await runSql<IpAddress & { top: bigint }>(tx, Prisma.sql`
      UPDATE ip_addresses SET state = 'reserved', "instanceId" = ${instanceId}, "updatedAt" = ${new Date()}
      WHERE id = (
        SELECT id FROM ip_addresses
        WHERE "poolId" = ${pool.id} AND state = 'free' AND ("releasedAt" IS NULL OR "releasedAt" <= ${cutoff(cooldownSeconds)})
        ORDER BY ordinal LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING *, (SELECT MAX(ordinal) FROM ip_addresses WHERE "poolId" = ${pool.id}) AS top`);
    if (!taken) return null;
    const { top, ...address } = taken;
    if (top - address.ordinal < BigInt(ADDRESS_BATCH / 4)) runningLow({ kind: 'pool', pool, top });
    return address;
  };
  return (await take()) ?? takeOrGrow(take, { kind: 'pool', pool, top: await topOrdinal(tx, pool.id) });
}

async function topOrdinal(db: Queryable, poolId: string): Promise<bigint | null> {
  const [row] = await runSql<{ top: bigint | null }>(db, Prisma.sql`SELECT MAX(ordinal) AS top FROM ip_addresses WHERE "poolId" = ${poolId}`);
  return row?.top ?? null;
}

/** The next batch of host ordinals past the highest row: never the network (0), the broadcast or the gateway. */
function nextOrdinals(pool: PoolRef, top: bigint | null): bigint[] {
  const cidr = parseCidr(pool.cidr);
  const gateway = ordinalOf(cidr, pool.gateway);
  const last = lastUsableOrdinal(cidr);
  const ordinals: bigint[] = [];
  for (let ordinal = (top ?? 0n) + 1n; ordinal <= last && ordinals.length < ADDRESS_BATCH; ordinal++) {
    if (ordinal !== gateway) ordinals.push(ordinal);
  }
  return ordinals;
}

/**
 * Adds the next batch of free rows to a range, in one statement outside any transaction, unless
 * another request grew it since it was found short. Two requests growing the same range at once
 * add the same rows; the second's are skipped.
 */
async function growRange(db: Db, range: GrowableRange): Promise<void> {
  if (nextRows(range).length === 0) return;
  const now = new Date();
  if (range.kind === 'vmid') {
    const rows = await vmidRows(db, range.connection.id);
    if (rows.lowest !== range.rows.lowest || rows.highest !== range.rows.highest) return;
    // The range as it is now: an admin may have moved it since the request read it.
    const [connection] = await runSql<VmidRange>(db, Prisma.sql`SELECT id, "vmidStart", "vmidEnd" FROM proxmox_connections WHERE id = ${range.connection.id}`);
    if (!connection) return;
    const vmids = nextVmids(connection, rows);
    await runSql(db, Prisma.sql`
      INSERT INTO vmid_reservations (id, "connectionId", vmid, state, "createdAt", "updatedAt")
      SELECT id, ${connection.id}, vmid, 'free', ${now}, ${now} FROM unnest(${vmids.map(() => newId('vmid'))}::text[], ${vmids}::int[]) AS batch(id, vmid)
      ON CONFLICT DO NOTHING`);
    return;
  }
  const top = await topOrdinal(db, range.pool.id);
  if (top !== range.top) return;
  // The pool as it is now: an admin may have moved its gateway since the request read it.
  const [pool] = await runSql<PoolRef>(db, Prisma.sql`SELECT id, cidr, gateway FROM ip_pools WHERE id = ${range.pool.id}`);
  if (!pool) return;
  const cidr = parseCidr(pool.cidr);
  const ordinals = nextOrdinals(pool, top);
  await runSql(db, Prisma.sql`
    INSERT INTO ip_addresses (id, "poolId", address, ordinal, family, state, "updatedAt")
    SELECT id, ${pool.id}, address, ordinal, ${cidr.family}, 'free', ${now}
    FROM unnest(${ordinals.map(() => newId('ip'))}::text[], ${ordinals.map((ordinal) => addressAt(cidr, ordinal))}::text[], ${ordinals.map(String)}::bigint[]) AS batch(id, address, ordinal)
    ON CONFLICT DO NOTHING`);
}

/** How often one transaction may be run again because a range had to grow or it lost a deadlock. */
const MAX_RERUNS = 8;


/**
 * Runs a transaction that reserves VMIDs or addresses. A range that ran low during it grows once
 * it has committed, so that the next creates find free rows; a growth that fails here is done
 * by the first create that finds the range empty. When a range ran out of rows, the transaction
 * rolls back, the range grows, and it runs again. A deadlock victim (two creates falling back to
 * each other's node) runs again too. Past MAX_RERUNS the request is refused as busy (503
 * SERVICE_BUSY with Retry-After) rather than spinning.
 */
export async function reservingTransaction<T>(db: Db, work: (tx: SqlTransaction, runningLow: RunningLow) => Promise<T>, limits?: TransactionLimits): Promise<T> {
  for (let run = 0; ; run++) {
    const low: GrowableRange[] = [];
    try {
      const result = await sqlTransaction(db, (tx) => work(tx, (range) => low.push(range)), limits);
      for (const range of low) await growRange(db, range).catch(() => undefined);
      return result;
    } catch (error) {
      const deadlock = isDeadlock(error);
      if (!(error instanceof RangeNeedsRows) && !deadlock) throw error;
      if (run >= MAX_RERUNS) throw serviceBusy();
      if (error instanceof RangeNeedsRows) await growRange(db, error.range);
    }
  }
}

/** How many VMIDs one provision may set aside for strangers before it gives up. */
export const MAX_QUARANTINED_PER_INSTANCE = 5;

export interface Stranger {
  node: string;
  name: string | null;
}

/**
 * The instance's VMID holds a guest we did not create: the VMID leaves circulation (quarantined,
 * with the stranger's node and name for admins) and the instance takes the next free VMID of the
 * range. Answers the new VMID, or null once this instance has set aside its maximum (it is then
 * left without a VMID, and its provision fails).
 * Converges on retry: a VMID this instance no longer holds is not quarantined again.
 */
export function quarantineVmid(db: Db, instanceId: string, vmid: number, stranger: Stranger, cooldownSeconds: number): Promise<number | null> {
  return reservingTransaction(db, async (tx, runningLow) => {
    const [instance] = await runSql<{ vmid: number | null; connection: VmidRange }>(tx, Prisma.sql`
      SELECT i.vmid, json_build_object('id', c.id, 'vmidStart', c."vmidStart", 'vmidEnd', c."vmidEnd") AS connection
      FROM instances i JOIN proxmox_connections c ON c.id = i."connectionId" WHERE i.id = ${instanceId}`);
    if (!instance) throw new Error(`instance ${instanceId} does not exist`);
    if (instance.vmid !== vmid) return instance.vmid;
    // The VMID leaves circulation, and what this instance has set aside so far is counted with it.
    const [quarantine] = await runSql<{ setAside: bigint }>(tx, Prisma.sql`
      WITH quarantined AS (
        UPDATE vmid_reservations
        SET state = 'quarantined', "instanceId" = NULL, "strangerNode" = ${stranger.node}, "strangerName" = ${stranger.name},
          "quarantinedFor" = ${instanceId}, "quarantinedAt" = ${new Date()}, "updatedAt" = ${new Date()}
        WHERE "connectionId" = ${instance.connection.id} AND vmid = ${vmid} AND "instanceId" = ${instanceId}
        RETURNING id)
      SELECT (SELECT COUNT(*) FROM vmid_reservations WHERE "quarantinedFor" = ${instanceId}) + (SELECT COUNT(*) FROM quarantined) AS "setAside"`);
    const next = Number(quarantine?.setAside ?? 0) < MAX_QUARANTINED_PER_INSTANCE ? await reserveVmid(tx, instance.connection, instanceId, cooldownSeconds, runningLow) : null;
    await runSql(tx, Prisma.sql`UPDATE instances SET vmid = ${next}::int, "vmidSince" = ${next === null ? null : new Date()}, "updatedAt" = ${new Date()} WHERE id = ${instanceId}`);
    return next;
  });
}
