/**
 * A backup restored as a new server: POST /v1/instances with `backupId` reserves like any create,
 * its clone stage restores the archive instead of cloning an image, and the rest is a provision
 * (rollback included). The original server is never touched.
 */
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/security/ids';
import { callCount, guestOf, readInstance, runningServer, suiteStack, taskEnd } from '../support/lifecycle';
import { expectFullyReleased } from '../support/reservations';
import { guestsOf, seededId, type Stack } from '../support/stack';

const RESTORE = 'POST /nodes/{node}/qemu';
const steps = (task: { steps: { step: string; status: string }[] }) => task.steps.map((s) => `${s.step}: ${s.status}`);

/** A running server with a file on its disk, and an available backup of it. */
async function backedUpServer(stack: Stack, hostname: string, body: { planId?: string } = {}) {
  const id = await runningServer(stack, { hostname, ...body });
  const guest = (await guestOf(stack, id))!;
  await stack.sim.writeGuestFile(guest.vmid, '/var/www/index.html', `<h1>${hostname}</h1>`);
  const made = await stack.api.request('POST', `/v1/instances/${id}/backups`, { token: stack.customer.token, body: {} });
  expect((await taskEnd(stack, made.body.meta.taskId)).status).toBe('succeeded');
  return { id, guest, backupId: made.body.data.id as string };
}

/** A create from a backup, untyped: for refusals. */
const restoreAsNew = (stack: Stack, body: Record<string, unknown>, token = stack.customer.token) =>
  stack.api.request('POST', '/v1/instances', { token, body: { planId: seededId(stack.seed.plans, 'small'), hostname: 'copy', ...body } });

