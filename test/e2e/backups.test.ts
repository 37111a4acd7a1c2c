/**
 * Backups end to end: made by vzdump on the location's backup storage (one per host at a time),
 * restored in place over a wiped disk (refused before anything changes on a host that cannot read
 * the archive), refused before any call past the plan's limit, deleted
 * unless protected; a worker killed mid-vzdump or mid-restore (in place or as a new server)
 * resumes from the recorded UPID.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProxmoxClient } from '../../src/proxmox';
import { DEFAULT_SIM_TOKEN, parseToken } from '../../src/simulator/server';
import { callCount, crashWorkerWhilePolling, guestOf, operate, readInstance, runningServer, suiteStack, taskEnd } from '../support/lifecycle';
import { seededId, type Stack, type WorkerProcess } from '../support/stack';

const VZDUMP = 'POST /nodes/{node}/vzdump';
const RESTORE = 'POST /nodes/{node}/qemu';
const steps = (task: { steps: { step: string; status: string }[] }) => task.steps.map((s) => `${s.step}: ${s.status}`);

const backUp = (stack: Stack, id: string, body: unknown = {}) => stack.api.request('POST', `/v1/instances/${id}/backups`, { token: stack.customer.token, body });

/** Only pve1 takes new servers, so the servers of a test share a host. */
async function onlyPve1(stack: Stack, draining: boolean): Promise<void> {
  await stack.api.db.node.updateMany({ where: { name: { not: 'pve1' } }, data: { draining } });
}

