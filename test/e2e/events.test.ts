import { describe, expect, it } from 'vitest';
import { InvalidTransitionError, operationBegun } from '../../src/db/instance-state';
import { CREATE_STOP_START_DELETE_EVENTS, runningServer, stopStartDelete, suiteStack } from '../support/lifecycle';

const stack = suiteStack();

const events = async (query: string, token = stack.customer.token) => stack.api.request('GET', `/v1/events${query}`, { token });

describe('the instance event feed', () => {
  it('tells a create → stop → start → delete in order, one event per transition, each written with its change', async () => {
    const id = await runningServer(stack, { hostname: 'storyteller' });
    await stopStartDelete(stack, id);

    const res = await events(`?instanceId=${id}`);
    expect(res.status).toBe(200);
    const newestFirst = res.body.data.map((e: { type: string }) => e.type);
    expect(newestFirst.reverse()).toEqual(CREATE_STOP_START_DELETE_EVENTS);
    const [deleted] = res.body.data;
    expect(deleted).toMatchObject({ instanceId: id, tenantId: stack.customer.tenantId, data: { status: 'deleted', hostname: 'storyteller' } });
    // Customers read no provider coordinates in events either.
    expect(JSON.stringify(res.body)).not.toMatch(/pve\d|UPID|vmid|"node"/i);
  });

  it('filters by type, pages with a cursor, and refuses a cursor it did not make', async () => {
    const running = await events('?type=instance.running&limit=1');
    expect(running.body.data).toHaveLength(1);
    expect(running.body.data[0].type).toBe('instance.running');
    const next = await events(`?type=instance.running&limit=1&cursor=${running.body.meta.nextCursor}`);
    expect(next.body.data).toHaveLength(1);
    expect(next.body.data[0].id).not.toBe(running.body.data[0].id);

    for (const cursor of ['garbage', '-1', '99999999999999999999', '1.5']) {
      const bad = await events(`?cursor=${encodeURIComponent(cursor)}`);
      expect(bad.status, cursor).toBe(400);
      expect(bad.body.error.code).toBe('INVALID_INPUT');
    }
    expect((await events('?type=instance.exploded')).status).toBe(400);
  });

  it("shows a customer only their own tenant's events; an admin sees every tenant's, or one", async () => {
    const other = await stack.api.createCustomer();
    expect((await events('', other.token)).body.data).toEqual([]);
    const all = await events(`?tenantId=${stack.customer.tenantId}`, stack.api.adminToken);
    expect(all.body.data.length).toBeGreaterThan(0);
    expect(all.body.data.every((e: { tenantId: string }) => e.tenantId === stack.customer.tenantId)).toBe(true);
    // A customer's tenantId filter cannot widen their view.
    expect((await events(`?tenantId=${stack.customer.tenantId}`, other.token)).body.data).toEqual([]);
  });

  it('refuses a transition the status matrix does not allow, writing nothing', async () => {
    const id = await runningServer(stack, { hostname: 'matrix' });
    const db = stack.api.db;
    const before = await db.instanceEvent.count({ where: { instanceId: id } });
    await expect(db.$transaction((tx) => operationBegun(tx, id, { operation: 'start', actorUserId: stack.customer.userId, taskId: 'task_none' }))).rejects.toBeInstanceOf(
      InvalidTransitionError,
    );
    expect(await db.instanceEvent.count({ where: { instanceId: id } })).toBe(before);
    expect((await db.instance.findUniqueOrThrow({ where: { id } })).status).toBe('running');
  });
});
