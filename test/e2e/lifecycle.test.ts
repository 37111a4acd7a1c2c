import { beforeAll, describe, expect, it } from 'vitest';
import { callCount, guestOf, liveAllocations, operate, Q, readInstance, runningServer, runOperation, streamedEvents, suiteStack, taskEnd, usage } from '../support/lifecycle';
import { seededId } from '../support/stack';

const steps = (task: { steps: { step: string }[] }) => task.steps.map((s) => s.step);

describe('lifecycle operations end to end', () => {
  const stack = suiteStack({ env: { SHUTDOWN_TIMEOUT_SECONDS: '1' } });

  it('stops, starts, reboots and shuts down a server, each as its own task', async () => {
    const id = await runningServer(stack);

    const stopped = await runOperation(stack, id, 'stop');
    expect(stopped.accepted.data).toMatchObject({ status: 'stopping', desiredState: 'stopped' });
    expect(stopped.accepted.meta.taskId).toMatch(/^task_/);
    expect(stopped.task).toMatchObject({ type: 'INSTANCE_STOP', status: 'succeeded', progress: 100, error: null });
    expect(stopped.instance).toMatchObject({ status: 'stopped', desiredState: 'stopped', failure: null });
    expect((await guestOf(stack, id))?.status).toBe('stopped');

    const started = await runOperation(stack, id, 'start');
    expect(started.task.type).toBe('INSTANCE_START');
    expect(started.instance).toMatchObject({ status: 'running', desiredState: 'running' });
    expect((await guestOf(stack, id))?.status).toBe('running');

    const rebooted = await runOperation(stack, id, 'reboot');
    expect(rebooted.task).toMatchObject({ type: 'INSTANCE_REBOOT', status: 'succeeded' });
    expect(rebooted.instance.status).toBe('running');

    const shut = await runOperation(stack, id, 'shutdown');
    expect(shut.task).toMatchObject({ type: 'INSTANCE_SHUTDOWN', status: 'succeeded' });
    expect(steps(shut.task)).not.toContain('shutdown > forcing a stop');
    expect(shut.instance).toMatchObject({ status: 'stopped', desiredState: 'stopped' });

    // Asking for what is already true is refused as a state error, not run twice.
    const again = await operate(stack, id, 'stop');
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'INVALID_STATE', details: { status: 'stopped' } });
  });

  it('streams an operation\'s step thread over SSE until the task ends', async () => {
    const id = await runningServer(stack, { hostname: 'sse-ops' });
    const res = await stack.client.POST('/v1/instances/{id}/reboot', { params: { path: { id } } });
    expect(res.response.status).toBe(202);
    const { steps: events, closed } = await streamedEvents(stack, id);
    expect(closed).toBe(true);
    expect(events[0]).toMatchObject({ step: 'reboot > accepted', status: 'success' });
    expect(events).toContainEqual(expect.objectContaining({ step: 'reboot > restarting the server', status: 'processing' }));
    expect(events).toContainEqual(expect.objectContaining({ step: 'reboot > restarting the server', status: 'success' }));
    expect(events[events.length - 1]).toMatchObject({ step: 'reboot > done', status: 'success' });
  });

  it('falls back to a forced stop when the guest ignores the ACPI shutdown, said as a warning', async () => {
    const id = await runningServer(stack, { hostname: 'stubborn' });
    const stops = await callCount(stack, `POST ${Q}/status/stop`);
    await stack.sim.fault({ op: 'shutdown', mode: 'task_fail', message: 'VM quit/powerdown failed - got timeout' });
    const { task, instance } = await runOperation(stack, id, 'shutdown');
    expect(task.status).toBe('succeeded');
    expect(task.steps).toContainEqual(expect.objectContaining({ step: 'shutdown > forcing a stop', status: 'warning' }));
    expect(task.steps.find((s) => s.status === 'warning')?.message).toContain('1 seconds');
    expect(instance.status).toBe('stopped');
    expect(await callCount(stack, `POST ${Q}/status/stop`)).toBe(stops + 1);
    expect((await guestOf(stack, id))?.status).toBe('stopped');
  });

  it('answers exactly one of 10 simultaneous operations on one server; the rest are OPERATION_IN_PROGRESS', async () => {
    const id = await runningServer(stack, { hostname: 'crowd' });
    const operations = ['stop', 'reboot', 'shutdown', 'stop', 'reboot', 'shutdown', 'stop', 'reboot', 'delete', 'rebuild'];
    const answers = await Promise.all(operations.map((op) => operate(stack, id, op)));
    const accepted = answers.filter((a) => a.status === 202);
    expect(accepted).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 202)) {
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('OPERATION_IN_PROGRESS');
    }
    const tasks = await stack.api.db.task.findMany({ where: { instanceId: id, type: { not: 'INSTANCE_CREATE' } } });
    expect(tasks).toHaveLength(1);
    await taskEnd(stack, accepted[0]?.body.meta.taskId);
  });

  describe('resize', () => {
    let plans: Record<'small' | 'medium' | 'large' | 'slim', string>;
    beforeAll(async () => {
      // Fewer CPUs and less memory than "large", with the same disk: a resize down that is allowed.
      const slim = await stack.adminClient.POST('/v1/admin/plans', { body: { name: 'slim-40', vcpus: 1, memoryMiB: 512, diskGiB: 40 } });
      if (!slim.data) throw new Error(`slim plan: ${JSON.stringify(slim.error)}`);
      const seeded = (name: string) => seededId(stack.seed.plans, name);
      plans = { small: seeded('small'), medium: seeded('medium'), large: seeded('large'), slim: slim.data.data.id };
    });

    it('grows a stopped server, charging quota and node first, then shrinks CPU and memory with a refund', async () => {
      const id = await runningServer(stack, { hostname: 'grower' });
      await runOperation(stack, id, 'stop');
      const before = await usage(stack);

      const up = await runOperation(stack, id, 'resize', { planId: plans.large });
      expect(up.accepted.data.status).toBe('resizing');
      expect(up.task).toMatchObject({ type: 'INSTANCE_RESIZE', status: 'succeeded' });
      expect(up.instance).toMatchObject({ status: 'stopped', plan: { id: plans.large, name: 'large' } });
      expect(await usage(stack)).toEqual({ ...before, vcpus: before.vcpus + 3, memoryMiB: before.memoryMiB + 7168, diskGiB: before.diskGiB + 30 });
      expect(await liveAllocations(stack, id)).toEqual([expect.objectContaining({ state: 'allocated', target: null, vcpus: 4, memoryMiB: 8192, diskGiB: 40 })]);
      const grown = await guestOf(stack, id);
      expect(String(grown?.config.cores)).toBe('4');
      expect(String(grown?.config.memory)).toBe('8192');
      expect(String(grown?.config.scsi0)).toContain('size=40G');
      const volume = await stack.api.db.volume.findFirstOrThrow({ where: { instanceId: id } });
      expect(volume.sizeGiB).toBe(40);

      const down = await runOperation(stack, id, 'resize', { planId: plans.slim });
      expect(down.task.status).toBe('succeeded');
      expect(down.instance.plan.name).toBe('slim-40');
      expect(await usage(stack)).toEqual({ ...before, vcpus: before.vcpus, memoryMiB: before.memoryMiB - 512, diskGiB: before.diskGiB + 30 });
      expect(await liveAllocations(stack, id)).toEqual([expect.objectContaining({ vcpus: 1, memoryMiB: 512, diskGiB: 40 })]);
      const slimmed = await guestOf(stack, id);
      expect(String(slimmed?.config.memory)).toBe('512');
      expect(String(slimmed?.config.scsi0)).toContain('size=40G');
    });

    it('refuses a running server, a smaller disk, an unknown plan, too little quota and too little room, changing nothing', async () => {
      const id = await runningServer(stack, { hostname: 'refused', planId: plans.medium });
      const running = await operate(stack, id, 'resize', { planId: plans.large });
      expect(running.status).toBe(409);
      expect(running.body.error).toMatchObject({ code: 'INVALID_STATE', details: { status: 'running' } });

      await runOperation(stack, id, 'stop');
      const before = await usage(stack);
      const shrink = await operate(stack, id, 'resize', { planId: plans.small });
      expect(shrink.status).toBe(422);
      expect(shrink.body.error.code).toBe('UNSUPPORTED');
      const unknown = await operate(stack, id, 'resize', { planId: 'plan_nope' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error.details.fields.planId).toBeDefined();

      const tenant = await stack.api.db.tenant.findUniqueOrThrow({ where: { id: stack.customer.tenantId } });
      await stack.api.db.tenant.update({ where: { id: tenant.id }, data: { quotaVcpus: before.vcpus + 1 } });
      const quota = await operate(stack, id, 'resize', { planId: plans.large });
      expect(quota.status).toBe(422);
      expect(quota.body.error).toMatchObject({ code: 'QUOTA_EXCEEDED', details: { resource: 'vcpus' } });
      await stack.api.db.tenant.update({ where: { id: tenant.id }, data: { quotaVcpus: tenant.quotaVcpus } });

      const instance = await stack.api.db.instance.findUniqueOrThrow({ where: { id } });
      const node = await stack.api.db.node.findFirstOrThrow({ where: { name: instance.node ?? '' } });
      await stack.api.db.node.update({ where: { id: node.id }, data: { memoryMiB: 1 } });
      const room = await operate(stack, id, 'resize', { planId: plans.large });
      await stack.api.db.node.update({ where: { id: node.id }, data: { memoryMiB: node.memoryMiB } });
      expect(room.status).toBe(503);
      expect(room.body.error).toMatchObject({ code: 'CAPACITY_UNAVAILABLE', details: { resource: 'node_capacity' } });

      expect(await usage(stack)).toEqual(before);
      expect(await liveAllocations(stack, id)).toEqual([expect.objectContaining({ vcpus: 2, memoryMiB: 2048, diskGiB: 20 })]);
      const after = await readInstance(stack, id);
      expect(after).toMatchObject({ status: 'stopped', plan: { name: 'medium' } });
      expect(after.task?.type).toBe('INSTANCE_STOP');
    });
  });

  describe('rebuild', () => {
    it('replaces the disk from the image and mints a new credential, keeping VMID, addresses and MAC', async () => {
      const id = await runningServer(stack, { hostname: 'phoenix' });
      const first = await stack.api.request('POST', `/v1/instances/${id}/credentials/reveal`, { token: stack.customer.token });
      expect(first.status).toBe(200);
      const before = await stack.api.request('GET', `/v1/admin/instances/${id}`, { token: stack.api.adminToken });
      const guestBefore = await guestOf(stack, id);
      const clones = await callCount(stack, `POST ${Q}/clone`);

      const rebuilt = await runOperation(stack, id, 'rebuild', { imageId: stack.seed.images['ubuntu-24.04'] });
      expect(rebuilt.accepted.data.status).toBe('rebuilding');
      expect(rebuilt.task).toMatchObject({ type: 'INSTANCE_REBUILD', status: 'succeeded' });
      for (const stage of ['rebuild > removing the server', 'clone > cloning the image', 'cloud_init > preparing first boot', 'finalize > finishing']) {
        expect(steps(rebuilt.task)).toContain(stage);
      }
      expect(rebuilt.instance).toMatchObject({ status: 'running', image: { name: 'ubuntu-24.04' }, ipv4: before.body.data.ipv4, ipv6: before.body.data.ipv6 });
      const after = await stack.api.request('GET', `/v1/admin/instances/${id}`, { token: stack.api.adminToken });
      expect(after.body.data.provider).toMatchObject({ vmid: before.body.data.provider.vmid, node: before.body.data.provider.node, macAddress: before.body.data.provider.macAddress });
      expect(await callCount(stack, `POST ${Q}/clone`)).toBe(clones + 1);

      const guestAfter = await guestOf(stack, id);
      expect(guestAfter?.vmid).toBe(guestBefore?.vmid);
      expect(guestAfter?.config.smbios1).not.toBe(guestBefore?.config.smbios1);
      expect(String(guestAfter?.config.net0)).toContain(String(before.body.data.provider.macAddress));

      const second = await stack.api.request('POST', `/v1/instances/${id}/credentials/reveal`, { token: stack.customer.token });
      expect(second.status).toBe(200);
      expect(second.body.data.password).not.toBe(first.body.data.password);
    });

    it('refuses an image whose login rules the server cannot meet, before anything changes', async () => {
      const id = await runningServer(stack, { hostname: 'picky' });
      const sshOnly = await operate(stack, id, 'rebuild', { imageId: stack.seed.images['debian-12-ssh-only'] });
      expect(sshOnly.status).toBe(422);
      expect(sshOnly.body.error.code).toBe('IMAGE_SSH_KEY_REQUIRED');
      const noLogin = await operate(stack, id, 'rebuild', { imageId: stack.seed.images['appliance-no-login'] });
      expect(noLogin.status).toBe(422);
      expect(noLogin.body.error.code).toBe('IMAGE_LOGIN_METHOD_UNSUPPORTED');
      const instance = await readInstance(stack, id);
      expect(instance).toMatchObject({ status: 'running', image: { name: 'debian-12' } });
      expect(instance.task?.type).toBe('INSTANCE_CREATE');
    });
  });

  describe('migrate', () => {
    it('moves a running server online and a stopped one offline, moving its capacity', async () => {
      const id = await runningServer(stack, { hostname: 'nomad' });
      const from = (await stack.api.db.instance.findUniqueOrThrow({ where: { id } })).node as string;
      const to = ['pve1', 'pve2', 'pve3'].find((n) => n !== from) as string;

      const online = await runOperation(stack, id, 'migrate', { node: to });
      expect(online.accepted.data).toMatchObject({ status: 'migrating', provider: { node: from } });
      expect(online.task).toMatchObject({ type: 'INSTANCE_MIGRATE', status: 'succeeded' });
      expect(online.instance.status).toBe('running');
      expect((await guestOf(stack, id))?.node).toBe(to);
      expect((await stack.api.db.instance.findUniqueOrThrow({ where: { id } })).node).toBe(to);
      expect(await liveAllocations(stack, id)).toEqual([expect.objectContaining({ node: to, target: null, state: 'allocated' })]);
      const request = (await stack.sim.state()).calls;
      expect(request[`POST ${Q}/migrate`]).toBe(1);

      await runOperation(stack, id, 'stop');
      const offline = await runOperation(stack, id, 'migrate', { node: from });
      expect(offline.task.status).toBe('succeeded');
      expect(offline.instance.status).toBe('stopped');
      expect((await guestOf(stack, id))?.node).toBe(from);
      expect(await liveAllocations(stack, id)).toEqual([expect.objectContaining({ node: from, target: null })]);
    });

    it('refuses customers, the same node, an unknown node and a full node', async () => {
      const id = await runningServer(stack, { hostname: 'stayer' });
      const here = (await stack.api.db.instance.findUniqueOrThrow({ where: { id } })).node as string;
      const there = ['pve1', 'pve2', 'pve3'].find((n) => n !== here) as string;
      const customer = await stack.api.request('POST', `/v1/admin/instances/${id}/migrate`, { token: stack.customer.token, body: { node: there } });
      expect(customer.status).toBe(403);
      const same = await operate(stack, id, 'migrate', { node: here });
      expect(same.status).toBe(400);
      expect(same.body.error.details.fields.node).toBeDefined();
      const unknown = await operate(stack, id, 'migrate', { node: 'pve9' });
      expect(unknown.status).toBe(400);
      const node = await stack.api.db.node.findFirstOrThrow({ where: { name: there } });
      await stack.api.db.node.update({ where: { id: node.id }, data: { vcpus: 0 } });
      const full = await operate(stack, id, 'migrate', { node: there });
      await stack.api.db.node.update({ where: { id: node.id }, data: { vcpus: node.vcpus } });
      expect(full.status).toBe(503);
      expect(full.body.error).toMatchObject({ code: 'CAPACITY_UNAVAILABLE', details: { resource: 'node_capacity' } });
      expect(await liveAllocations(stack, id)).toEqual([expect.objectContaining({ node: here, target: null })]);
    });
  });

  describe('delete', () => {
    it('removes the guest, releases everything once and keeps the server readable as deleted', async () => {
      const id = await runningServer(stack, { hostname: 'goner' });
      const before = await usage(stack);
      const { vmid } = await stack.api.db.instance.findUniqueOrThrow({ where: { id } });

      const deleted = await runOperation(stack, id, 'delete');
      expect(deleted.accepted.data).toMatchObject({ status: 'deleting', desiredState: 'deleted' });
      expect(deleted.task).toMatchObject({ type: 'INSTANCE_DELETE', status: 'succeeded' });
      expect(steps(deleted.task)).toEqual(expect.arrayContaining(['delete > removing the server', 'delete > done']));
      expect(deleted.instance).toMatchObject({ status: 'deleted', desiredState: 'deleted', failure: null });
      expect(await guestOf(stack, id)).toBeUndefined();

      const row = await stack.api.db.instance.findUniqueOrThrow({ where: { id }, include: { vmidReservation: true, addresses: true, volumes: true, credential: true, allocation: true } });
      expect(row.deletedAt).not.toBeNull();
      expect(row.quotaReleasedAt).not.toBeNull();
      expect(row.vmidReservation).toBeNull();
      expect(row.addresses).toEqual([]);
      expect(row.allocation?.state).toBe('released');
      expect(row.volumes.map((v) => v.status)).toEqual(['deleted']);
      expect(row.credential).toBeNull();
      expect(await stack.api.db.vmidReservation.findFirst({ where: { vmid: vmid ?? -1 } })).toMatchObject({ state: 'free', instanceId: null });
      expect(await usage(stack)).toEqual({ instances: before.instances - 1, vcpus: before.vcpus - 1, memoryMiB: before.memoryMiB - 1024, diskGiB: before.diskGiB - 10 });

      // Idempotent: the same instance and its delete task, and nothing new.
      const again = await operate(stack, id, 'delete');
      expect(again.status).toBe(200);
      expect(again.body.data.status).toBe('deleted');
      expect(again.body.meta.taskId).toBe(deleted.accepted.meta.taskId);
      expect(await stack.api.db.task.count({ where: { instanceId: id } })).toBe(2);

      const get = await stack.api.request('GET', `/v1/instances/${id}`, { token: stack.customer.token });
      expect(get.body.data.status).toBe('deleted');
      const listed = await stack.api.request('GET', '/v1/instances?state=deleted', { token: stack.customer.token });
      expect(listed.body.data.map((i: { id: string }) => i.id)).toContain(id);
      const start = await operate(stack, id, 'start');
      expect(start.status).toBe(409);
      expect(start.body.error.code).toBe('INVALID_STATE');
    });
  });
});
