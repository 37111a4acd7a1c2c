import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
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
    const { error, response } = await stack.createAnswer({ hostname: 'no-temporal' });
    expect(response.status).toBe(503);
    expect(error?.error.code).toBe('PROVIDER_UNAVAILABLE');
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

  it('keeps no Idempotency-Key either: the same request, once Temporal is back, creates the server', async () => {
    const headers = { 'Idempotency-Key': 'retry-after-503' };
    const refused = await stack.createAnswer({ hostname: 'retried' }, headers);
    expect(refused.response.status).toBe(503);
    const failedId = (await stack.api.db.instance.findFirstOrThrow({ where: { hostname: 'retried' } })).id;

    const connection = await Connection.connect({ address: inject('temporalAddress') });
    try {
      stack.api.deps.temporal = new Client({ connection, namespace: stack.api.config.TEMPORAL_NAMESPACE });
      const accepted = await stack.create({ hostname: 'retried' }, headers);
      expect(accepted.status).toBe(202);
      const id = accepted.body.data.id;
      expect(id).not.toBe(failedId);
      const started = await stack.api.deps.temporal.workflow.getHandle(`provision-${id}`).describe();
      expect(started.status.name).toBe('RUNNING');
      const replayed = await stack.create({ hostname: 'retried' }, headers);
      expect(replayed.status).toBe(200);
      expect(replayed.body.data.id).toBe(id);
      await stack.api.deps.temporal.workflow.getHandle(`provision-${id}`).terminate('no worker in this test');
    } finally {
      await connection.close();
    }
  });
});