describe('backups end to end', () => {
  const stack = suiteStack();

  it('backup, wiped disk, restore in place: the data is back, with the same addresses and login', async () => {
    const id = await runningServer(stack, { hostname: 'bkp-1' });
    const before = await readInstance(stack, id);
    const guest = (await guestOf(stack, id))!;
    await stack.sim.writeGuestFile(guest.vmid, '/var/www/index.html', '<h1>shop</h1>');

    const made = await stack.client.POST('/v1/instances/{id}/backups', { params: { path: { id } }, body: { notes: 'before the migration' } });
    expect(made.response.status).toBe(202);
    expect(made.data?.data).toMatchObject({ status: 'pending', notes: 'before the migration', protected: false, external: false, sizeBytes: null });
    const backupTask = await taskEnd(stack, made.data!.meta.taskId!);
    expect(backupTask).toMatchObject({ type: 'BACKUP_CREATE', status: 'succeeded' });
    expect(steps(backupTask)).toContain('backup > writing the archive: success');
    const backupId = made.data!.data.id;
    const backup = (await stack.client.GET('/v1/backups/{id}', { params: { path: { id: backupId } } })).data!.data;
    const archive = (await stack.sim.state()).backups.find((b) => b.vmid === guest.vmid)!;
    expect(backup).toMatchObject({ status: 'available', sizeBytes: archive.size, completedAt: expect.any(String) });
    expect(archive).toMatchObject({ storage: 'local', notes: expect.stringContaining(`pvecp-backup:${backupId}`) });
    expect((await readInstance(stack, id)).status).toBe('running');

    await stack.sim.wipeGuestDisk(guest.vmid);
    const restore = await stack.client.POST('/v1/backups/{id}/restore', { params: { path: { id: backupId } } });
    expect(restore.response.status).toBe(202);
    expect(restore.data?.data.status).toBe('restoring');
    const task = await taskEnd(stack, restore.data!.meta.taskId!);
    expect(task).toMatchObject({ type: 'BACKUP_RESTORE', status: 'succeeded' });
    expect(steps(task)).toEqual(
      expect.arrayContaining([
        'restore > stopping the server: success',
        'restore > restoring the archive: success',
        'configure > sizing the server: success',
        'network > attaching the network: success',
        'start > starting the server: success',
        'restore > done: success',
      ]),
    );
    const restored = (await guestOf(stack, id))!;
    expect(restored.files).toEqual({ '/var/www/index.html': '<h1>shop</h1>' });
    expect(restored).toMatchObject({ vmid: guest.vmid, status: 'running' });
    expect(restored.config.net0).toBe(guest.config.net0);
    const after = await readInstance(stack, id);
    expect(after).toMatchObject({ status: 'running', ipv4: before.ipv4, ipv6: before.ipv6, username: before.username });

    const calls = await stack.api.db.providerCall.findMany({ where: { taskId: backupTask.id } });
    expect(calls).toEqual([expect.objectContaining({ kind: 'vzdump', status: 'succeeded', upid: expect.stringContaining(':vzdump:') })]);
    const events = (await stack.api.db.instanceEvent.findMany({ where: { instanceId: id }, orderBy: { seq: 'asc' } })).map((e) => e.type);
    expect(events).toEqual(expect.arrayContaining(['instance.backing_up', 'backup.created', 'instance.restoring', 'instance.restored']));
    const list = (await stack.client.GET('/v1/instances/{id}/backups', { params: { path: { id } } })).data!.data;
    expect(list.map((b) => b.id)).toEqual([backupId]);
  });

  it('a power operation during a backup answers 409 BACKUP_IN_PROGRESS', async () => {
    const id = await runningServer(stack, { hostname: 'bkp-busy' });
    await stack.sim.options({ taskMsByType: { vzdump: 1500 } });
    try {
      const made = await backUp(stack, id);
      expect(made.status).toBe(202);
      expect((await readInstance(stack, id)).status).toBe('backing_up');
      for (const operation of ['stop', 'reboot', 'shutdown']) {
        const refused = await operate(stack, id, operation);
        expect(refused.status, operation).toBe(409);
        expect(refused.body.error.code, operation).toBe('BACKUP_IN_PROGRESS');
      }
      await taskEnd(stack, made.body.meta.taskId);
      expect((await readInstance(stack, id)).status).toBe('running');
      expect((await operate(stack, id, 'reboot')).status).toBe(202);
    } finally {
      await stack.sim.options({ taskMsByType: {} });
    }
  });

  it('runs one vzdump per host at a time: a second backup waits in the control plane', async () => {
    await onlyPve1(stack, true);
    try {
      const first = await runningServer(stack, { hostname: 'bkp-q1' });
      const second = await runningServer(stack, { hostname: 'bkp-q2' });
      await stack.sim.options({ taskMsByType: { vzdump: 800 } });
      const [a, b] = await Promise.all([backUp(stack, first), backUp(stack, second)]);
      const [ta, tb] = await Promise.all([taskEnd(stack, a.body.meta.taskId), taskEnd(stack, b.body.meta.taskId)]);
      expect([ta.status, tb.status]).toEqual(['succeeded', 'succeeded']);
      const waited = [ta, tb].filter((t) => steps(t).includes('backup > waiting for the host: processing'));
      expect(waited).toHaveLength(1);
      const vzdumps = (await stack.sim.state()).tasks.filter((t) => t.type === 'vzdump').slice(-2);
      // the second vzdump was only asked for once the first had ended: Proxmox's own lock never waited
      expect(vzdumps[1]!.startedAtMs).toBeGreaterThanOrEqual(vzdumps[0]!.endedAtMs!);
    } finally {
      await stack.sim.options({ taskMsByType: {} });
      await onlyPve1(stack, false);
    }
  });

  it("refuses past the plan's limit, and where the location has no backup storage, before any call to Proxmox", async () => {
    const id = await runningServer(stack, { hostname: 'bkp-limit' });
    const planId = seededId(stack.seed.plans, 'small');
    await stack.api.db.plan.update({ where: { id: planId }, data: { backupLimit: 1 } });
    try {
      await taskEnd(stack, (await backUp(stack, id)).body.meta.taskId);
      const calls = await callCount(stack, VZDUMP);
      const refused = await backUp(stack, id);
      expect(refused.status).toBe(422);
      expect(refused.body.error).toMatchObject({ code: 'BACKUP_LIMIT_REACHED', details: { limit: 1 } });
      await stack.api.request('PATCH', `/v1/admin/locations/${stack.seed.locationId}`, { token: stack.api.adminToken, body: { backupStorage: null } });
      const unsupported = await backUp(stack, id);
      expect(unsupported.status).toBe(422);
      expect(unsupported.body.error.code).toBe('BACKUPS_UNSUPPORTED');
      expect(await callCount(stack, VZDUMP)).toBe(calls);
    } finally {
      await stack.api.db.plan.update({ where: { id: planId }, data: { backupLimit: 3 } });
      await stack.api.request('PATCH', `/v1/admin/locations/${stack.seed.locationId}`, { token: stack.api.adminToken, body: { backupStorage: 'local' } });
    }
  });

  it('a protected backup cannot be deleted by its customer; an unprotected one leaves the storage', async () => {
    const id = await runningServer(stack, { hostname: 'bkp-del' });
    const kept = await backUp(stack, id, { protected: true });
    await taskEnd(stack, kept.body.meta.taskId);
    expect((await stack.sim.state()).backups.find((b) => b.notes.includes(kept.body.data.id))?.protected).toBe(true);
    const refused = await stack.api.request('DELETE', `/v1/backups/${kept.body.data.id}`, { token: stack.customer.token });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('BACKUP_PROTECTED');

    const plain = await backUp(stack, id);
    await taskEnd(stack, plain.body.meta.taskId);
    const deleted = await stack.api.request('DELETE', `/v1/backups/${plain.body.data.id}`, { token: stack.customer.token });
    expect(deleted.status).toBe(202);
    expect(deleted.body.data.status).toBe('deleting');
    expect((await taskEnd(stack, deleted.body.meta.taskId)).status).toBe('succeeded');
    expect((await stack.sim.state()).backups.some((b) => b.notes.includes(plain.body.data.id))).toBe(false);
    expect((await stack.api.request('GET', `/v1/backups/${plain.body.data.id}`, { token: stack.customer.token })).status).toBe(404);
    const events = await stack.api.db.instanceEvent.findMany({ where: { instanceId: id, type: 'backup.deleted' } });
    expect(events.map((e) => (e.data as { backupId?: string }).backupId)).toEqual([plain.body.data.id]);

    // an operator may delete the protected one
    const byAdmin = await stack.api.request('DELETE', `/v1/backups/${kept.body.data.id}`, { token: stack.api.adminToken });
    expect(byAdmin.status).toBe(202);
    expect((await taskEnd(stack, byAdmin.body.meta.taskId)).status).toBe('succeeded');
    expect((await stack.sim.state()).backups.some((b) => b.notes.includes(kept.body.data.id))).toBe(false);
  });

  it("deleting a server deletes its backups, keeping protected ones; keepBackups keeps them all", async () => {
    const gone = await runningServer(stack, { hostname: 'bkp-gone' });
    const plain = await backUp(stack, gone);
    await taskEnd(stack, plain.body.meta.taskId);
    const guarded = await backUp(stack, gone, { protected: true });
    await taskEnd(stack, guarded.body.meta.taskId);
    const deleted = await operate(stack, gone, 'delete');
    expect((await taskEnd(stack, deleted.body.meta.taskId)).status).toBe('succeeded');
    const archives = (await stack.sim.state()).backups.map((b) => b.notes);
    expect(archives.some((n) => n.includes(plain.body.data.id))).toBe(false);
    expect(archives.some((n) => n.includes(guarded.body.data.id))).toBe(true);
    expect(await stack.api.db.backup.findUniqueOrThrow({ where: { id: plain.body.data.id } })).toMatchObject({ status: 'deleted' });
    expect(await stack.api.db.backup.findUniqueOrThrow({ where: { id: guarded.body.data.id } })).toMatchObject({ status: 'available', kept: true });
    expect((await stack.api.request('GET', `/v1/backups/${guarded.body.data.id}`, { token: stack.customer.token })).status).toBe(200);

    const kept = await runningServer(stack, { hostname: 'bkp-kept' });
    const backup = await backUp(stack, kept);
    await taskEnd(stack, backup.body.meta.taskId);
    const keeping = await stack.api.request('DELETE', `/v1/instances/${kept}?keepBackups=true`, { token: stack.customer.token });
    expect(keeping.status).toBe(202);
    expect((await taskEnd(stack, keeping.body.meta.taskId)).status).toBe('succeeded');
    expect((await stack.sim.state()).backups.some((b) => b.notes.includes(backup.body.data.id))).toBe(true);
    expect(await stack.api.db.backup.findUniqueOrThrow({ where: { id: backup.body.data.id } })).toMatchObject({ status: 'available', kept: true });
  });

  it('a failed restore reports the server as Proxmox left it and keeps the backup to restore again', async () => {
    const id = await runningServer(stack, { hostname: 'bkp-restore-fail' });
    const vmid = (await guestOf(stack, id))!.vmid;
    await stack.sim.writeGuestFile(vmid, '/data', 'good');
    const made = await backUp(stack, id);
    await taskEnd(stack, made.body.meta.taskId);
    await stack.sim.fault({ op: 'restore', mode: 'task_fail', message: 'unable to restore VM - storage full' });
    const failed = await stack.api.request('POST', `/v1/backups/${made.body.data.id}/restore`, { token: stack.customer.token, body: {} });
    const task = await taskEnd(stack, failed.body.meta.taskId);
    expect(task).toMatchObject({ status: 'failed', error: { code: 'OPERATION_FAILED' } });
    // compensated by telling the truth: the server is stopped (as the restore left it), the backup untouched
    expect((await readInstance(stack, id)).status).toBe('stopped');
    expect((await stack.api.request('GET', `/v1/backups/${made.body.data.id}`, { token: stack.customer.token })).body.data.status).toBe('available');
    await stack.sim.wipeGuestDisk(vmid);
    const again = await stack.api.request('POST', `/v1/backups/${made.body.data.id}/restore`, { token: stack.customer.token, body: {} });
    expect((await taskEnd(stack, again.body.meta.taskId)).status).toBe('succeeded');
    expect((await guestOf(stack, id))?.files).toEqual({ '/data': 'good' });
    // it ran stopped before this restore, so it stays stopped
    expect((await readInstance(stack, id)).status).toBe('stopped');
  });

  it("an in-place restore of a server that moved to a host that cannot read the archive is refused before anything changes, and restores as a new server", async () => {
    const id = await runningServer(stack, { hostname: 'bkp-moved' });
    const made = await backUp(stack, id);
    await taskEnd(stack, made.body.meta.taskId);
    const from = (await stack.api.db.instance.findUniqueOrThrow({ where: { id } })).node as string;
    const to = ['pve1', 'pve2', 'pve3'].find((n) => n !== from) as string;
    const moved = await stack.api.request('POST', `/v1/admin/instances/${id}/migrate`, { token: stack.api.adminToken, body: { node: to } });
    expect((await taskEnd(stack, moved.body.meta.taskId)).status).toBe('succeeded');

    const stops = await callCount(stack, 'POST /nodes/{node}/qemu/{vmid}/status/stop');
    const restores = await callCount(stack, RESTORE);
    const refused = await stack.api.request('POST', `/v1/backups/${made.body.data.id}/restore`, { token: stack.customer.token, body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'BACKUP_NOT_ON_HOST', details: { restoreAsNew: true } });
    expect(await callCount(stack, 'POST /nodes/{node}/qemu/{vmid}/status/stop')).toBe(stops);
    expect(await callCount(stack, RESTORE)).toBe(restores);
    expect(await readInstance(stack, id)).toMatchObject({ status: 'running' });
    expect((await guestOf(stack, id))?.status).toBe('running');

    const copy = await stack.create({ imageId: undefined, backupId: made.body.data.id, hostname: 'bkp-moved-copy' });
    expect((await taskEnd(stack, copy.body.meta.taskId!, 60_000)).status).toBe('succeeded');
    expect((await guestOf(stack, copy.body.data.id))?.node).toBe(from);
  });

  it('a failed vzdump fails the backup (backup.failed) and leaves the server as it was', async () => {
    const id = await runningServer(stack, { hostname: 'bkp-fail' });
    await stack.sim.fault({ op: 'backup', mode: 'task_fail', message: 'job errors' });
    const made = await backUp(stack, id);
    const task = await taskEnd(stack, made.body.meta.taskId);
    expect(task.status).toBe('failed');
    const backup = (await stack.api.request('GET', `/v1/backups/${made.body.data.id}`, { token: stack.customer.token })).body.data;
    expect(backup).toMatchObject({ status: 'failed', failure: { code: 'BACKUP_FAILED' } });
    expect((await readInstance(stack, id)).status).toBe('running');
    const events = (await stack.api.db.instanceEvent.findMany({ where: { instanceId: id } })).map((e) => e.type);
    expect(events).toContain('backup.failed');
    // its slot on the host is free again
    expect((await stack.api.db.backup.findUniqueOrThrow({ where: { id: made.body.data.id } })).runningOnNode).toBeNull();
    expect((await stack.api.request('DELETE', `/v1/backups/${made.body.data.id}`, { token: stack.customer.token })).status).toBe(200);
  });
});