describe('a backup restored as a new server', () => {
  const stack = suiteStack();

  it('runs beside the original with its own VMID, addresses and name, holding the original’s files; the original is untouched', async () => {
    const original = await backedUpServer(stack, 'shop');
    const before = await readInstance(stack, original.id);
    const restores = await callCount(stack, RESTORE);

    const created = await stack.create({ imageId: undefined, locationId: undefined, backupId: original.backupId, hostname: 'shop-copy' });
    expect(created.status).toBe(202);
    const id = created.body.data.id;
    expect(created.body.data).toMatchObject({ hostname: 'shop-copy', image: before.image, location: before.location });
    const task = await taskEnd(stack, created.body.meta.taskId!);
    expect(task).toMatchObject({ type: 'INSTANCE_CREATE', status: 'succeeded' });
    expect(steps(task)).toEqual(expect.arrayContaining(['clone > restoring the backup: success', 'finalize > finishing: success']));
    expect(steps(task).some((s) => s.startsWith('clone > cloning the image'))).toBe(false);

    const copy = await readInstance(stack, id);
    expect(copy.status).toBe('running');
    expect(copy.ipv4).not.toBeNull();
    expect(copy.ipv4).not.toBe(before.ipv4);
    const guest = (await guestOf(stack, id))!;
    expect(guest.vmid).not.toBe(original.guest.vmid);
    expect(guest).toMatchObject({ status: 'running', name: 'shop-copy', files: { '/var/www/index.html': '<h1>shop</h1>' } });
    expect(guest.config.net0).not.toBe(original.guest.config.net0);
    expect(await callCount(stack, RESTORE)).toBe(restores + 1);
    const calls = await stack.api.db.providerCall.findMany({ where: { taskId: task.id, kind: 'restore' } });
    expect(calls).toEqual([expect.objectContaining({ status: 'succeeded', upid: expect.stringContaining(':qmrestore:') })]);
    expect(await stack.api.db.instance.findUniqueOrThrow({ where: { id } })).toMatchObject({ restoredFromBackupId: original.backupId });
    const events = await stack.api.db.instanceEvent.findMany({ where: { instanceId: id }, orderBy: { seq: 'asc' } });
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['instance.created', 'instance.running', 'instance.restored']));
    expect(events.find((e) => e.type === 'instance.restored')?.data).toMatchObject({ backupId: original.backupId });

    // The original keeps running as it was, and its backup stays.
    expect(await readInstance(stack, original.id)).toMatchObject({ status: 'running', ipv4: before.ipv4, ipv6: before.ipv6 });
    expect(await guestOf(stack, original.id)).toMatchObject({ vmid: original.guest.vmid, status: 'running', name: 'shop', files: { '/var/www/index.html': '<h1>shop</h1>' } });
    expect((await stack.api.request('GET', `/v1/backups/${original.backupId}`, { token: stack.customer.token })).body.data.status).toBe('available');
  });

  it("refuses before any call: another tenant's backup (404), neither or both of imageId and backupId (400), another location, a smaller plan's disk (422), a failed backup (409)", async () => {
    const original = await backedUpServer(stack, 'big', { planId: seededId(stack.seed.plans, 'medium') });
    const restores = await callCount(stack, RESTORE);
    const instances = await stack.api.db.instance.count();

    const stranger = await stack.api.createCustomer();
    const foreign = await restoreAsNew(stack, { backupId: original.backupId }, stranger.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');

    const both = await restoreAsNew(stack, { backupId: original.backupId, imageId: seededId(stack.seed.images, 'debian-12'), locationId: stack.seed.locationId });
    expect(both.status).toBe(400);
    expect(both.body.error).toMatchObject({ code: 'INVALID_INPUT', details: { fields: { backupId: 'send exactly one of imageId and backupId' } } });
    const neither = await restoreAsNew(stack, { locationId: stack.seed.locationId });
    expect(neither.status).toBe(400);
    expect(neither.body.error.details.fields).toMatchObject({ imageId: 'send exactly one of imageId and backupId' });

    const elsewhere = await stack.api.db.location.create({ data: { id: newId('loc'), name: 'elsewhere', connectionId: (await stack.api.db.location.findUniqueOrThrow({ where: { id: stack.seed.locationId } })).connectionId } });
    const wrongPlace = await restoreAsNew(stack, { backupId: original.backupId, planId: seededId(stack.seed.plans, 'medium'), locationId: elsewhere.id });
    expect(wrongPlace.status).toBe(422);
    expect(wrongPlace.body.error).toMatchObject({ code: 'UNSUPPORTED', details: { fields: { locationId: 'not where the backup is stored' } } });

    const tooSmall = await restoreAsNew(stack, { backupId: original.backupId });
    expect(tooSmall.status).toBe(422);
    expect(tooSmall.body.error).toMatchObject({ code: 'PLAN_DISK_TOO_SMALL', details: { diskGiB: 20 } });

    await stack.sim.fault({ op: 'backup', mode: 'task_fail', message: 'job errors' });
    const failedBackup = await stack.api.request('POST', `/v1/instances/${original.id}/backups`, { token: stack.customer.token, body: {} });
    await taskEnd(stack, failedBackup.body.meta.taskId);
    const notRestorable = await restoreAsNew(stack, { backupId: failedBackup.body.data.id, planId: seededId(stack.seed.plans, 'medium') });
    expect(notRestorable.status).toBe(409);
    expect(notRestorable.body.error).toMatchObject({ code: 'BACKUP_NOT_RESTORABLE', details: { status: 'failed' } });

    expect(await callCount(stack, RESTORE)).toBe(restores);
    expect(await stack.api.db.instance.count()).toBe(instances);
  });

  it('a failed restore task rolls the new server back completely: no guest left, reservations released, the backup kept', async () => {
    const original = await backedUpServer(stack, 'fragile');
    await stack.sim.fault({ op: 'restore', mode: 'task_fail', message: 'unable to restore VM - storage full' });
    const created = await stack.create({ imageId: undefined, backupId: original.backupId, hostname: 'fragile-copy' });
    const id = created.body.data.id;
    const failed = await stack.waitForStatus(id, ['failed', 'running', 'rollback_failed']);
    expect(failed.status).toBe('failed');
    expect(JSON.stringify(failed)).not.toContain('storage full');

    const restore = await stack.api.db.providerCall.findFirstOrThrow({ where: { instanceId: id, kind: 'restore' } });
    expect(restore.status).toBe('failed');
    expect((await stack.sim.state()).guests.some((g) => g.vmid === restore.vmid)).toBe(false);
    expect(guestsOf(await stack.sim.state(), id)).toEqual([]);
    await expectFullyReleased(stack.api.db, id);
    expect((await stack.api.request('GET', `/v1/backups/${original.backupId}`, { token: stack.customer.token })).body.data.status).toBe('available');
    expect(await guestOf(stack, original.id)).toMatchObject({ status: 'running', files: { '/var/www/index.html': '<h1>fragile</h1>' } });
  });
});
