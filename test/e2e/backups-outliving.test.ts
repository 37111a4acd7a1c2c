/**
 * Backups as things of their own: one kept after its server was deleted (or that the server's
 * delete could not remove) counts against the tenant, restores as a new server and can be deleted;
 * a lost backup comes back when its archive is listed again, and deleting one removes its archive
 * if Proxmox has it; a backup a new server is being restored from is held until that restore ends.
 */
import { describe, expect, it } from 'vitest';
import { triggerRun } from '../support/backup-schedules';
import { guestOf, operate, runningServer, suiteStack, taskEnd } from '../support/lifecycle';
import type { Stack } from '../support/stack';

const steps = (task: { steps: { step: string; status: string }[] }) => task.steps.map((s) => `${s.step}: ${s.status}`);

describe('backups outlive their server, come back, and are held while read', () => {
  const stack = suiteStack({}, async (started) => {
    await started.sim.clearFaults();
    await started.sim.options({ taskMsByType: {} });
    await mount(started, true);
  });
  const customer = (method: string, path: string, body?: unknown) => stack.api.request(method, path, { token: stack.customer.token, ...(body === undefined ? {} : { body }) });
  const backUp = async (id: string) => {
    const made = await customer('POST', `/v1/instances/${id}/backups`, {});
    expect((await taskEnd(stack, made.body.meta.taskId)).status).toBe('succeeded');
    return made.body.data.id as string;
  };
  const usage = async () => {
    const { backups, backupBytes } = (await customer('GET', '/v1/account')).body.data.tenant.usage as { backups: number; backupBytes: number };
    return { backups, backupBytes };
  };
  const archiveOf = async (backupId: string) => (await stack.sim.state()).backups.find((b) => b.notes.includes(backupId));
  const reconcile = async (id: string) => expect((await stack.api.request('POST', `/v1/admin/instances/${id}/reconcile`, { token: stack.api.adminToken })).status).toBe(200);
  const statusOf = async (backupId: string) => (await stack.api.db.backup.findUniqueOrThrow({ where: { id: backupId } })).status;

  it('a backup kept after its server was deleted counts against the tenant, restores as a new server and can be deleted', async () => {
    const id = await runningServer(stack, { hostname: 'kept-src' });
    await stack.sim.writeGuestFile((await guestOf(stack, id))!.vmid, '/data', 'kept');
    const first = await backUp(id);
    const second = await backUp(id);
    const held = await usage();
    const deleted = await customer('DELETE', `/v1/instances/${id}?keepBackups=true`);
    expect((await taskEnd(stack, deleted.body.meta.taskId)).status).toBe('succeeded');
    expect(await usage()).toEqual(held);
    expect(held.backups).toBeGreaterThanOrEqual(2);
    expect(held.backupBytes).toBeGreaterThanOrEqual((await archiveOf(first))!.size + (await archiveOf(second))!.size);

    const copy = await stack.create({ imageId: undefined, backupId: first, hostname: 'kept-copy' });
    expect((await taskEnd(stack, copy.body.meta.taskId!, 60_000)).status).toBe('succeeded');
    expect((await guestOf(stack, copy.body.data.id))?.files).toEqual({ '/data': 'kept' });

    const removal = await customer('DELETE', `/v1/backups/${second}`);
    expect(removal.status).toBe(202);
    expect(removal.body.data.status).toBe('deleting');
    const task = await taskEnd(stack, removal.body.meta.taskId);
    expect(task).toMatchObject({ type: 'BACKUP_DELETE', status: 'succeeded' });
    expect(steps(task)).toEqual(expect.arrayContaining(['backup_delete > deleting the archive: success', 'backup_delete > done: success']));
    expect(await archiveOf(second)).toBeUndefined();
    expect((await customer('GET', `/v1/backups/${second}`)).status).toBe(404);
    expect((await usage()).backups).toBe(held.backups - 1);
    const events = await stack.api.db.instanceEvent.findMany({ where: { instanceId: id, type: 'backup.deleted' } });
    expect(events.map((e) => (e.data as { backupId?: string }).backupId)).toEqual([second]);
  });

  it("a backup the server's delete could not remove is kept, says so, and can be deleted later", { timeout: 120_000 }, async () => {
    const id = await runningServer(stack, { hostname: 'kept-stuck' });
    const backupId = await backUp(id);
    // The archive's delete never ends: the delete gives up on the server's backups after its budget.
    await stack.sim.fault({ op: 'volume_delete', mode: 'hang' });
    const deleted = await operate(stack, id, 'delete');
    const task = await taskEnd(stack, deleted.body.meta.taskId, 90_000);
    expect(task.status).toBe('succeeded');
    expect(steps(task)).toContain('delete > backups: warning');
    expect(await stack.api.db.backup.findUniqueOrThrow({ where: { id: backupId } })).toMatchObject({ status: 'available', kept: true });
    await stack.sim.clearFaults();

    const removal = await customer('DELETE', `/v1/backups/${backupId}`);
    expect(removal.status).toBe(202);
    expect((await taskEnd(stack, removal.body.meta.taskId)).status).toBe('succeeded');
    expect(await archiveOf(backupId)).toBeUndefined();
    expect(await statusOf(backupId)).toBe('deleted');
  });

  it('a lost backup comes back when its archive is listed again; deleting a lost backup removes its archive', async () => {
    const id = await runningServer(stack, { hostname: 'lost-back' });
    const backupId = await backUp(id);
    await mount(stack, false);
    await reconcile(id);
    expect(await statusOf(backupId)).toBe('lost');
    await mount(stack, true);
    await reconcile(id);
    expect(await stack.api.db.backup.findUniqueOrThrow({ where: { id: backupId } })).toMatchObject({ status: 'available', failureCode: null });
    const events = (await stack.api.db.instanceEvent.findMany({ where: { instanceId: id }, orderBy: { seq: 'asc' } })).map((e) => e.type);
    expect(events.slice(-2)).toEqual(['backup.lost', 'backup.found']);

    await mount(stack, false);
    await reconcile(id);
    await mount(stack, true);
    expect(await statusOf(backupId)).toBe('lost');
    const removal = await customer('DELETE', `/v1/backups/${backupId}`);
    expect(removal.status).toBe(202);
    expect((await taskEnd(stack, removal.body.meta.taskId)).status).toBe('succeeded');
    expect(await archiveOf(backupId)).toBeUndefined();
    expect(await statusOf(backupId)).toBe('deleted');
  });

  it('a backup a new server is being restored from is held: no delete, no pruning, kept by its server\'s delete; free once the restore ends', { timeout: 120_000 }, async () => {
    const id = await runningServer(stack, { hostname: 'held-src' });
    const read = await backUp(id);
    await stack.api.db.backup.update({ where: { id: read }, data: { scheduled: true } });
    const schedule = await customer('PUT', `/v1/instances/${id}/backup-schedule`, { frequency: 'daily', time: '03:00', timezone: 'UTC', keepLast: 1 });
    expect(schedule.status).toBe(200);

    // The restore runs until the test lets it end.
    await stack.sim.fault({ op: 'restore', mode: 'hang' });
    const copy = await stack.create({ imageId: undefined, backupId: read, hostname: 'held-copy' });
    const taskId = copy.body.meta.taskId!;
    let upid: string | null = null;
    await expect.poll(async () => (upid = (await stack.api.db.providerCall.findFirst({ where: { taskId, kind: 'restore' } }))?.upid ?? null), { timeout: 30_000, interval: 50 }).not.toBeNull();

    const refused = await customer('DELETE', `/v1/backups/${read}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('BACKUP_IN_USE');
    // The schedule's run prunes what it keeps beyond one, but not the backup being read.
    const run = await triggerRun(stack, id);
    expect(run.outcome.backupId).toBeDefined();
    expect(await statusOf(read)).toBe('available');
    // Deleting its server keeps it.
    const deleted = await operate(stack, id, 'delete');
    expect((await taskEnd(stack, deleted.body.meta.taskId, 60_000)).status).toBe('succeeded');
    expect(await stack.api.db.backup.findUniqueOrThrow({ where: { id: read } })).toMatchObject({ status: 'available', kept: true });
    expect(await archiveOf(read)).toBeDefined();

    await stack.sim.endTask(upid!);
    expect((await taskEnd(stack, taskId, 60_000)).status).toBe('succeeded');
    const removal = await customer('DELETE', `/v1/backups/${read}`);
    expect(removal.status).toBe(202);
    expect((await taskEnd(stack, removal.body.meta.taskId)).status).toBe('succeeded');
    expect(await archiveOf(read)).toBeUndefined();
  });
});

/** Mounts the backup storage's disk, or takes it away for a while (the storage then lists no archives). */
async function mount(stack: Stack, mounted: boolean): Promise<void> {
  const res = await fetch(`${stack.sim.url}/_sim/storages/local`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ unmounted: !mounted }) });
  expect(res.ok).toBe(true);
}
