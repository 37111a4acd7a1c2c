import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdings } from '../support/reservations';
import { startStack, type Stack } from '../support/stack';
import { freePort } from '../support/ports';

describe('when Temporal cannot be reached after the reservations are committed', () => {
  let stack: Stack;
  beforeAll(async () => {
    // A Temporal address where nothing listens: the API commits, then cannot start the workflow.
    const unreachable = new Client({ connection: Connection.lazy({ address: `127.0.0.1:${await freePort()}`, connectTimeout: 500 }) });
    stack = await startStack({ worker: false, deps: { temporal: unreachable } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('answers 503 and strands nothing: VMID, addresses, capacity and quota go back', async () => {
    const res = await stack.create({ hostname: 'no-temporal' });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('PROVIDER_UNAVAILABLE');
    const instance = await stack.api.db.instance.findFirstOrThrow({ where: { hostname: 'no-temporal' } });
    const held = await holdings(stack.api.db, instance.id);
    expect(held.instance.status).toBe('failed');
    expect(held.vmids).toEqual([]);
    expect(held.addresses).toEqual([]);
    expect(held.allocation?.state).toBe('released');
    expect(held.instance.quotaReleasedAt).not.toBeNull();
    expect(held.task?.status).toBe('failed');
    expect(held.task?.activeInstanceId).toBeNull();
  });
});
