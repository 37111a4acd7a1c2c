import { describe, expect, it } from 'vitest';
import { guestOf, operate, runningServer, setTaskMs, suiteStack, taskEnd } from '../support/lifecycle';

describe('deleting servers that are not simply running', () => {
  const stack = suiteStack({}, async (started) => {
    await started.sim.clearFaults();
    await setTaskMs(started, 20);
  });

  /** Everything the instance held is free again, and it is readable as deleted. */
  const expectReleased = async (id: string) => {
    const row = await stack.api.db.instance.findUniqueOrThrow({ where: { id }, include: { allocation: true, volumes: true, credential: true } });
    expect(row).toMatchObject({ status: 'deleted', desiredState: 'deleted' });
    expect(row.deletedAt).not.toBeNull();
    expect(row.quotaReleasedAt).not.toBeNull();
    expect(row.allocation?.state).toBe('released');
    expect(row.volumes.map((v) => v.status)).toEqual(['deleted']);
    expect(row.credential).toBeNull();
    expect(await stack.api.db.vmidReservation.count({ where: { instanceId: id } })).toBe(0);
    expect(await stack.api.db.ipAddress.count({ where: { instanceId: id } })).toBe(0);
    if (row.vmid !== null) expect(await stack.api.db.vmidReservation.findFirst({ where: { vmid: row.vmid } })).toMatchObject({ state: 'free' });
    expect(await guestOf(stack, id)).toBeUndefined();
    expect(await stack.api.db.task.count({ where: { instanceId: id, activeInstanceId: { not: null } } })).toBe(0);
    // Released once: a single deletion on record.
    expect(await stack.api.db.auditEvent.count({ where: { instanceId: id, action: 'instance.deleted' } })).toBe(1);
    return row;
  };

  it.each([
    ['right after the create', 0],
    ['while the disk is being cloned', 150],
    ['late in provisioning', 1200],
  ])('cancels a provision when deleted %s and ends the server deleted, releasing everything once', async (_when, delayMs) => {
    await setTaskMs(stack, 250);
    const created = await stack.create({ hostname: `race-${delayMs}` });
    const id = created.body.data.id as string;
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    const deleted = await operate(stack, id, 'delete');
    expect(deleted.status).toBe(202);
    expect(deleted.body.data).toMatchObject({ status: 'deleting', desiredState: 'deleted' });
    expect(deleted.body.meta.taskId).toBe(created.body.meta.taskId);
    // A second delete joins the one under way.
    const again = await operate(stack, id, 'delete');
    expect(again.status).toBe(202);
    expect(again.body.meta.taskId).toBe(created.body.meta.taskId);

    await stack.waitForStatus(id, ['deleted'], 60_000);
    const task = await taskEnd(stack, created.body.meta.taskId);
    expect(task).toMatchObject({ type: 'INSTANCE_CREATE', status: 'failed', error: { code: 'CANCELLED' } });
    await expectReleased(id);
    // Operators searching the Web UI see the same end as the database.
    const provision = stack.api.temporal.workflow.getHandle(`provision-${id}`);
    await expect.poll(async () => (await provision.describe()).searchAttributes.InstanceStatus, { timeout: 10_000 }).toEqual(['deleted']);
  });

  it('deletes a server whose provisioning rollback parked: the parked workflow retries its cleanup and ends it deleted', async () => {
    await stack.sim.fault({ op: 'start', mode: 'task_fail', message: 'start failed' });
    await stack.sim.fault({ op: 'destroy', mode: 'http500', message: 'permission denied', count: 100 });
    const created = await stack.create({ hostname: 'parked-create' });
    const id = created.body.data.id as string;
    await stack.waitForStatus(id, ['rollback_failed']);
    await stack.sim.clearFaults();

    const deleted = await operate(stack, id, 'delete');
    expect(deleted.status).toBe(202);
    expect(deleted.body.data.desiredState).toBe('deleted');
    expect(deleted.body.meta.taskId).toBe(created.body.meta.taskId);
    await stack.waitForStatus(id, ['deleted']);
    const task = await taskEnd(stack, created.body.meta.taskId);
    expect(task.error?.code).toBe('CANCELLED');
    await expectReleased(id);
  });

  it('parks a delete whose destroy cannot be confirmed, keeping every reservation, until an operator retries', async () => {
    const id = await runningServer(stack, { hostname: 'stuck' });
    await stack.sim.fault({ op: 'destroy', mode: 'http500', message: 'permission denied', count: 100 });
    const deleted = await operate(stack, id, 'delete');
    expect(deleted.status).toBe(202);
    const parked = await stack.waitForStatus(id, ['rollback_failed']);
    expect(parked.failure?.code).toBe('ROLLBACK_FAILED');
    expect(parked.task).toMatchObject({ type: 'INSTANCE_DELETE', status: 'running' });
    expect(parked.task?.steps).toContainEqual(expect.objectContaining({ step: 'delete > waiting for an operator (1)', status: 'error' }));
    const row = await stack.api.db.instance.findUniqueOrThrow({ where: { id }, include: { allocation: true, vmidReservation: true } });
    expect(row.quotaReleasedAt).toBeNull();
    expect(row.allocation?.state).toBe('allocated');
    expect(row.vmidReservation?.state).toBe('assigned');

    // Still failing: it parks again.
    const retry = await stack.api.request('POST', `/v1/admin/instances/${id}/rollback/retry`, { token: stack.api.adminToken });
    expect(retry.status).toBe(202);
    await expect.poll(async () => (await stack.api.db.taskStep.count({ where: { taskId: deleted.body.meta.taskId, step: 'delete > waiting for an operator (2)' } })), { timeout: 20_000 }).toBe(1);

    await stack.sim.clearFaults();
    // A customer's delete on the parked server asks for the same retry.
    const again = await operate(stack, id, 'delete');
    expect(again.status).toBe(202);
    expect(again.body.meta.taskId).toBe(deleted.body.meta.taskId);
    await stack.waitForStatus(id, ['deleted']);
    expect((await taskEnd(stack, deleted.body.meta.taskId)).status).toBe('succeeded');
    await expectReleased(id);
  });

  it('ends a parked delete as deleted when an operator resolves it by hand', async () => {
    const id = await runningServer(stack, { hostname: 'by-hand' });
    await stack.sim.fault({ op: 'destroy', mode: 'http500', message: 'permission denied', count: 100 });
    const deleted = await operate(stack, id, 'delete');
    await stack.waitForStatus(id, ['rollback_failed']);
    // The operator removes the guest by hand, then says so.
    const { vmid, node } = await stack.api.db.instance.findUniqueOrThrow({ where: { id } });
    await stack.sim.clearFaults();
    const { ProxmoxClient } = await import('../../src/proxmox');
    const { parseToken, DEFAULT_SIM_TOKEN } = await import('../../src/simulator/server');
    const { tokenId, secret } = parseToken(DEFAULT_SIM_TOKEN);
    const client = new ProxmoxClient({ baseUrl: stack.sim.url, tokenId, tokenSecret: secret, plaintextLab: true });
    await client.tasks.wait(await client.guests.delete(node as string, vmid as number), { pollIntervalMs: 20 });
    client.close();

    const resolve = await stack.api.request('POST', `/v1/admin/instances/${id}/rollback/resolve`, { token: stack.api.adminToken, body: { note: 'removed with qm destroy' } });
    expect(resolve.status).toBe(202);
    await stack.waitForStatus(id, ['deleted']);
    expect((await taskEnd(stack, deleted.body.meta.taskId)).status).toBe('succeeded');
    await expectReleased(id);
    const note = await stack.api.db.auditEvent.findFirst({ where: { instanceId: id, action: 'delete.resolved_by_operator' } });
    expect(note?.details).toEqual({ note: 'removed with qm destroy' });
  });
});
