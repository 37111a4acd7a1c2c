import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient, type Prisma } from '../generated/prisma/client';
import { serviceBusy } from '../domain/errors';
import { isDatabaseUnavailable } from './errors';
import { PRISMA_LIKE_TYPES } from './pg-rows';

export type Db = PrismaClient;
/** The client handed to code running inside `db.$transaction(async (tx) => ...)`. */
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

/**
 * A transaction on one connection of the pool, for the hot path that commits a create: its
 * statements cost a fraction of the CPU an interactive Prisma transaction spends on each
 * (bench/README.md, "CPU per statement"). Statements run in it with `runSql`.
 */
export class SqlTransaction {
  constructor(readonly client: pg.PoolClient) {}
}

/** Where `runSql` sends a statement: the pool, a Prisma transaction, or a transaction of our own. */
export type Queryable = Db | Tx | SqlTransaction;

/** The pool each client's adapter sends its statements through. */
const pools = new WeakMap<Db, pg.Pool>();

export function createDb(connectionString: string, maxConnections = 10): Db {
  const pool = new pg.Pool({ connectionString, max: maxConnections });
  releaseLostConnections(pool);
  retryReadsOnLostConnections(pool, connectionString);
  // An idle connection PostgreSQL drops (a restart, a terminated backend) leaves the pool by
  // itself; without a listener its error would end the process. Prisma's adapter adds its own
  // only once Prisma sends its first statement, which the hot paths no longer wait for.
  pool.on('error', () => undefined);
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  // The adapter ends the pool only if Prisma itself connected; the pool's own statements may have been all there was.
  const disconnect = db.$disconnect.bind(db);
  db.$disconnect = async () => {
    await disconnect();
    if (!pool.ended) await pool.end();
  };
  pools.set(db, pool);
  return db;
}

/**
 * The `pg` pool under a client, for the hot paths' statements outside a transaction: a
 * statement there costs a fraction of the CPU Prisma spends building and mapping it
 * (bench/README.md, "Profile"). Its reads (sent as one config object) are retried on a lost
 * connection like Prisma's.
 */
export function sqlOf(db: Db): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error('this database client was not made by createDb');
  return pool;
}

/**
 * Runs one statement written with Prisma.sql: on the pool when `db` is a client, inside the
 * transaction when it is a transaction (Prisma's or ours). Dates go as UTC text, as Prisma sends
 * them (the TIMESTAMP(3) columns hold UTC), and rows come back as Prisma's raw queries read them
 * (timestamps as UTC dates, BIGINT as bigint, JSON parsed).
 */
export async function runSql<Row>(db: Queryable, statement: Prisma.Sql): Promise<Row[]> {
  const target = db instanceof SqlTransaction ? db.client : pools.get(db as Db);
  if (!target) return (db as Tx).$queryRaw<Row[]>(statement);
  const values = statement.values.map((value) => (value instanceof Date ? value.toISOString() : value));
  const { rows } = await target.query<Row & pg.QueryResultRow>({ text: statement.text, values, types: PRISMA_LIKE_TYPES });
  return rows;
}

/** How long a transaction may wait for a connection, and run, before it is given up as busy. */
export interface TransactionLimits {
  maxWaitMs: number;
  timeoutMs: number;
}

/** Prisma's defaults for an interactive transaction, which the transactions moved off it kept. */
const DEFAULT_TRANSACTION_LIMITS: TransactionLimits = { maxWaitMs: 2_000, timeoutMs: 5_000 };

/**
 * Runs `work` in a transaction on one pooled connection: committed when it returns, rolled back
 * when it throws. Past `timeoutMs` the connection is closed under it (PostgreSQL rolls back) and
 * the request is refused as busy, as Prisma does with its interactive transactions.
 */
export async function sqlTransaction<T>(db: Db, work: (tx: SqlTransaction) => Promise<T>, limits = DEFAULT_TRANSACTION_LIMITS): Promise<T> {
  const client = await connectWithin(sqlOf(db), limits.maxWaitMs);
  let released = false;
  const release = (error?: Error) => {
    if (released) return;
    released = true;
    try {
      client.release(error);
    } catch {
      // The pool let go of it already: its connection broke (releaseLostConnections).
    }
  };
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    release(new Error('transaction timed out'));
  }, limits.timeoutMs);
  try {
    await client.query('BEGIN');
    const result = await work(new SqlTransaction(client));
    await client.query('COMMIT');
    return result;
  } catch (error) {
    if (expired) throw serviceBusy();
    // A connection that cannot roll back is broken: it leaves the pool.
    await client.query('ROLLBACK').catch((rollbackError: Error) => release(rollbackError));
    throw error;
  } finally {
    clearTimeout(timer);
    release();
  }
}

/** A connection of the pool, or SERVICE_BUSY when none is free within `ms` (one that comes later goes back). */
async function connectWithin(pool: pg.Pool, ms: number): Promise<pg.PoolClient> {
  const connecting = pool.connect();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(serviceBusy()), ms);
  });
  try {
    return await Promise.race([connecting, late]);
  } catch (error) {
    connecting.then((client) => client.release()).catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Prisma's adapter never hands back a connection lost in the middle of a transaction, so each
 * transaction a database outage interrupts would take a pool slot for good (and keep the pool
 * from ever ending). Such a connection is released here, once whoever held it had the chance to.
 */
function releaseLostConnections(pool: pg.Pool): void {
  const held = new Set<pg.PoolClient>();
  pool.on('acquire', (client) => held.add(client));
  pool.on('release', (_error, client) => held.delete(client));
  pool.on('connect', (client) => {
    client.on('error', (error) => {
      setImmediate(() => {
        if (held.has(client as pg.PoolClient)) (client as pg.PoolClient).release(error);
      });
    });
  });
}

/** A statement that only reads: a SELECT that locks no rows. */
const PLAIN_READ = /^\s*SELECT\b(?![\s\S]*\bFOR\s+(NO\s+KEY\s+UPDATE|UPDATE|KEY\s+SHARE|SHARE)\b)/i;

/**
 * A read outside a transaction whose connection PostgreSQL dropped (a restart, a terminated
 * backend, a failover) is tried once more, on a connection of its own: the pool's idle
 * connections may have been dropped too without having noticed yet. Nothing else is retried: a
 * write's outcome is unknown when its connection drops, and a transaction's statements go
 * through the connection it holds, not here.
 */
function retryReadsOnLostConnections(pool: pg.Pool, connectionString: string): void {
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<pg.QueryResult>;
  const onFreshConnection = async (config: pg.QueryConfig) => {
    const client = new pg.Client({ connectionString });
    try {
      await client.connect();
      return await client.query(config);
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  const retrying = async (config: pg.QueryConfig) => {
    try {
      return await query(config);
    } catch (error) {
      if (!PLAIN_READ.test(config.text) || !isDatabaseUnavailable(error)) throw error;
      return onFreshConnection(config);
    }
  };
  // The driver adapter sends every statement as one config object and awaits the promise.
  pool.query = ((config: unknown, ...rest: unknown[]) =>
    typeof config === 'object' && config !== null && rest.length === 0 ? retrying(config as pg.QueryConfig) : query(config, ...rest)) as typeof pool.query;
}

/** Answers when PostgreSQL answers a statement (readiness). */
export async function pingDatabase(db: Db): Promise<void> {
  await db.$queryRaw`SELECT 1`;
}
