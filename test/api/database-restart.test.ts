import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack';

/**
 * What a PostgreSQL restart looks like from the API: every backend of the API's pool is
 * terminated (`pg_terminate_backend`, SQLSTATE 57P01, as a shutdown does) while reads are in
 * flight. Only this file's database is touched; the backend that holds a lock for the test is
 * spared.
 */
let stack: Stack;
let instanceId: string;
/** Connections of the test's own, outside the API's pool: one holds locks, one looks and terminates. */
let locker: Client;
let lockerPid: number;
let observer: Client;

beforeAll(async () => {
  stack = await startStack({ worker: false });
  instanceId = (await stack.create({ hostname: 'restart' })).body.data.id;
  locker = new Client({ connectionString: stack.api.config.DATABASE_URL });
  await locker.connect();
  lockerPid = (await locker.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  // Not the locker: inside its transaction, pg_stat_activity would show one snapshot throughout.
  observer = new Client({ connectionString: stack.api.config.DATABASE_URL });
  await observer.connect();
});
afterAll(async () => {
  await observer?.end();
  await locker?.end();
  await stack?.close();
});

/** Terminates every backend of this file's database but the test's own, as a restart would. */
async function terminateBackends(): Promise<number> {
  const result = await observer.query(
    'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND pid <> $1',
    [lockerPid],
  );
  return result.rowCount ?? 0;
}

/** Backends of this database waiting for a lock: reads held up by the locker. */
async function waitingForLock(): Promise<number[]> {
  const result = await observer.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> $1",
    [lockerPid],
  );
  return result.rows.map((row) => row.pid);
}

/** The one backend waiting for the lock, once there is one other than `before` (a terminated backend lingers a moment). */
async function waitingRead(before?: number): Promise<number> {
  let pid: number | undefined;
  await expect
    .poll(async () => {
      const waiting = (await waitingForLock()).filter((p) => p !== before);
      pid = waiting[0];
      return waiting.length;
    }, { timeout: 10_000 })
    .toBe(1);
  return pid as number;
}

/** Holds the instances table so every read of it waits, until the returned function is called. */
async function holdInstancesTable(): Promise<() => Promise<void>> {
  await locker.query('BEGIN');
  await locker.query('LOCK TABLE instances IN ACCESS EXCLUSIVE MODE');
  let held = true;
  return async () => {
    if (held) await locker.query('ROLLBACK');
    held = false;
  };
}

const getInstance = () => stack.api.request('GET', `/v1/instances/${instanceId}`, { token: stack.customer.token });

describe('a PostgreSQL restart seen by the API', () => {
  it('answers a read whose connection was terminated mid-query from a fresh connection (200, not 500)', async () => {
    const release = await holdInstancesTable();
    try {
      const answer = getInstance();
      const first = await waitingRead();
      expect(await terminateBackends()).toBeGreaterThan(0);
      // The retry waits on the lock again, on a new backend.
      await waitingRead(first);
      await release();
      const res = await answer;
      expect(res.status).toBe(200);
      expect(res.body.data.id).toBe(instanceId);
    } finally {
      await release();
    }
  });

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After when the retry loses its connection too', async () => {
    const release = await holdInstancesTable();
    try {
      const answer = getInstance();
      const first = await waitingRead();
      await terminateBackends();
      await waitingRead(first);
      await terminateBackends();
      const res = await answer;
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.text).not.toMatch(/57P01|terminating|administrator/);
    } finally {
      await release();
    }
  });

  it('answers every read during and after repeated terminations with 200 or 503, never a 500', async () => {
    const statuses: number[] = [];
    for (let round = 0; round < 8; round++) {
      const reads = Array.from({ length: 12 }, () => getInstance().then((res) => statuses.push(res.status)));
      await new Promise((resolve) => setTimeout(resolve, round * 3));
      await terminateBackends();
      await Promise.all(reads);
    }
    expect(statuses).toHaveLength(96);
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect((await getInstance()).status).toBe(200);
  });
});
