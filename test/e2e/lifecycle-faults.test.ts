import { describe, expect, it } from 'vitest';
import { callCount, guestOf, liveAllocations, operate, Q, readInstance, runningServer, runOperation, suiteStack, usage } from '../support/lifecycle';
import { seededId } from '../support/stack';

/** Provider coordinates must never reach a customer-facing message. */
const COORDINATES = /pve\d|UPID|\b[1-8]\d{3}\b|local-lvm|vmbr|qemu/;

describe('lifecycle operations when the provider fails', () => {
  const stack = suiteStack({}, (started) => started.sim.clearFaults());

  const held = async (id: string) => {
    const row = await stack.api.db.instance.findUniqueOrThrow({ where: { id }, include: { vmidReservation: true, addresses: true, allocation: true, volumes: true } });
    return {
      vmid: row.vmidReservation?.state,
      addresses: row.addresses.map((a) => a.state),
      allocation: row.allocation?.state,
      quotaReleased: row.quotaReleasedAt !== null,
      volumes: row.volumes.map((v) => v.status),
    };
  };

  it('a start whose task fails leaves the server stopped, and says so in the task', async () => {
    const id = await runningServer(stack, { hostname: 'nostart' });
    await runOperation(stack, id, 'stop');
    await stack.sim.fault({ op: 'start', mode: 'task_fail', message: 'start failed: QEMU exited with code 1' });
    const { task, instance } = await runOperation(stack, id, 'start');
    expect(task).toMatchObject({ status: 'failed', error: { code: 'OPERATION_FAILED' } });
    expect(task.error?.message).not.toMatch(COORDINATES);
    expect(task.steps[task.steps.length - 1]).toMatchObject({ step: 'start > done', status: 'error' });
    expect(instance).toMatchObject({ status: 'stopped', desiredState: 'running', failure: null });
    // The instance is free for the next operation.
    const retried = await runOperation(stack, id, 'start');
    expect(retried.instance.status).toBe('running');
  });

  it('a stop whose task fails leaves the server running', async () => {
    const id = await runningServer(stack, { hostname: 'nostop' });
    await stack.sim.fault({ op: 'stop', mode: 'task_fail' });
    const { task, instance } = await runOperation(stack, id, 'stop');
    expect(task.error?.code).toBe('OPERATION_FAILED');
    expect(instance).toMatchObject({ status: 'running', desiredState: 'stopped' });
  });

  /** The task as its customer reads it, and as an admin does (with the cause). */
  const readTask = async (taskId: string) => ({
    customer: await stack.api.request('GET', `/v1/tasks/${taskId}`, { token: stack.customer.token }),
    admin: await stack.api.request('GET', `/v1/admin/tasks/${taskId}`, { token: stack.api.adminToken }),
  });

  it('a reboot whose Proxmox task fails keeps why on its task: a safe code for the customer, Proxmox\'s words for admins', async () => {
    const id = await runningServer(stack, { hostname: 'noreboot' });
    await stack.sim.fault({ op: 'reboot', mode: 'task_fail', message: 'reboot failed: QEMU exited with code 1' });
    const { task, instance } = await runOperation(stack, id, 'reboot');
    expect(instance.status).toBe('running');
    const { customer, admin } = await readTask(task.id);
    expect(customer.body.data).toMatchObject({ status: 'failed', error: { code: 'OPERATION_FAILED', message: expect.stringContaining('could not be restarted') } });
    expect(customer.body.data).not.toHaveProperty('failureCause');
    expect(customer.body.data.error.message).not.toMatch(COORDINATES);
    expect(customer.text).not.toContain('QEMU');
    expect(admin.status).toBe(200);
    expect(admin.body.data).toMatchObject({
      id: task.id,
      instanceId: id,
      error: { code: 'OPERATION_FAILED' },
      failureCause: {
        operation: 'reboot',
        phase: 'reboot',
        type: 'PROVIDER_TASK_FAILED',
        activity: 'rebootGuest',
        detail: expect.stringContaining('reboot failed: QEMU exited with code 1'),
        call: { kind: 'reboot', upid: expect.stringMatching(/^UPID:/) },
      },
    });
  });

  it('a stop Proxmox refuses before any Proxmox task keeps Proxmox\'s answer on its task', async () => {
    const id = await runningServer(stack, { hostname: 'refusedstop' });
    // A refusal that cannot pass (a 5xx that explains nothing would be converged instead).
    await stack.sim.fault({ op: 'stop', mode: 'http400', message: 'VM is protected by a guest lock policy' });
    const { task, instance } = await runOperation(stack, id, 'stop');
    expect(instance.status).toBe('running');
    // Nothing ran on Proxmox: the provider call has no UPID, only the cause says what was refused.
    const calls = await stack.api.db.providerCall.findMany({ where: { taskId: task.id } });
    expect(calls.map((call) => [call.kind, call.status, call.upid])).toEqual([['stop', 'failed', null]]);
    const { customer, admin } = await readTask(task.id);
    expect(customer.body.data.error).toEqual({ code: 'OPERATION_FAILED', message: expect.stringContaining('could not be stopped') });
    expect(customer.text).not.toContain('guest lock policy');
    expect(admin.body.data.failureCause).toMatchObject({
      operation: 'stop',
      phase: 'stop',
      type: 'PROVIDER_REJECTED',
      detail: expect.stringContaining('Parameter verification failed'),
      call: { kind: 'stop', status: 400 },
    });
  });

  it('the admin task view answers 404 for an unknown task and 403 to a customer', async () => {
    expect((await stack.api.request('GET', '/v1/admin/tasks/task_missing', { token: stack.api.adminToken })).body.error.code).toBe('NOT_FOUND');
    expect((await stack.api.request('GET', '/v1/admin/tasks/task_missing', { token: stack.customer.token })).status).toBe(403);
  });

  it('a resize whose config write is rejected returns everything it charged', async () => {
    const id = await runningServer(stack, { hostname: 'noresize' });
    await runOperation(stack, id, 'stop');
    const before = await usage(stack);
    const allocationBefore = await liveAllocations(stack, id);
    await stack.sim.fault({ op: 'config', mode: 'http400', param: 'memory', message: 'value must have a maximum value of 4194304' });
    const { task, instance } = await runOperation(stack, id, 'resize', { planId: seededId(stack.seed.plans, 'large') });
    expect(task).toMatchObject({ type: 'INSTANCE_RESIZE', status: 'failed', error: { code: 'OPERATION_FAILED' } });
    expect(instance).toMatchObject({ status: 'stopped', plan: { name: 'small' } });
    expect(await usage(stack)).toEqual(before);
    expect(await liveAllocations(stack, id)).toEqual(allocationBefore);
    expect(String((await guestOf(stack, id))?.config.memory)).toBe('1024');
  });

  it('a resize whose disk task fails after the config write returns the charge; the server reports what it is', async () => {
    const id = await runningServer(stack, { hostname: 'halfresize' });
    await runOperation(stack, id, 'stop');
    const before = await usage(stack);
    await stack.sim.fault({ op: 'resize', mode: 'task_fail', message: 'lvextend failed' });
    const { task, instance } = await runOperation(stack, id, 'resize', { planId: seededId(stack.seed.plans, 'medium') });
    expect(task.error?.code).toBe('OPERATION_FAILED');
    expect(instance).toMatchObject({ status: 'stopped', plan: { name: 'small' } });
    expect(task.steps).toContainEqual(expect.objectContaining({ step: 'resize > restoring the old size', status: 'warning' }));
    const guest = await guestOf(stack, id);
    expect(String(guest?.config.memory)).toBe('1024');
    expect(String(guest?.config.cores)).toBe('1');
    expect(await usage(stack)).toEqual(before);
  });

  it('a migration whose task fails drops the target reservation and keeps the server where it is', async () => {
    const id = await runningServer(stack, { hostname: 'nomigrate' });
    const here = (await stack.api.db.instance.findUniqueOrThrow({ where: { id } })).node as string;
    const there = ['pve1', 'pve2', 'pve3'].find((n) => n !== here) as string;
    await stack.sim.fault({ op: 'migrate', mode: 'task_fail', message: 'migration aborted' });
    const { task, instance } = await runOperation(stack, id, 'migrate', { node: there });
    expect(task).toMatchObject({ type: 'INSTANCE_MIGRATE', status: 'failed' });
    expect(instance.status).toBe('running');
    expect((await guestOf(stack, id))?.node).toBe(here);
    expect((await stack.api.db.instance.findUniqueOrThrow({ where: { id } })).node).toBe(here);
    expect(await liveAllocations(stack, id)).toEqual([expect.objectContaining({ node: here, target: null, state: 'allocated' })]);
  });

  it('a guest that vanishes during an operation leaves the server lost (GUEST_LOST) with every reservation kept', async () => {
    const id = await runningServer(stack, { hostname: 'vanished' });
    await runOperation(stack, id, 'stop');
    const starts = await callCount(stack, `POST ${Q}/status/start`);
    const clones = await callCount(stack, `POST ${Q}/clone`);
    await stack.sim.fault({ op: 'start', mode: 'lose_guest' });
    const { task, instance } = await runOperation(stack, id, 'start');
    expect(task).toMatchObject({ status: 'failed', error: { code: 'GUEST_LOST' } });
    expect(instance).toMatchObject({ status: 'lost', failure: { code: 'GUEST_LOST' } });
    expect(instance.failure?.message).not.toMatch(COORDINATES);
    expect(await held(id)).toEqual({ vmid: 'assigned', addresses: ['assigned', 'assigned'], allocation: 'allocated', quotaReleased: false, volumes: ['ready'] });
    // Nothing was re-created.
    expect(await guestOf(stack, id)).toBeUndefined();
    expect(await callCount(stack, `POST ${Q}/status/start`)).toBe(starts + 1);
    expect(await callCount(stack, `POST ${Q}/clone`)).toBe(clones);
    // Only a delete is left; it releases what was kept.
    const refused = await operate(stack, id, 'start');
    expect(refused.body.error.code).toBe('INVALID_STATE');
    const deleted = await runOperation(stack, id, 'delete');
    expect(deleted.instance.status).toBe('deleted');
    expect(await held(id)).toMatchObject({ vmid: undefined, addresses: [], allocation: 'released', quotaReleased: true });
  });

  it('a guest the provider says does not exist is lost, not re-created', async () => {
    const id = await runningServer(stack, { hostname: 'ghost' });
    const { vmid, node } = await stack.api.db.instance.findUniqueOrThrow({ where: { id } });
    await stack.sim.fault({ op: 'status', mode: 'http500', message: `Configuration file 'nodes/${node}/qemu-server/${vmid}.conf' does not exist` });
    const { task, instance } = await runOperation(stack, id, 'stop');
    expect(task.error?.code).toBe('GUEST_LOST');
    expect(instance.status).toBe('lost');
    expect(await held(id)).toMatchObject({ vmid: 'assigned', allocation: 'allocated', quotaReleased: false });
  });

  it('a rebuild that fails after the old disk is gone leaves the server rebuild_failed holding its reservations, which a delete then releases', async () => {
    const id = await runningServer(stack, { hostname: 'norebuild' });
    await stack.sim.fault({ op: 'clone', mode: 'task_fail', message: 'clone failed: storage full' });
    const { task, instance } = await runOperation(stack, id, 'rebuild', {});
    expect(task).toMatchObject({ type: 'INSTANCE_REBUILD', status: 'failed', error: { code: 'REBUILD_FAILED' } });
    expect(instance).toMatchObject({ status: 'rebuild_failed', failure: { code: 'REBUILD_FAILED' } });
    for (const operation of ['start', 'stop', 'reboot', 'shutdown']) expect((await operate(stack, id, operation)).body.error.code, operation).toBe('INVALID_STATE');
    expect(await held(id)).toMatchObject({ vmid: 'assigned', allocation: 'allocated', quotaReleased: false });
    expect(await guestOf(stack, id)).toBeUndefined();
    const deleted = await runOperation(stack, id, 'delete');
    expect(deleted.instance.status).toBe('deleted');
    expect(await held(id)).toMatchObject({ vmid: undefined, allocation: 'released', quotaReleased: true, volumes: ['deleted'] });
  });

  it('a server whose rebuild failed is rebuilt again: running with the same addresses and MAC, and a new password revealable once', async () => {
    const id = await runningServer(stack, { hostname: 'rebuildagain' });
    const before = await readInstance(stack, id, stack.api.adminToken);
    const macBefore = (await stack.api.db.instance.findUniqueOrThrow({ where: { id } })).macAddress;
    const first = (await stack.api.request('POST', `/v1/instances/${id}/credentials/reveal`, { token: stack.customer.token })).body.data.password;
    await stack.sim.fault({ op: 'clone', mode: 'task_fail', message: 'clone failed: storage full' });
    expect((await runOperation(stack, id, 'rebuild', {})).instance.status).toBe('rebuild_failed');

    // The half-made clone a failed clone task leaves behind, if any, goes before the new one.
    const again = await runOperation(stack, id, 'rebuild', {});
    expect(again.task).toMatchObject({ type: 'INSTANCE_REBUILD', status: 'succeeded', error: null });
    expect(again.instance).toMatchObject({ status: 'running', failure: null, ipv4: before.ipv4, ipv6: before.ipv6 });
    const row = await stack.api.db.instance.findUniqueOrThrow({ where: { id } });
    expect(row.macAddress).toBe(macBefore);
    const guest = await guestOf(stack, id);
    expect(guest?.status).toBe('running');
    expect(String(guest?.config.net0)).toContain(macBefore as string);
    expect(guest?.vmid).toBe(row.vmid);

    const reveal = () => stack.api.request('POST', `/v1/instances/${id}/credentials/reveal`, { token: stack.customer.token });
    const revealed = await reveal();
    expect(revealed.status).toBe(200);
    expect(revealed.body.data.password).toEqual(expect.any(String));
    expect(revealed.body.data.password).not.toBe(first);
    expect((await reveal()).body.error.code).toBe('CREDENTIAL_ALREADY_REVEALED');
    expect(await held(id)).toMatchObject({ vmid: 'assigned', allocation: 'allocated', quotaReleased: false });
  });

  it('a rebuild whose removal is refused keeps the old guest and its status', async () => {
    const id = await runningServer(stack, { hostname: 'keepold' });
    await stack.sim.fault({ op: 'destroy', mode: 'http403', message: 'Permission check failed (/vms/100, VM.Allocate)' });
    const { task, instance } = await runOperation(stack, id, 'rebuild', {});
    expect(task.error?.code).toBe('PROVIDER_PERMISSION_DENIED');
    expect(instance.status).toBe('stopped');
    expect((await guestOf(stack, id))?.status).toBe('stopped');
    expect(await stack.api.db.credential.count({ where: { instanceId: id } })).toBe(1);
  });
});
