import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient, type Prisma } from '../generated/prisma/client';
import { isDatabaseUnavailable } from './errors';

export type Db = PrismaClient;
/** The client handed to code running inside `db.$transaction(async (tx) => ...)`. */
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

/** The pool each client's adapter sends its statements through. */
const pools = new WeakMap<Db, pg.Pool>();

export function createDb(connectionString: string, maxConnections = 10): Db {
  const pool = new pg.Pool({ connectionString, max: maxConnections });
  releaseLostConnections(pool);
  retryReadsOnLostConnections(pool, connectionString);
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
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
 * transaction when it is a transaction's client. Dates go as UTC text, as Prisma sends them
 * (the TIMESTAMP(3) columns hold UTC). Result columns come as pg reads them: only what needs
 * no conversion (text, integers, booleans) should be read from them.
 */
export async function runSql<Row>(db: Db | Tx, statement: Prisma.Sql): Promise<Row[]> {
  const pool = pools.get(db as Db);
  if (!pool) return (db as Tx).$queryRaw<Row[]>(statement);
  const values = statement.values.map((value) => (value instanceof Date ? value.toISOString() : value));
  const { rows } = await pool.query<Row & pg.QueryResultRow>({ text: statement.text, values });
  return rows;
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
