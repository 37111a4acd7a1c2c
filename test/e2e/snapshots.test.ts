/**
 * Snapshots end to end: taken, rolled back (the change made after it is gone), deleted; the list
 * follows the guest after a rebuild, an in-place restore and a reconcile; limits and storages
 * that cannot snapshot are refused before Proxmox is asked anything.
 */
import { describe, expect, it } from 'vitest';
import { callCount, guestOf, operate, Q, readInstance, runningServer, suiteStack, taskEnd } from '../support/lifecycle';
import { DEFAULT_SIM_TOKEN } from '../../src/simulator/server';
import { seededId } from '../support/stack';

const SNAPSHOT_CALL = `POST ${Q}/snapshot`;
const steps = (task: { steps: { step: string; status: string }[] }) => task.steps.map((s) => `${s.step}: ${s.status}`);

describe('snapshots end to end', () => {
  const stack = suiteStack();

  const snapshot = (id: string, body: unknown) => stack.api.request('POST', `/v1/instances/${id}/snapshots`, { token: stack.customer.token, body });
  const list = async (id: string) => (await stack.api.request('GET', `/v1/instances/${id}/snapshots`, { token: stack.customer.token })).body.data as { name: string; status: string }[];

  it('snapshot, change, rollback: the change is gone and the server runs again', async () => {
    const id = await runningServer(stack, { hostname: 'snap-1' });
    const vmid = (await guestOf(stack, id))!.vmid;
    await stack.sim.writeGuestFile(vmid, '/etc/app.conf', 'version=1');

    const taken = await stack.client.POST('/v1/instances/{id}/snapshots', { params: { path: { id } }, body: { name: 'before-upgrade', description: 'v1 works' } });
    expect(taken.response.status).toBe(202);
    expect(taken.data?.data).toMatchObject({ name: 'before-upgrade', description: 'v1 works', status: 'creating', includesMemory: false });
    const snapTask = await taskEnd(stack, taken.data!.meta.taskId!);
    expect(snapTask).toMatchObject({ type: 'SNAPSHOT_CREATE', status: 'succeeded' });
    expect(steps(snapTask)).toContain('snapshot > taking the snapshot: success');
    expect(await list(id)).toEqual([expect.objectContaining({ name: 'before-upgrade', status: 'available' })]);
    expect((await readInstance(stack, id)).status).toBe('running');

    await stack.sim.writeGuestFile(vmid, '/etc/app.conf', 'version=2 (broken)');
    const rolled = await stack.client.POST('/v1/instances/{id}/snapshots/{name}/rollback', { params: { path: { id, name: 'before-upgrade' } } });
    expect(rolled.response.status).toBe(202);
    expect(rolled.data?.data.status).toBe('rolling_back');
    const task = await taskEnd(stack, rolled.data!.meta.taskId!);
    expect(task).toMatchObject({ type: 'SNAPSHOT_ROLLBACK', status: 'succeeded' });
    // a running server without saved RAM: stopped first, started after
    expect(steps(task)).toEqual(
      expect.arrayContaining(['rollback > stopping the server: success', 'rollback > rolling back: success', 'rollback > starting the server: success', 'rollback > done: success']),
    );
    const guest = await guestOf(stack, id);
    expect(guest?.files).toEqual({ '/etc/app.conf': 'version=1' });
    expect(guest?.status).toBe('running');
    expect((await readInstance(stack, id)).status).toBe('running');

    const events = await stack.api.db.instanceEvent.findMany({ where: { instanceId: id }, orderBy: { seq: 'asc' } });
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['instance.snapshotting', 'snapshot.created', 'instance.rolling_back', 'instance.rolled_back']));
    expect(events.find((e) => e.type === 'instance.rolled_back')?.data).toMatchObject({ snapshot: 'before-upgrade', status: 'running' });
    const calls = await stack.api.db.providerCall.findMany({ where: { taskId: task.id }, orderBy: { createdAt: 'asc' } });
    expect(calls.map((c) => [c.kind, c.status, c.upid !== null])).toEqual([
      ['stop', 'succeeded', true],
      ['rollback', 'succeeded', true],
      ['start', 'succeeded', true],
    ]);
  });

  it('a stopped server stays stopped after a rollback', async () => {
    const id = await runningServer(stack, { hostname: 'snap-stopped' });
    await taskEnd(stack, (await operate(stack, id, 'stop')).body.meta.taskId);
    await taskEnd(stack, (await snapshot(id, { name: 'cold' })).body.meta.taskId);
    const rolled = await stack.api.request('POST', `/v1/instances/${id}/snapshots/cold/rollback`, { token: stack.customer.token, body: {} });
    const task = await taskEnd(stack, rolled.body.meta.taskId);
    expect(steps(task)).not.toContain('rollback > stopping the server: success');
    expect(steps(task)).not.toContain('rollback > starting the server: success');
    expect((await readInstance(stack, id)).status).toBe('stopped');
  });

  it('deletes a snapshot on Proxmox, and frees its name and its place in the limit', async () => {
    const id = await runningServer(stack, { hostname: 'snap-del' });
    await taskEnd(stack, (await snapshot(id, { name: 'old' })).body.meta.taskId);
    const deleted = await stack.api.request('DELETE', `/v1/instances/${id}/snapshots/old`, { token: stack.customer.token });
    expect(deleted.status).toBe(202);
    expect(deleted.body.data.status).toBe('deleting');
    expect((await taskEnd(stack, deleted.body.meta.taskId)).status).toBe('succeeded');
    expect(await list(id)).toEqual([]);
    expect((await guestOf(stack, id))?.snapshots).toEqual([]);
    expect((await stack.api.request('GET', `/v1/instances/${id}/snapshots/old`, { token: stack.customer.token })).status).toBe(404);
    expect((await snapshot(id, { name: 'old' })).status).toBe(202);
  });

  it('follows the guest: snapshots a rebuild, an in-place restore or the Proxmox UI removed are no longer listed, counted or holding their names', async () => {
    const id = await runningServer(stack, { hostname: 'snap-follow' });
    const vmid = (await guestOf(stack, id))!.vmid;
    const reconcile = async () => expect((await stack.api.request('POST', `/v1/admin/instances/${id}/reconcile`, { token: stack.api.adminToken })).status).toBe(200);
    const planId = seededId(stack.seed.plans, 'small');
    await stack.api.db.plan.update({ where: { id: planId }, data: { snapshotLimit: 2 } });
    try {
      // An in-place restore writes a guest without snapshots.
      const backup = await stack.api.request('POST', `/v1/instances/${id}/backups`, { token: stack.customer.token, body: {} });
      await taskEnd(stack, backup.body.meta.taskId);
      await taskEnd(stack, (await snapshot(id, { name: 'before-restore' })).body.meta.taskId);
      await taskEnd(stack, (await snapshot(id, { name: 'second' })).body.meta.taskId);
      const restore = await stack.api.request('POST', `/v1/backups/${backup.body.data.id}/restore`, { token: stack.customer.token, body: {} });
      expect((await taskEnd(stack, restore.body.meta.taskId)).status).toBe('succeeded');
      expect((await guestOf(stack, id))?.snapshots).toEqual([]);
      expect(await list(id)).toEqual([]);
      // their names and their places in the limit are free again; a rollback to one is not found, nothing stopped
      expect((await stack.api.request('POST', `/v1/instances/${id}/snapshots/second/rollback`, { token: stack.customer.token, body: {} })).status).toBe(404);
      await taskEnd(stack, (await snapshot(id, { name: 'before-restore' })).body.meta.taskId);
      await taskEnd(stack, (await snapshot(id, { name: 'before-rebuild' })).body.meta.taskId);

      // A rebuild destroys the disk they were of.
      const rebuilt = await stack.api.request('POST', `/v1/instances/${id}/rebuild`, { token: stack.customer.token, body: { imageId: stack.seed.images['ubuntu-24.04'] } });
      expect((await taskEnd(stack, rebuilt.body.meta.taskId, 60_000)).status).toBe('succeeded');
      expect(await list(id)).toEqual([]);
      expect((await snapshot(id, { name: 'before-rebuild' })).status).toBe(202);
      await stack.waitForStatus(id, ['running'], 30_000);

      // One deleted in the Proxmox UI goes at the next reconcile.
      await taskEnd(stack, (await snapshot(id, { name: 'by-hand' })).body.meta.taskId);
      const node = (await guestOf(stack, id))!.node;
      await fetch(`${stack.sim.url}/api2/json/nodes/${node}/qemu/${vmid}/snapshot/by-hand`, { method: 'DELETE', headers: { authorization: `PVEAPIToken=${DEFAULT_SIM_TOKEN}` } });
      await expect.poll(async () => (await guestOf(stack, id))?.snapshots, { timeout: 10_000 }).toEqual(['before-rebuild']);
      await reconcile();
      expect((await list(id)).map((s) => s.name)).toEqual(['before-rebuild']);
      const events = (await stack.api.db.instanceEvent.findMany({ where: { instanceId: id, type: 'snapshot.deleted' } })).map((e) => (e.data as { snapshot: string }).snapshot);
      expect(events.sort()).toEqual(['before-rebuild', 'before-restore', 'before-restore', 'by-hand', 'second'].sort());
    } finally {
      await stack.api.db.plan.update({ where: { id: planId }, data: { snapshotLimit: 3 } });
    }
  });

  it("refuses past the plan's limit, and for a plan without snapshots, before any call to Proxmox", async () => {
    const id = await runningServer(stack, { hostname: 'snap-limit' });
    const planId = seededId(stack.seed.plans, 'small');
    await stack.api.db.plan.update({ where: { id: planId }, data: { snapshotLimit: 1 } });
    try {
      await taskEnd(stack, (await snapshot(id, { name: 'first' })).body.meta.taskId);
      const calls = await callCount(stack, SNAPSHOT_CALL);
      const refused = await snapshot(id, { name: 'second' });
      expect(refused.status).toBe(422);
      expect(refused.body.error).toMatchObject({ code: 'SNAPSHOT_LIMIT_REACHED', details: { limit: 1 } });
      await stack.api.db.plan.update({ where: { id: planId }, data: { snapshotLimit: 0 } });
      const none = await snapshot(id, { name: 'second' });
      expect(none.body.error).toMatchObject({ code: 'SNAPSHOT_LIMIT_REACHED', message: "This server's plan includes no snapshots." });
      expect(await callCount(stack, SNAPSHOT_CALL)).toBe(calls);
      expect((await readInstance(stack, id)).status).toBe('running');
    } finally {
      await stack.api.db.plan.update({ where: { id: planId }, data: { snapshotLimit: 3 } });
    }
  });

  it('refuses where the storage cannot snapshot (422 SNAPSHOTS_UNSUPPORTED), before any call to Proxmox', async () => {
    const id = await runningServer(stack, { hostname: 'snap-thick' });
    const patched = await stack.api.request('PATCH', `/v1/admin/locations/${stack.seed.locationId}`, { token: stack.api.adminToken, body: { snapshotsSupported: false } });
    expect(patched.body.data.snapshotsSupported).toBe(false);
    try {
      const calls = await callCount(stack, SNAPSHOT_CALL);
      const refused = await snapshot(id, { name: 'nope' });
      expect(refused.status).toBe(422);
      expect(refused.body.error.code).toBe('SNAPSHOTS_UNSUPPORTED');
      expect(await callCount(stack, SNAPSHOT_CALL)).toBe(calls);
      const location = await stack.api.request('GET', '/v1/locations', { token: stack.customer.token });
      expect(location.body.data).toContainEqual(expect.objectContaining({ id: stack.seed.locationId, snapshots: false, backups: true }));
    } finally {
      await stack.api.request('PATCH', `/v1/admin/locations/${stack.seed.locationId}`, { token: stack.api.adminToken, body: { snapshotsSupported: true } });
    }
  });

  it("validates names to Proxmox's rule, and a taken name is a conflict", async () => {
    const id = await runningServer(stack, { hostname: 'snap-names' });
    for (const name of ['current', 'Pending', '1st', 'a', 'with space', 'x'.repeat(41), 'dots.not.allowed']) {
      const answer = await snapshot(id, { name });
      expect(answer.status, name).toBe(400);
      expect(answer.body.error.details.fields.name, name).toBeDefined();
    }
    await taskEnd(stack, (await snapshot(id, { name: 'Release_1-0' })).body.meta.taskId);
    const again = await snapshot(id, { name: 'Release_1-0' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONFLICT');
  });

  it('conflicts with other operations like lifecycle operations do', async () => {
    const id = await runningServer(stack, { hostname: 'snap-busy' });
    await stack.sim.options({ taskMsByType: { qmsnapshot: 1500 } });
    try {
      const taken = await snapshot(id, { name: 'slow' });
      expect(taken.status).toBe(202);
      const stop = await operate(stack, id, 'stop');
      expect(stop.status).toBe(409);
      expect(stop.body.error.code).toBe('OPERATION_IN_PROGRESS');
      const other = await snapshot(id, { name: 'other' });
      expect(other.body.error.code).toBe('OPERATION_IN_PROGRESS');
      await taskEnd(stack, taken.body.meta.taskId);
    } finally {
      await stack.sim.options({ taskMsByType: {} });
    }
  });
});