describe('backups reconciled with the storage', () => {
  const stack = suiteStack();
  /** Proxmox's own API, as an operator working in the Proxmox UI would use it. */
  let outside: ProxmoxClient | undefined;
  const proxmox = () => {
    const { tokenId, secret } = parseToken(DEFAULT_SIM_TOKEN);
    outside ??= new ProxmoxClient({ baseUrl: stack.sim.url, tokenId, tokenSecret: secret, plaintextLab: true });
    return outside;
  };
  afterAll(() => outside?.close());

  it('an archive of ours that disappeared is lost; one made in the Proxmox UI is listed as external and restores, in place and as a new server', async () => {
    const id = await runningServer(stack, { hostname: 'bkp-reconcile' });
    const { vmid, node } = (await guestOf(stack, id))!;
    const made = await backUp(stack, id);
    await taskEnd(stack, made.body.meta.taskId);
    const ours = (await stack.api.db.backup.findUniqueOrThrow({ where: { id: made.body.data.id } })).volid!;
    await proxmox().tasks.wait(await proxmox().backups.delete(node, ours));
    await stack.sim.writeGuestFile(vmid, '/made-in-the-ui', 'yes');
    await proxmox().tasks.wait(await proxmox().backups.create(node, vmid, { storage: 'local', notesTemplate: 'manual {{guestname}}' }));
    await stack.sim.wipeGuestDisk(vmid);

    const reconciled = await stack.api.request('POST', `/v1/admin/instances/${id}/reconcile`, { token: stack.api.adminToken });
    expect(reconciled.status).toBe(200);
    const backups = (await stack.api.request('GET', `/v1/instances/${id}/backups`, { token: stack.customer.token })).body.data as { id: string; status: string; external: boolean; failure: { code: string } | null }[];
    expect(backups).toHaveLength(2);
    expect(backups.find((b) => b.id === made.body.data.id)).toMatchObject({ status: 'lost', external: false, failure: { code: 'BACKUP_LOST' } });
    const external = backups.find((b) => b.external)!;
    expect(external).toMatchObject({ status: 'available', failure: null });
    const events = (await stack.api.db.instanceEvent.findMany({ where: { instanceId: id, type: 'backup.lost' } })).map((e) => e.data);
    expect(events).toEqual([expect.objectContaining({ backupId: made.body.data.id, code: 'BACKUP_LOST' })]);

    // Reconciling again changes nothing; the external backup restores like ours.
    await stack.api.request('POST', `/v1/admin/instances/${id}/reconcile`, { token: stack.api.adminToken });
    expect(await stack.api.db.backup.count({ where: { instanceId: id } })).toBe(2);
    const restore = await stack.api.request('POST', `/v1/backups/${external.id}/restore`, { token: stack.customer.token, body: {} });
    expect((await taskEnd(stack, restore.body.meta.taskId)).status).toBe('succeeded');
    expect((await guestOf(stack, id))?.files).toEqual({ '/made-in-the-ui': 'yes' });
    // ... and as a new server; the lost one cannot be restored.
    const copy = await stack.create({ imageId: undefined, backupId: external.id, hostname: 'bkp-reconcile-copy' });
    expect((await taskEnd(stack, copy.body.meta.taskId!)).status).toBe('succeeded');
    expect((await guestOf(stack, copy.body.data.id))?.files).toEqual({ '/made-in-the-ui': 'yes' });
    const lost = await stack.api.request('POST', '/v1/instances', { token: stack.customer.token, body: { ...stack.createBody({ hostname: 'bkp-lost-copy' }), imageId: undefined, backupId: made.body.data.id } });
    expect(lost.status).toBe(409);
    expect(lost.body.error).toMatchObject({ code: 'BACKUP_NOT_RESTORABLE', details: { status: 'lost' } });
  });

  it("a backup stuck past its budget fails, and its host is given back only once Proxmox shows its vzdump ended", async () => {
    await onlyPve1(stack, true);
    try {
      const id = await runningServer(stack, { hostname: 'bkp-stuck' });
      await stack.sim.fault({ op: 'backup', mode: 'hang', count: 1 });
      const made = await backUp(stack, id);
      const taskId = made.body.meta.taskId as string;
      let call = null;
      while (!call) {
        call = await stack.api.db.providerCall.findFirst({ where: { taskId, kind: 'vzdump', upid: { not: null } } });
        if (!call) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // The operation gives up on the vzdump, as its budget running out makes it do.
      const { workflowId } = await stack.api.db.task.findUniqueOrThrow({ where: { id: taskId } });
      await stack.api.temporal.workflow.getHandle(workflowId).cancel();
      expect((await taskEnd(stack, taskId)).status).toBe('failed');
      const stuck = await stack.api.db.backup.findUniqueOrThrow({ where: { id: made.body.data.id } });
      expect(stuck).toMatchObject({ status: 'failed', failureCode: 'BACKUP_FAILED', runningOnNode: expect.stringMatching(/:pve1$/) });
      expect((await readInstance(stack, id)).status).toBe('running');

      // While Proxmox still runs that vzdump, the host stays taken: the next backup there waits in the control plane.
      const reconcile = () => stack.api.request('POST', `/v1/admin/instances/${id}/reconcile`, { token: stack.api.adminToken });
      expect((await reconcile()).status).toBe(200);
      expect((await stack.api.db.backup.findUniqueOrThrow({ where: { id: stuck.id } })).runningOnNode).toBe(stuck.runningOnNode);
      const other = await runningServer(stack, { hostname: 'bkp-after-stuck' });
      const next = await backUp(stack, other);
      let waiting = false;
      while (!waiting) {
        const steps = await stack.api.db.taskStep.findMany({ where: { taskId: next.body.meta.taskId } });
        waiting = steps.some((s) => s.step === 'backup > waiting for the host' && s.status === 'processing');
        if (!waiting) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const vzdumps = await callCount(stack, VZDUMP);

      // An operator stops the hung task in the Proxmox UI; the next reconcile gives the host back.
      await stack.sim.endTask(call.upid!, 'interrupted by signal');
      expect((await reconcile()).status).toBe(200);
      expect((await stack.api.db.backup.findUniqueOrThrow({ where: { id: stuck.id } })).runningOnNode).toBeNull();
      expect((await taskEnd(stack, next.body.meta.taskId)).status).toBe('succeeded');
      expect(await callCount(stack, VZDUMP)).toBe(vzdumps + 1);
    } finally {
      await stack.sim.clearFaults();
      await onlyPve1(stack, false);
    }
  });
});

describe('archives written after their backup was given up on', () => {
  const stack = suiteStack({}, (started) => started.sim.clearFaults());

  it('a vzdump that finished after its backup was marked failed leaves an archive the backup adopts at the next reconcile', async () => {
    await onlyPve1(stack, true);
    try {
      const id = await runningServer(stack, { hostname: 'bkp-late' });
      await stack.sim.fault({ op: 'backup', mode: 'hang', count: 1 });
      const made = await backUp(stack, id);
      const taskId = made.body.meta.taskId as string;
      let call = null;
      while (!call) {
        call = await stack.api.db.providerCall.findFirst({ where: { taskId, kind: 'vzdump', upid: { not: null } } });
        if (!call) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const { workflowId } = await stack.api.db.task.findUniqueOrThrow({ where: { id: taskId } });
      await stack.api.temporal.workflow.getHandle(workflowId).cancel();
      expect((await taskEnd(stack, taskId)).status).toBe('failed');
      expect(await stack.api.db.backup.findUniqueOrThrow({ where: { id: made.body.data.id } })).toMatchObject({ status: 'failed', volid: null });

      // Proxmox's vzdump finishes after all and writes the archive with the backup's marker.
      await stack.sim.endTask(call.upid!);
      const archive = (await stack.sim.state()).backups.find((b) => b.notes.includes(made.body.data.id))!;
      expect(archive).toBeDefined();
      expect((await stack.api.request('POST', `/v1/admin/instances/${id}/reconcile`, { token: stack.api.adminToken })).status).toBe(200);
      const adopted = await stack.api.db.backup.findUniqueOrThrow({ where: { id: made.body.data.id } });
      expect(adopted).toMatchObject({ status: 'available', volid: archive.volid, failureCode: null, runningOnNode: null });
      expect(await stack.api.db.backup.count({ where: { instanceId: id, external: true } })).toBe(0);
      const events = (await stack.api.db.instanceEvent.findMany({ where: { instanceId: id }, orderBy: { seq: 'asc' } })).map((e) => e.type);
      expect(events).toContain('backup.failed');
      expect(events.at(-1)).toBe('backup.created');
      // It is an ordinary backup now: it deletes like one.
      const deleted = await stack.api.request('DELETE', `/v1/backups/${made.body.data.id}`, { token: stack.customer.token });
      expect((await taskEnd(stack, deleted.body.meta.taskId)).status).toBe('succeeded');
      expect((await stack.sim.state()).backups.some((b) => b.notes.includes(made.body.data.id))).toBe(false);
    } finally {
      await onlyPve1(stack, false);
    }
  });
});

describe('backups survive a worker crash', () => {
  const stack = suiteStack({ worker: false });
  let worker: WorkerProcess;
  beforeAll(() => {
    worker = stack.spawnWorkerProcess();
  });
  afterAll(async () => {
    await worker.kill();
  });

  const crashWhilePolling = async (taskId: string, kind: string) => {
    worker = await crashWorkerWhilePolling(stack, worker, taskId, kind);
  };

  it('finishes a backup, a restore and a restore as a new server whose worker died mid-task, with exactly one vzdump and one restore call each', { timeout: 180_000 }, async () => {
    const id = await runningServer(stack, { hostname: 'bkp-crash' }, 60_000);
    const vmid = (await guestOf(stack, id))!.vmid;
    await stack.sim.writeGuestFile(vmid, '/data', 'kept');
    const vzdumps = await callCount(stack, VZDUMP);
    await stack.sim.options({ taskMsByType: { vzdump: 2500, qmrestore: 2500 } });
    try {
      const made = await backUp(stack, id);
      await crashWhilePolling(made.body.meta.taskId, 'vzdump');
      expect((await taskEnd(stack, made.body.meta.taskId, 90_000)).status).toBe('succeeded');
      expect(await callCount(stack, VZDUMP)).toBe(vzdumps + 1);

      await stack.sim.wipeGuestDisk(vmid);
      const restores = await callCount(stack, RESTORE);
      const restore = await stack.api.request('POST', `/v1/backups/${made.body.data.id}/restore`, { token: stack.customer.token, body: {} });
      await crashWhilePolling(restore.body.meta.taskId, 'restore');
      expect((await taskEnd(stack, restore.body.meta.taskId, 90_000)).status).toBe('succeeded');
      expect(await callCount(stack, RESTORE)).toBe(restores + 1);
      expect((await guestOf(stack, id))?.files).toEqual({ '/data': 'kept' });

      // The same backup restored as a new server: its create resumes the recorded restore too.
      const copy = await stack.create({ imageId: undefined, backupId: made.body.data.id, hostname: 'bkp-crash-copy' });
      await crashWhilePolling(copy.body.meta.taskId!, 'restore');
      expect((await taskEnd(stack, copy.body.meta.taskId!, 90_000)).status).toBe('succeeded');
      expect(await callCount(stack, RESTORE)).toBe(restores + 2);
      expect(await guestOf(stack, copy.body.data.id)).toMatchObject({ status: 'running', files: { '/data': 'kept' } });
    } finally {
      await stack.sim.options({ taskMsByType: {} });
    }
  });
});
