import { randomBytes } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import { afterAll, describe, expect, it } from 'vitest';
import { ProxmoxClient } from '../../src/proxmox';
import { parseToken } from '../../src/simulator/server';
import { LEAST_PRIVILEGE_SIM_TOKEN } from '../../src/simulator/spec';
import { reconcileScheduleId } from '../../src/temporal/workflow-ids';
import { liveAllocations, readInstance, runningServer, runOperation, suiteStack } from '../support/lifecycle';

/** Set by a test: the API stops right after committing a task, before starting its workflow, as a crash there would. */
let crashAfterCommit: ((taskId: string) => Promise<void>) | null = null;

/**
 * The reconciler, on the real stack with a one-second schedule: it finishes what a crashed API
 * left, follows power changes made outside, marks vanished guests lost, lists guests that carry
 * our marker without a live server (and destroys one only when an operator asks), and prunes.
 */
describe('the reconciler', () => {
  const stack = suiteStack({
    env: { RECONCILE_INTERVAL_SECONDS: '1', START_INTENT_GRACE_SECONDS: '1' },
    deps: { afterCommit: (taskId) => crashAfterCommit?.(taskId) ?? Promise.resolve() },
  });
  const admin = () => ({ token: stack.api.adminToken });
  const schedule = () => stack.api.temporal.schedule.getHandle(reconcileScheduleId(stack.seed.connectionId));
  /** Pauses the reconcile schedule and waits out the run already under way: no pass runs until unpaused. */
  const pauseReconciling = async (reason: string) => {
    await schedule().pause(reason);
    const running = (await schedule().describe()).info.runningActions[0];
    if (running) await stack.api.temporal.workflow.getHandle(running.workflow.workflowId).result();
  };
  const { tokenId: simTokenId, secret: simSecret } = parseToken(LEAST_PRIVILEGE_SIM_TOKEN);
  const simToken = { tokenId: simTokenId, tokenSecret: simSecret };
  /** Proxmox's own API, as an operator working outside this service would use it. */
  let outside: ProxmoxClient | undefined;
  const proxmox = () => {
    outside ??= new ProxmoxClient({ baseUrl: stack.sim.url, ...simToken, plaintextLab: true });
    return outside;
  };
  afterAll(() => outside?.close());
  const placementOf = async (id: string) => {
    const row = await stack.api.db.instance.findUniqueOrThrow({ where: { id } });
    return { node: row.node as string, vmid: row.vmid as number, template: row.templateVmid as number };
  };
  const simulatedCrash = async () => {
    throw new Error('the API process died here');
  };

  /** Waits until the schedule has started `runs` more reconciles and the last of them has finished. */
  const afterReconcileRuns = async (runs = 2) => {
    const before = (await schedule().describe()).info.numActionsTaken;
    await expect.poll(async () => (await schedule().describe()).info.numActionsTaken, { timeout: 30_000, interval: 100 }).toBeGreaterThanOrEqual(before + runs);
    const last = (await schedule().describe()).info.recentActions.at(-1);
    if (last) await stack.api.temporal.workflow.getHandle(last.action.workflow.workflowId, last.action.workflow.firstExecutionRunId).result();
  };

  it('runs on a Temporal Schedule per connection: reconcile-<connectionId>, overlap SKIP, at the configured interval', async () => {
    const described = await schedule().describe();
    expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'Reconcile', args: [{ connectionId: stack.seed.connectionId }] });
    expect(described.policies.overlap).toBe('SKIP');
    expect(described.spec.intervals?.[0]?.every).toBe(1000);
    await afterReconcileRuns(1);
  });

  it('gets a schedule for a connection added through the admin API', async () => {
    const res = await stack.api.request('POST', '/v1/admin/connections', {
      ...admin(),
      // The same cluster again, on VMIDs the first connection does not use.
      body: { name: 'second-range', url: stack.sim.url, plaintextLab: true, ...simToken, vmidRange: { start: 9100, end: 9199 }, nodes: [{ name: 'pve1', vcpus: 8, memoryMiB: 8192, diskGiB: 100 }] },
    });
    expect(res.status).toBe(201);
    const added = stack.api.temporal.schedule.getHandle(reconcileScheduleId(res.body.data.id));
    try {
      expect((await added.describe()).action).toMatchObject({ workflowType: 'Reconcile', args: [{ connectionId: res.body.data.id }] });
    } finally {
      await added.delete();
    }
  });

  describe('a workflow start that was committed but never confirmed', () => {
    it('is started by the reconciler when the API died between its commit and the start: the server is provisioned', { timeout: 90_000 }, async () => {
      crashAfterCommit = simulatedCrash;
      const created = await stack.createAnswer({ hostname: 'api-died' });
      crashAfterCommit = null;
      expect(created.response.status).toBe(500);
      const instance = await stack.api.db.instance.findFirstOrThrow({ where: { hostname: 'api-died' } });
      const task = await stack.api.db.task.findFirstOrThrow({ where: { instanceId: instance.id } });
      expect(task).toMatchObject({ workflowType: 'ProvisionInstance', status: 'running' });

      const ready = await stack.waitForStatus(instance.id, ['running', 'failed'], 60_000);
      expect(ready.status).toBe('running');
      expect(ready.task?.steps.map((s) => s.step)).toContain('reconcile > resumed');
      expect((await stack.api.db.task.findUniqueOrThrow({ where: { id: task.id } })).workflowStartedAt).not.toBeNull();
    });

    it('is started for a lifecycle operation too: a stop the API never started still stops the server', { timeout: 90_000 }, async () => {
      const id = await runningServer(stack, { hostname: 'stop-after-crash' }, 60_000);
      crashAfterCommit = simulatedCrash;
      const stop = await stack.api.request('POST', `/v1/instances/${id}/stop`, { token: stack.customer.token });
      crashAfterCommit = null;
      expect(stop.status).toBe(500);
      expect((await readInstance(stack, id)).status).toBe('stopping');
      await stack.waitForStatus(id, ['stopped'], 60_000);
      const { node, vmid } = await placementOf(id);
      expect((await proxmox().guests.status(node, vmid)).status).toBe('stopped');
    });

    it('counts a workflow that did start as started, and never starts it twice', { timeout: 90_000 }, async () => {
      const id = await runningServer(stack, { hostname: 'started-unconfirmed' }, 60_000);
      const task = await stack.api.db.task.findFirstOrThrow({ where: { instanceId: id, type: 'INSTANCE_CREATE' } });
      // The API's confirmation was lost (it died after the start, before marking it).
      await stack.api.db.task.update({ where: { id: task.id }, data: { workflowStartedAt: null, status: 'running', finishedAt: null, activeInstanceId: id } });
      await expect.poll(async () => (await stack.api.db.task.findUniqueOrThrow({ where: { id: task.id } })).workflowStartedAt, { timeout: 30_000 }).not.toBeNull();
      const audit = await stack.api.db.auditEvent.findFirstOrThrow({ where: { instanceId: id, action: 'task.workflow_started_late' } });
      expect(audit.details).toMatchObject({ taskId: task.id, outcome: 'already_started' });
      const runs = await stack.api.temporal.workflow.count(`WorkflowId = "provision-${id}"`);
      expect(runs.count).toBe(1);
      await stack.api.db.task.update({ where: { id: task.id }, data: { status: 'succeeded', finishedAt: new Date(), activeInstanceId: null } });
    });

    it('is never started for a task the API gave up on (its holdings released)', { timeout: 60_000 }, async () => {
      // The API could not reach Temporal and undid the task, as startCommittedWorkflow does.
      crashAfterCommit = async (taskId) => {
        await stack.api.db.task.update({ where: { id: taskId }, data: { status: 'failed', activeInstanceId: null, finishedAt: new Date(), errorCode: 'PROVIDER_UNAVAILABLE' } });
        throw new Error('the API gave up on this task');
      };
      await stack.createAnswer({ hostname: 'given-up' });
      crashAfterCommit = null;
      const instance = await stack.api.db.instance.findFirstOrThrow({ where: { hostname: 'given-up' } });
      await afterReconcileRuns(2);
      await expect(stack.api.temporal.workflow.getHandle(`provision-${instance.id}`).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
      expect(await stack.api.db.auditEvent.count({ where: { instanceId: instance.id, action: 'task.workflow_started_late' } })).toBe(0);
    });
  });

  it('follows a guest powered off outside the control plane, says so, and the server can be started again', { timeout: 90_000 }, async () => {
    const id = await runningServer(stack, { hostname: 'stopped-outside' }, 60_000);
    const { node, vmid } = await placementOf(id);
    const client = proxmox();
    await client.tasks.wait(await client.guests.stop(node, vmid));

    const stopped = await stack.waitForStatus(id, ['stopped'], 30_000);
    expect(stopped.task).toMatchObject({ type: 'INSTANCE_RECONCILE', status: 'succeeded' });
    expect(stopped.task?.steps).toEqual([expect.objectContaining({ step: 'reconcile > changed outside', status: 'warning', message: 'The server was powered off outside this service.' })]);
    expect(await stack.api.db.auditEvent.findFirst({ where: { instanceId: id, action: 'instance.changed_outside' } })).toMatchObject({ details: expect.objectContaining({ from: 'running', to: 'stopped', vmid }) });

    const start = await runOperation(stack, id, 'start');
    expect(start.task.status).toBe('succeeded');
    expect(start.instance.status).toBe('running');
    expect((await client.guests.status(node, vmid)).status).toBe('running');
  });

  it('follows a guest migrated to another node outside the control plane: node, capacity and event follow it, and a stop works there', { timeout: 90_000 }, async () => {
    const id = await runningServer(stack, { hostname: 'moved-outside' }, 60_000);
    const { node, vmid } = await placementOf(id);
    const target = node === 'pve1' ? 'pve2' : 'pve1';
    const client = proxmox();
    await client.tasks.wait(await client.guests.migrate(node, vmid, { target, online: true, withLocalDisks: true }));

    const adminView = async () => (await stack.api.request('GET', `/v1/admin/instances/${id}`, admin())).body.data;
    await expect.poll(async () => (await adminView()).provider.node, { timeout: 30_000, interval: 200 }).toBe(target);
    const moved = await adminView();
    expect(moved.status).toBe('running');
    expect(moved.task).toMatchObject({ type: 'INSTANCE_RECONCILE', status: 'succeeded' });
    expect(moved.task.steps).toEqual([expect.objectContaining({ step: 'reconcile > moved outside', status: 'warning', message: 'The server was moved to another host outside this service.' })]);
    expect(await liveAllocations(stack, id)).toEqual([expect.objectContaining({ node: target, target: null, state: 'allocated' })]);
    const events = await stack.api.request('GET', `/v1/events?instanceId=${id}`, { token: stack.customer.token });
    expect(events.body.data[0]).toMatchObject({ type: 'instance.migrated', data: { status: 'running', previousStatus: 'running' } });
    expect(JSON.stringify(events.body.data[0])).not.toContain(target);
    expect((await stack.api.db.auditEvent.findFirstOrThrow({ where: { instanceId: id, action: 'instance.migrated_outside' } })).details).toMatchObject({
      fromNode: node,
      toNode: target,
      vmid,
      capacityMoved: true,
    });

    const stop = await runOperation(stack, id, 'stop');
    expect(stop.task.status).toBe('succeeded');
    expect(stop.instance.status).toBe('stopped');
    expect((await client.guests.status(target, vmid)).status).toBe('stopped');
  });

  it('marks a server whose guest vanished `lost` with GUEST_LOST, keeps its reservations, and lets it be deleted', { timeout: 90_000 }, async () => {
    const id = await runningServer(stack, { hostname: 'vanished' }, 60_000);
    const { node, vmid } = await placementOf(id);
    const client = proxmox();
    await client.tasks.wait(await client.guests.stop(node, vmid));
    await client.tasks.wait(await client.guests.delete(node, vmid));

    const lost = await stack.waitForStatus(id, ['lost'], 30_000);
    expect(lost.failure).toEqual({ code: 'GUEST_LOST', message: expect.stringContaining('disappeared') });
    expect(await stack.api.db.vmidReservation.findUnique({ where: { instanceId: id } })).toMatchObject({ vmid, state: 'assigned' });
    expect(await stack.api.db.ipAddress.count({ where: { instanceId: id } })).toBeGreaterThan(0);
    const listed = await stack.api.request('GET', `/v1/admin/instances?status=lost&connectionId=${stack.seed.connectionId}`, admin());
    expect(listed.body.data.map((i: { id: string }) => i.id)).toContain(id);

    const deleted = await runOperation(stack, id, 'delete');
    expect(deleted.instance.status).toBe('deleted');
    expect(await stack.api.db.vmidReservation.findUnique({ where: { instanceId: id } })).toBeNull();
  });

  it('follows a lost server whose guest comes back: the status is the guest’s again', { timeout: 90_000 }, async () => {
    const id = await runningServer(stack, { hostname: 'came-back' }, 60_000);
    const { node, vmid, template } = await placementOf(id);
    const client = proxmox();
    const { name } = (await stack.sim.state()).guests.find((g) => g.vmid === vmid) ?? {};
    await client.tasks.wait(await client.guests.stop(node, vmid));
    await client.tasks.wait(await client.guests.delete(node, vmid));
    await stack.waitForStatus(id, ['lost'], 30_000);

    // Someone restored it (from a backup, say): our guest, at our VMID, powered off.
    await client.tasks.wait(await client.guests.clone(node, template, { newid: vmid, name: name as string, full: true, description: `pvecp:${id}` }));
    const back = await stack.waitForStatus(id, ['stopped'], 30_000);
    expect(back.failure).toBeNull();
    expect(back.task?.steps).toEqual([expect.objectContaining({ step: 'reconcile > found again', status: 'success' })]);
    expect(await stack.api.db.auditEvent.count({ where: { instanceId: id, action: 'instance.found_again' } })).toBe(1);
  });

  it('marks a server lost when a guest that is not ours sits at its VMID', { timeout: 90_000 }, async () => {
    const id = await runningServer(stack, { hostname: 'replaced' }, 60_000);
    const { node, vmid, template } = await placementOf(id);
    const client = proxmox();
    // The swap happens between two runs: a run in the middle would see the VMID empty instead.
    await pauseReconciling('swapping the guest');
    try {
      await client.tasks.wait(await client.guests.stop(node, vmid));
      await client.tasks.wait(await client.guests.delete(node, vmid));
      await client.tasks.wait(await client.guests.clone(node, template, { newid: vmid, name: 'someone-else', full: true }));
      await client.tasks.wait(await client.guests.start(node, vmid));
    } finally {
      await schedule().unpause();
    }
    const lost = await stack.waitForStatus(id, ['lost'], 30_000);
    expect(lost.failure?.code).toBe('GUEST_LOST');
    expect((await stack.api.db.instance.findUniqueOrThrow({ where: { id } })).failureCause).toMatchObject({ observedBy: 'reconciler', foreignGuest: 'someone-else' });
    // The stranger is never touched.
    expect((await stack.sim.state()).guests.find((g) => g.vmid === vmid)).toMatchObject({ name: 'someone-else', status: 'running' });

    // Deleting the lost server leaves the stranger be, and its VMID out of circulation for an admin to look at.
    const deleted = await runOperation(stack, id, 'delete');
    expect(deleted.instance.status).toBe('deleted');
    expect((await stack.sim.state()).guests.find((g) => g.vmid === vmid)).toMatchObject({ name: 'someone-else', status: 'running' });
    const quarantined = (await stack.api.request('GET', '/v1/admin/quarantined-vmids', admin())).body.data;
    expect(quarantined).toEqual(expect.arrayContaining([expect.objectContaining({ vmid, foundByInstanceId: id })]));
  });

  describe('guests that carry our marker but have no live server', () => {
    /** A guest made on Proxmox directly, marked as ours for an instance that does not exist. */
    const markedGuest = async (vmid: number) => {
      const owner = `inst_${randomBytes(12).toString('hex')}`;
      const client = proxmox();
      await client.tasks.wait(await client.guests.clone('pve1', 9000, { newid: vmid, name: 'left-behind', full: true, description: `pvecp:${owner}\nManaged by pvecp.` }));
      await client.guestConfig.setSync('pve1', vmid, { tags: 'pvecp' });
      return owner;
    };
    const openOrphan = async (vmid: number) => {
      let found: any;
      await expect
        .poll(async () => {
          const res = await stack.api.request('GET', `/v1/admin/orphans?status=open&connectionId=${stack.seed.connectionId}`, admin());
          found = res.body.data.find((o: { vmid: number }) => o.vmid === vmid);
          return found;
        }, { timeout: 30_000, interval: 200 })
        .toBeDefined();
      return found;
    };

    it('are listed as orphans, and destroyed only by the admin action, confirmed gone from Proxmox', { timeout: 60_000 }, async () => {
      const owner = await markedGuest(4101);
      const orphan = await openOrphan(4101);
      expect(orphan).toMatchObject({ node: 'pve1', name: 'left-behind', ownerInstanceId: owner, reason: 'instance_missing', status: 'open' });
      // The reconciler itself never destroys anything.
      await afterReconcileRuns(2);
      expect((await stack.sim.state()).guests.some((g) => g.vmid === 4101)).toBe(true);

      const destroy = await stack.api.request('POST', `/v1/admin/orphans/${orphan.id}/destroy`, admin());
      expect(destroy.status).toBe(202);
      expect(destroy.body.data).toMatchObject({ status: 'destroying', workflowId: `destroy-orphan-${orphan.id}` });
      expect(await stack.api.temporal.workflow.getHandle(destroy.body.data.workflowId).result()).toBe('removed');
      const after = await stack.api.request('GET', '/v1/admin/orphans?status=destroyed', admin());
      expect(after.body.data.find((o: { id: string }) => o.id === orphan.id)).toMatchObject({ status: 'destroyed', resolvedAt: expect.any(String) });
      expect((await stack.sim.state()).guests.some((g) => g.vmid === 4101)).toBe(false);
      const again = await stack.api.request('POST', `/v1/admin/orphans/${orphan.id}/destroy`, admin());
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('INVALID_STATE');
    });

    it('can be forgotten: the record closes, the guest stays, and it is not listed again', { timeout: 60_000 }, async () => {
      await markedGuest(4102);
      const orphan = await openOrphan(4102);
      const forget = await stack.api.request('POST', `/v1/admin/orphans/${orphan.id}/forget`, admin());
      expect(forget.status).toBe(200);
      expect(forget.body.data.status).toBe('forgotten');
      await afterReconcileRuns(2);
      const open = await stack.api.request('GET', '/v1/admin/orphans?status=open', admin());
      expect(open.body.data.some((o: { vmid: number }) => o.vmid === 4102)).toBe(false);
      expect((await stack.sim.state()).guests.some((g) => g.vmid === 4102)).toBe(true);
    });
  });

  it('prunes: expired ciphertext erased, old idempotency keys and rate-limit rows deleted, open provider operations of ended tasks closed; audit kept', { timeout: 90_000 }, async () => {
    const id = await runningServer(stack, { hostname: 'housekeeping' }, 60_000);
    const { db } = stack.api;
    const hourAgo = (hours: number) => new Date(Date.now() - hours * 3600_000);
    await db.credential.update({ where: { instanceId: id }, data: { expiresAt: hourAgo(1) } });
    await db.idempotencyKey.createMany({
      data: [
        { id: `idem_old${randomBytes(4).toString('hex')}`, userId: stack.customer.userId, key: 'old-key', requestHash: 'x', createdAt: hourAgo(48) },
        { id: `idem_new${randomBytes(4).toString('hex')}`, userId: stack.customer.userId, key: 'new-key', requestHash: 'x' },
      ],
    });
    await db.rateLimitEvent.createMany({ data: [{ userId: stack.customer.userId, action: 'housekeeping-test', at: hourAgo(2) }, { userId: stack.customer.userId, action: 'housekeeping-test' }] });
    const create = await db.task.findFirstOrThrow({ where: { instanceId: id, type: 'INSTANCE_CREATE' } });
    const clone = await db.providerCall.findUniqueOrThrow({ where: { taskId_kind: { taskId: create.id, kind: 'clone' } } });
    const start = await db.providerCall.findUniqueOrThrow({ where: { taskId_kind: { taskId: create.id, kind: 'start' } } });
    // Left open as a worker that died between its call and its bookkeeping would leave them.
    await db.providerCall.update({ where: { id: clone.id }, data: { status: 'running', exitStatus: null } });
    await db.providerCall.update({ where: { id: start.id }, data: { status: 'issuing', upid: null, exitStatus: null } });
    const audits = await db.auditEvent.count();

    await expect.poll(async () => (await db.credential.findUniqueOrThrow({ where: { instanceId: id } })).secretCipher, { timeout: 30_000 }).toBeNull();
    await expect.poll(async () => (await db.providerCall.findUniqueOrThrow({ where: { id: start.id } })).status, { timeout: 30_000 }).toBe('unknown');
    await expect.poll(async () => db.providerCall.findUniqueOrThrow({ where: { id: clone.id } }), { timeout: 30_000 }).toMatchObject({ status: 'succeeded', exitStatus: 'OK', upid: clone.upid });
    expect((await db.idempotencyKey.findMany({ where: { userId: stack.customer.userId } })).map((k) => k.key)).toEqual(['new-key']);
    expect(await db.rateLimitEvent.count({ where: { action: 'housekeeping-test' } })).toBe(1);
    expect(await db.auditEvent.count()).toBeGreaterThanOrEqual(audits);
    const reveal = await stack.api.request('POST', `/v1/instances/${id}/credentials/reveal`, { token: stack.customer.token });
    expect(reveal.body.error.code).toBe('CREDENTIAL_EXPIRED');
  });

  describe('admin views', () => {
    const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((i) => i.id);

    it('list every tenant’s servers with filters by status, tenant, connection and node, paginated', { timeout: 90_000 }, async () => {
      const id = await runningServer(stack, { hostname: 'listed' }, 60_000);
      const { node } = await placementOf(id);
      const q = (query: string) => stack.api.request('GET', `/v1/admin/instances?${query}`, admin());
      expect(ids(await q(`status=running&tenantId=${stack.customer.tenantId}&connectionId=${stack.seed.connectionId}&node=${node}`))).toContain(id);
      expect(ids(await q('node=nowhere'))).toEqual([]);
      expect(ids(await q(`tenantId=${stack.customer.tenantId}&status=stopped`))).not.toContain(id);
      const first = await q('limit=1');
      expect(first.body.data).toHaveLength(1);
      expect(first.body.data[0]).toMatchObject({ tenantId: expect.any(String), provider: { connectionId: stack.seed.connectionId } });
      const second = await q(`limit=1&cursor=${first.body.meta.nextCursor}`);
      expect(ids(second)).not.toEqual(ids(first));
      expect((await q('status=sleeping')).status).toBe(400);
      expect((await stack.api.request('GET', '/v1/admin/instances', { token: stack.customer.token })).status).toBe(403);
    });

    it('are documented in the OpenAPI document', async () => {
      const doc = (await stack.api.request('GET', '/openapi.json')).body;
      expect(doc.paths['/v1/admin/instances'].get.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['status', 'tenantId', 'connectionId', 'node', 'cursor']));
      expect(doc.paths['/v1/admin/instances/{id}/reconcile'].post.responses).toHaveProperty('200');
      expect(doc.paths['/v1/admin/orphans'].get.responses).toHaveProperty('200');
      expect(doc.paths['/v1/admin/orphans/{id}/destroy'].post.responses).toHaveProperty('202');
      expect(doc.paths['/v1/admin/orphans/{id}/forget'].post.responses).toHaveProperty('409');
    });

    it('reconcile one server now, even while the schedule is paused', { timeout: 90_000 }, async () => {
      const id = await runningServer(stack, { hostname: 'reconcile-now' }, 60_000);
      await pauseReconciling('reconcile-now test');
      try {
        const { node, vmid } = await placementOf(id);
        const client = proxmox();
        await client.tasks.wait(await client.guests.stop(node, vmid));

        const res = await stack.api.request('POST', `/v1/admin/instances/${id}/reconcile`, admin());
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ id, status: 'stopped', provider: { vmid } });
        expect(res.body.meta.guests).toMatchObject({ changedOutside: 1, lost: 0 });
      } finally {
        await schedule().unpause();
      }
      expect((await stack.api.request('POST', '/v1/admin/instances/inst_nope/reconcile', admin())).status).toBe(404);
    });
  });
});
