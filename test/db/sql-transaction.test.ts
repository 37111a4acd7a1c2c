/**
 * The create's own transaction on one pooled connection (sqlTransaction): all or nothing, a
 * connection that breaks under it or a run past its limit loses nothing and strands no pool
 * slot, and rows come back in the shapes Prisma gives them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSql, sqlOf, sqlTransaction } from '../../src/db/client';
import { isUniqueViolation } from '../../src/db/errors';
import { AppError } from '../../src/domain/errors';
import { Prisma } from '../../src/generated/prisma/client';
import { createTestDatabase, type TestDatabase } from '../support/database';

let database: TestDatabase;
const LIMITS = { maxWaitMs: 2_000, timeoutMs: 5_000 };

beforeAll(async () => {
  database = await createTestDatabase();
  await runSql(database.db, Prisma.sql`CREATE TABLE probe (id text PRIMARY KEY, at timestamp(3), big bigint, doc jsonb)`);
});

afterAll(() => database?.drop());

const probeIds = async () => (await runSql<{ id: string }>(database.db, Prisma.sql`SELECT id FROM probe ORDER BY id`)).map((row) => row.id);
/** Connections the pool holds, and those handed out right now. */
const poolState = () => ({ total: sqlOf(database.db).totalCount, idle: sqlOf(database.db).idleCount });

describe('sqlTransaction', () => {
  it('commits what the work wrote when it returns, and nothing when it throws', async () => {
    await sqlTransaction(database.db, (tx) => runSql(tx, Prisma.sql`INSERT INTO probe (id) VALUES ('kept')`), LIMITS);
    await expect(
      sqlTransaction(
        database.db,
        async (tx) => {
          await runSql(tx, Prisma.sql`INSERT INTO probe (id) VALUES ('dropped')`);
          throw new Error('the work failed after writing');
        },
        LIMITS,
      ),
    ).rejects.toThrow('the work failed after writing');
    expect(await probeIds()).toEqual(['kept']);
  });

  it('reports a unique violation from its own statements as one', async () => {
    const error = await sqlTransaction(database.db, (tx) => runSql(tx, Prisma.sql`INSERT INTO probe (id) VALUES ('kept')`), LIMITS).catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
  });

  it('gives a run past its time limit up as SERVICE_BUSY, rolled back, its connection closed', async () => {
    const before = poolState().total;
    const error = await sqlTransaction(
      database.db,
      async (tx) => {
        await runSql(tx, Prisma.sql`INSERT INTO probe (id) VALUES ('too-slow')`);
        await runSql(tx, Prisma.sql`SELECT pg_sleep(2)`);
      },
      { maxWaitMs: 2_000, timeoutMs: 300 },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('SERVICE_BUSY');
    expect(await probeIds()).toEqual(['kept']);
    expect(poolState().total).toBeLessThanOrEqual(before);
  });

  it('survives its backend being terminated mid-transaction: nothing committed, the broken connection leaves the pool', async () => {
    const error = await sqlTransaction(
      database.db,
      async (tx) => {
        await runSql(tx, Prisma.sql`INSERT INTO probe (id) VALUES ('terminated')`);
        const [{ pid }] = (await runSql<{ pid: number }>(tx, Prisma.sql`SELECT pg_backend_pid() AS pid`)) as [{ pid: number }];
        await runSql(database.db, Prisma.sql`SELECT pg_terminate_backend(${pid}::int)`);
        await runSql(tx, Prisma.sql`SELECT 1`);
      },
      LIMITS,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(await probeIds()).toEqual(['kept']);
    // Every connection still in the pool answers: the terminated one was not handed back.
    await Promise.all(Array.from({ length: 8 }, () => runSql(database.db, Prisma.sql`SELECT 1`)));
    const after = poolState();
    expect(after.idle).toBe(after.total);
  });

  it('refuses as SERVICE_BUSY when no connection comes free in time, and the late one goes back', async () => {
    const pool = sqlOf(database.db);
    const held = await Promise.all(Array.from({ length: 20 }, () => pool.connect()));
    const error = await sqlTransaction(database.db, () => Promise.resolve(), { maxWaitMs: 200, timeoutMs: 5_000 }).catch((e: unknown) => e);
    expect((error as AppError).code).toBe('SERVICE_BUSY');
    for (const client of held) client.release();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pool.waitingCount).toBe(0);
    expect(pool.idleCount).toBe(pool.totalCount);
  });

  it('reads rows back as Prisma does: UTC timestamps, bigint, parsed JSON', async () => {
    const at = new Date('2026-12-02T03:04:05.678Z');
    const [row] = await sqlTransaction(
      database.db,
      (tx) => runSql<{ at: Date; big: bigint; doc: { a: number } }>(tx, Prisma.sql`INSERT INTO probe (id, at, big, doc) VALUES ('typed', ${at}, ${9_007_199_254_740_993n}, ${JSON.stringify({ a: 1 })}::jsonb) RETURNING at, big, doc`),
      LIMITS,
    );
    expect(row).toEqual({ at, big: 9_007_199_254_740_993n, doc: { a: 1 } });
  });
});
