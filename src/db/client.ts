import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client';

export type Db = PrismaClient;
/** The client handed to code running inside `db.$transaction(async (tx) => ...)`. */
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

export function createDb(connectionString: string, maxConnections = 10): Db {
  const pool = new pg.Pool({ connectionString, max: maxConnections });
  releaseLostConnections(pool);
  return new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
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
