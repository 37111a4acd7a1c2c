import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InstanceStatus } from '../../src/generated/prisma/enums';
import { operate } from '../support/lifecycle';
import { startStack, type Stack } from '../support/stack';

const STATUSES = Object.values(InstanceStatus);
const BUSY: InstanceStatus[] = ['pending', 'scheduling', 'provisioning', 'starting', 'stopping', 'rebooting', 'resizing', 'rebuilding', 'migrating', 'deleting', 'snapshotting', 'rolling_back', 'restoring', 'updating_firewall', 'entering_rescue', 'leaving_rescue', 'configuring_boot', 'updating_network'];

/** Where each operation is allowed (the contract), written out rather than imported. */
const ALLOWED: Record<string, InstanceStatus[]> = {
  start: ['stopped'],
  // In rescue the power operations keep working.
  stop: ['running', 'rescue'],
  shutdown: ['running', 'rescue'],
  reboot: ['running', 'rescue'],
  resize: ['stopped'],
  rebuild: ['running', 'stopped', 'rebuild_failed'],
  migrate: ['running', 'stopped'],
  // Deletes are idempotent and cancel provisioning; a deleted server answers 200.
  delete: ['pending', 'scheduling', 'provisioning', 'running', 'stopped', 'rescue', 'failed', 'rollback_failed', 'rebuild_failed', 'lost', 'deleting', 'deleted'],
};

function expected(status: InstanceStatus, operation: string): { http: number; code?: string } {
  // A parked cleanup takes the delete as an Update of its own workflow, and no worker runs here to take it.
  if (operation === 'delete' && status === 'rollback_failed') return { http: 503, code: 'PROVIDER_UNAVAILABLE' };
  if (ALLOWED[operation]?.includes(status)) return { http: operation === 'delete' && status === 'deleted' ? 200 : 202 };
  // A backup says what the server is busy with.
  if (status === 'backing_up') return { http: 409, code: 'BACKUP_IN_PROGRESS' };
  return BUSY.includes(status) ? { http: 409, code: 'OPERATION_IN_PROGRESS' } : { http: 409, code: 'INVALID_STATE' };
}

describe('which operation each status allows', () => {
  let stack: Stack;
  let id: string;
  let other: string;
  const bodies: Record<string, unknown> = {};

  beforeAll(async () => {
    // No worker: workflows are started but never run, so the rows stay as this test sets them.
    stack = await startStack({ worker: false });
    id = (await stack.create({ hostname: 'matrix' })).body.data.id;
    const row = await stack.api.db.instance.findUniqueOrThrow({ where: { id } });
    bodies.resize = { planId: row.planId };
    bodies.rebuild = {};
    bodies.migrate = { node: ['pve1', 'pve2', 'pve3'].find((n) => n !== row.node) };
    const stranger = await stack.api.createCustomer();
    other = (await stack.api.request('POST', '/v1/instances', {
      token: stranger.token,
      body: { planId: row.planId, locationId: row.locationId, imageId: row.imageId, hostname: 'theirs' },
    })).body.data.id;
  });
  afterAll(async () => {
    await stack?.close();
  });

  /** Puts the instance in `status` with no operation under way. */
  const setStatus = async (status: InstanceStatus) => {
    await stack.api.db.task.updateMany({ where: { instanceId: id }, data: { activeInstanceId: null, status: 'failed' } });
    await stack.api.db.nodeAllocation.updateMany({ where: { instanceId: id }, data: { targetNodeId: null } });
    await stack.api.db.instance.update({ where: { id }, data: { status, desiredState: 'running', deletedAt: null } });
  };

  for (const operation of Object.keys(ALLOWED)) {
    it(`${operation}: allowed, in progress or refused for each of the ${STATUSES.length} statuses`, async () => {
      for (const status of STATUSES) {
        await setStatus(status);
        const res = await operate(stack, id, operation, bodies[operation]);
        const want = expected(status, operation);
        expect({ status, http: res.status, code: res.body.error?.code }, res.text).toEqual({ status, http: want.http, code: want.code });
        if (want.code === 'INVALID_STATE') expect(res.body.error.details).toEqual({ status });
        if (want.http === 202) expect(res.body.meta.taskId).toMatch(/^task_/);
      }
    });
  }

  it('refuses a second operation while a task is active even when the status looks stable (the unique active task)', async () => {
    await setStatus('running');
    await stack.api.db.task.updateMany({ where: { instanceId: id, type: 'INSTANCE_CREATE' }, data: { activeInstanceId: id, status: 'running' } });
    for (const operation of ['stop', 'reboot', 'shutdown', 'rebuild', 'migrate', 'delete']) {
      const res = await operate(stack, id, operation, bodies[operation]);
      expect({ operation, http: res.status, code: res.body.error?.code }).toEqual({ operation, http: 409, code: 'OPERATION_IN_PROGRESS' });
    }
    expect(await stack.api.db.task.count({ where: { instanceId: id, activeInstanceId: id } })).toBe(1);
  });

  it("answers 404 for another tenant's server and 400 for unknown fields", async () => {
    await setStatus('running');
    for (const operation of ['stop', 'reboot', 'rebuild', 'delete']) {
      const res = await operate(stack, other, operation, bodies[operation]);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    const extra = await operate(stack, id, 'stop', { force: true });
    expect(extra.status).toBe(400);
    expect(extra.body.error).toMatchObject({ code: 'INVALID_INPUT', details: { fields: { force: 'unknown field' } } });
    const noPlan = await operate(stack, id, 'resize', {});
    expect(noPlan.status).toBe(400);
  });
});
