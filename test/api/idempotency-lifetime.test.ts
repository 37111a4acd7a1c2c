import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneExpiredIdempotencyKeys } from '../../src/db/idempotency';
import { startStack, type Stack } from '../support/stack';

const TTL_HOURS = 2;
const HOUR = 3_600_000;

describe(`Idempotency-Key lifetime (IDEMPOTENCY_KEY_TTL_HOURS=${TTL_HOURS})`, () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ worker: false, env: { IDEMPOTENCY_KEY_TTL_HOURS: String(TTL_HOURS) } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const createWithKey = (key: string, hostname: string) => stack.create({ hostname }, { 'Idempotency-Key': key });
  const age = (key: string, hours: number) =>
    stack.api.db.idempotencyKey.update({ where: { userId_key: { userId: stack.customer.userId, key } }, data: { createdAt: new Date(Date.now() - hours * HOUR) } });

  it('replays a key within its lifetime, and treats an expired key as new', async () => {
    const first = await createWithKey('lifetime-1', 'lifetime');
    expect(first.status).toBe(202);
    await age('lifetime-1', TTL_HOURS - 0.5);
    const replayed = await createWithKey('lifetime-1', 'lifetime');
    expect(replayed.status).toBe(200);
    expect(replayed.body.data.id).toBe(first.body.data.id);

    await age('lifetime-1', TTL_HOURS + 0.5);
    const renewed = await createWithKey('lifetime-1', 'lifetime');
    expect(renewed.status).toBe(202);
    expect(renewed.body.data.id).not.toBe(first.body.data.id);
    // The key now stands for the new server, for a lifetime of its own.
    const again = await createWithKey('lifetime-1', 'lifetime');
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(renewed.body.data.id);
  });

  it('lets an expired key be used with another body', async () => {
    expect((await createWithKey('lifetime-2', 'first-body')).status).toBe(202);
    expect((await stack.createAnswer({ hostname: 'other-body' }, { 'Idempotency-Key': 'lifetime-2' })).error?.error.code).toBe('CONFLICT');
    await age('lifetime-2', TTL_HOURS + 1);
    const reused = await createWithKey('lifetime-2', 'other-body');
    expect(reused.status).toBe(202);
    expect(reused.body.data.hostname).toBe('other-body');
  });

  it('prunes exactly the keys past their lifetime and says how many', async () => {
    const { db } = stack.api;
    for (const key of ['prune-old-1', 'prune-old-2', 'prune-fresh']) expect((await createWithKey(key, key)).status).toBe(202);
    await age('prune-old-1', TTL_HOURS + 1);
    await age('prune-old-2', 48);
    const before = await db.idempotencyKey.count();

    expect(await pruneExpiredIdempotencyKeys(db, new Date(), TTL_HOURS)).toBe(2);
    expect(await db.idempotencyKey.count()).toBe(before - 2);
    const left = await db.idempotencyKey.findMany({ where: { key: { startsWith: 'prune-' } }, select: { key: true } });
    expect(left.map((k) => k.key)).toEqual(['prune-fresh']);
    expect(await pruneExpiredIdempotencyKeys(db, new Date(), TTL_HOURS)).toBe(0);
    // Seen from a day later, every key made now has expired.
    expect(await pruneExpiredIdempotencyKeys(db, new Date(Date.now() + 24 * HOUR), TTL_HOURS)).toBe(before - 2);
    expect(await db.idempotencyKey.count()).toBe(0);
  });
});
