import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { ownerOf } from '../../src/domain/ownership';
import { holdings } from '../support/reservations';
import { startTcpRelay, type TcpRelay } from '../support/relay';
import { FAST_ENV, startStack, type Stack } from '../support/stack';

/**
 * A PostgreSQL outage that only the worker sees (its connections go through a relay the test
 * cuts; the API keeps its own): a workflow waits it out, however long, instead of failing with
 * its instance mid-transition.
 */
const scale = Number(FAST_ENV.STAGE_TIMEOUT_SCALE);
/** Longer than all the retries bookkeeping activities used to get (600 s, scaled). */
const OUTAGE_MS = 600 * scale * 1000 + 10_000;

let stack: Stack;
let relay: TcpRelay;
beforeAll(async () => {
  stack = await startStack({ worker: false });
  const database = new URL(stack.api.config.DATABASE_URL);
  relay = await startTcpRelay({ host: database.hostname, port: Number(database.port || 5432) });
  await stack.startWorker({ DATABASE_URL: relay.via(stack.api.config.DATABASE_URL) });
});
afterAll(async () => {
  await stack?.close();
  await relay?.close();
});

/** Backends of this test's database waiting to lock an instance row, as finalize does first. */
async function finalizeWaiting(): Promise<number> {
  const [row] = await stack.api.db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM pg_stat_activity
    WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%FROM instances%FOR UPDATE%'`;
  return row?.n ?? 0;
}

describe('a database outage seen by the worker', () => {
  it('holds a provision at finalize for as long as it lasts, then finishes it running', async () => {
    const db = stack.api.db;
    const created = await stack.create({ hostname: 'outage' });
    expect(created.status).toBe(202);
    const id = created.body.data.id as string;
    const taskId = created.body.meta.taskId as string;

    // From boot on, no stage but finalize updates the instance row (the others only reference
    // it): hold it, so finalize is caught in the act when the database goes away.
    await expect.poll(() => db.taskStep.count({ where: { taskId, step: { startsWith: 'boot >' } } }), { timeout: 30_000 }).toBeGreaterThan(0);
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let rowLocked = () => {};
    const locked = new Promise<void>((resolve) => (rowLocked = resolve));
    const holding = db.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT id FROM instances WHERE id = ${id} FOR NO KEY UPDATE`;
        rowLocked();
        await released;
      },
      { timeout: 60_000 },
    );
    await locked;
    await expect.poll(finalizeWaiting, { timeout: 30_000 }).toBeGreaterThan(0);

    relay.cut();
    release();
    await holding;
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));

    // All that time the workflow kept trying finalize, and the instance stayed where it was.
    const handle = stack.api.temporal.workflow.getHandle(`provision-${id}`);
    const pending = (await handle.describe()).raw.pendingActivities ?? [];
    expect(pending.map((activity) => activity.activityType?.name)).toEqual(['finalizeInstance']);
    expect(pending[0]?.attempt).toBeGreaterThan(1);
    expect((await holdings(db, id)).instance.status).toBe('provisioning');

    relay.restore();
    const done = await stack.waitForStatus(id, ['running', 'failed', 'rollback_failed'], 60_000);
    expect(done.status).toBe('running');
    expect(await handle.result()).toEqual({ status: 'running' });
    const held = await holdings(db, id);
    expect(held.task?.status).toBe('succeeded');
    expect(held.vmids.map((v) => v.state)).toEqual(['assigned']);
    expect(held.allocation?.state).toBe('allocated');
  }, 180_000);
});

describe('a database that refuses a write', () => {
  it('keeps finalize trying instead of rolling back a good server, and finishes once the write goes through', async () => {
    const db = stack.api.db;
    await db.$executeRawUnsafe(`
      CREATE FUNCTION refuse_running() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'disk full'; END $$ LANGUAGE plpgsql`);
    await db.$executeRawUnsafe(`
      CREATE TRIGGER refuse_running BEFORE UPDATE ON instances FOR EACH ROW
      WHEN (NEW.status = 'running') EXECUTE FUNCTION refuse_running()`);
    let triggerDropped = false;
    const dropTrigger = async () => {
      if (triggerDropped) return;
      triggerDropped = true;
      await db.$executeRawUnsafe('DROP TRIGGER refuse_running ON instances');
      await db.$executeRawUnsafe('DROP FUNCTION refuse_running()');
    };
    try {
      const created = await stack.create({ hostname: 'disk-full' });
      const id = created.body.data.id as string;
      const handle = stack.api.temporal.workflow.getHandle(`provision-${id}`);
      // Longer than finalize's old budget (120 s, scaled): it is still trying, and nothing was undone.
      await expect
        .poll(async () => (await handle.describe()).raw.pendingActivities?.find((a) => a.activityType?.name === 'finalizeInstance')?.attempt ?? 0, { timeout: 30_000 })
        .toBeGreaterThan(1);
      await new Promise((resolve) => setTimeout(resolve, 120 * scale * 1000 + 2000));
      expect((await holdings(db, id)).instance.status).toBe('provisioning');
      const guests = (await stack.sim.state()).guests;
      expect(guests.filter((g) => ownerOf({ name: g.name, description: String(g.config.description ?? '') }) === id)).toHaveLength(1);

      await dropTrigger();
      await stack.waitForStatus(id, ['running'], 30_000);
      expect(await handle.result()).toEqual({ status: 'running' });
    } finally {
      await dropTrigger();
    }
  }, 120_000);
});

describe('the database client after an outage', () => {
  it('gets back the connection of a transaction the outage cut, so even a pool of one serves again', async () => {
    const db = createDb(relay.via(stack.api.config.DATABASE_URL), 1);
    try {
      let cut = () => {};
      const interrupted = db.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT 1`;
        cut();
        await tx.$queryRaw`SELECT 2`;
      });
      await new Promise<void>((resolve) => {
        cut = () => {
          relay.cut();
          resolve();
        };
      });
      await expect(interrupted).rejects.toThrow();
      relay.restore();
      expect(await db.$transaction(async (tx) => tx.$queryRaw<{ ok: number }[]>`SELECT 1 AS ok`)).toEqual([{ ok: 1 }]);
    } finally {
      relay.restore();
      await db.$disconnect();
    }
  });
});
