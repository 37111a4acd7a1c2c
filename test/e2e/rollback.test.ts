import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { progressQuery } from '../../src/workflows/definitions';
import { expectAllKept, expectFullyReleased, holdings } from '../support/reservations';
import { guestsOf, startStack, type Stack } from '../support/stack';

const temporalCli = path.resolve(__dirname, '..', '..', '.tools', 'bin', 'temporal');
const run = promisify(execFile);

/** Short budgets: a stage that keeps failing gives up in a few seconds. */
const ROLLBACK_ENV = { STAGE_TIMEOUT_SCALE: '0.02' };

// One stack for the file; faults are cleared after every test.
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ env: ROLLBACK_ENV });
});
afterEach(async () => {
  await stack.sim.clearFaults();
});
afterAll(async () => {
  await stack?.close();
});

/** The node's `source=active` task list as the stack's token sees it. */
async function activeTasks(node: string): Promise<{ upid: string; status?: string; endtime?: number }[]> {
  const res = await fetch(`${stack.sim.url}/api2/json/nodes/${node}/tasks?source=active`, { headers: { Authorization: `PVEAPIToken=${stack.simToken}` } });
  return ((await res.json()) as { data: { upid: string; status?: string; endtime?: number }[] }).data;
}

describe('rollback after a failed provisioning stage', () => {
  const guestsOfInstance = async (instanceId: string) => guestsOf(await stack.sim.state(), instanceId);

  async function provisionExpectingFailure(hostname: string) {
    const created = await stack.create({ hostname });
    expect(created.status).toBe(202);
    const id = created.body.data.id as string;
    const failed = await stack.waitForStatus(id, ['failed', 'running', 'rollback_failed'], 60_000);
    expect(failed.status).toBe('failed');
    expect(failed.failure?.code).toMatch(/^(PROVISIONING_FAILED|PROVISIONING_TIMEOUT|PROVIDER_UNAVAILABLE)$/);
    expect(failed.task?.error?.code).toBe(failed.failure?.code);
    expect(await guestsOfInstance(id)).toEqual([]);
    await expectFullyReleased(stack.api.db, id);
    return { id, failed };
  }

  it('undoes everything when the clone task fails', async () => {
    await stack.sim.fault({ op: 'clone', mode: 'task_fail', message: 'storage migration failed' });
    const { failed } = await provisionExpectingFailure('clone-fails');
    expect(failed.failure?.code).toBe('PROVISIONING_FAILED');
    expect(JSON.stringify(failed)).not.toContain('storage migration failed');
  });

  it('a failed clone still in the active task list holds up neither the next provision at its VMID nor that one\'s rollback', async () => {
    await stack.sim.fault({ op: 'clone', mode: 'task_fail', message: 'clone failed: storage got full' });
    const { id: failedId } = await provisionExpectingFailure('clone-failed-first');
    const failedClone = await stack.api.db.providerCall.findFirstOrThrow({ where: { instanceId: failedId, kind: 'clone' } });
    const listed = await activeTasks(failedClone.node ?? 'pve1');
    expect(listed.find((t) => t.upid === failedClone.upid)).toMatchObject({ status: 'clone failed: storage got full', endtime: expect.any(Number) });

    // The next provision gets the same VMID; its clone leaves a lock that no running task explains.
    await stack.sim.fault({ op: 'clone', mode: 'lock', message: 'clone' });
    const created = await stack.create({ hostname: 'clone-after-failed' });
    const id = created.body.data.id as string;
    const parked = await stack.waitForStatus(id, ['rollback_failed', 'failed', 'running'], 60_000);
    expect((await stack.api.db.providerCall.findFirstOrThrow({ where: { instanceId: id, kind: 'clone' } })).vmid).toBe(failedClone.vmid);
    expect(parked.status).toBe('rollback_failed');
    const progress = await stack.api.temporal.workflow.getHandle(`provision-${id}`).query(progressQuery);
    expect(progress.rollback.reason).toContain('qm unlock');
    await fetch(`${stack.sim.url}/_sim/reset`, { method: 'POST' });

    // Neither ended clone holds a provision at that VMID once the lock is gone.
    await stack.api.request('POST', `/v1/admin/instances/${id}/rollback/resolve`, { token: stack.api.adminToken, body: { note: 'ran qm unlock and qm destroy' } });
    await stack.waitForStatus(id, ['failed'], 30_000);
    const next = await stack.create({ hostname: 'clone-at-last' });
    await stack.waitForStatus(next.body.data.id as string, ['running'], 30_000);
  });

  it('undoes everything when config writes keep answering 500', async () => {
    await stack.sim.fault({ op: 'config', mode: 'http500', count: 10_000, message: 'got no worker upid' });
    const { id, failed } = await provisionExpectingFailure('config-fails');
    expect(failed.failure?.code).toBe('PROVIDER_UNAVAILABLE');
    const admin = await stack.api.request('GET', `/v1/admin/instances/${id}`, { token: stack.api.adminToken });
    expect(admin.body.data.failureCause).toMatchObject({ stage: 'configure' });
  });

  it('undoes everything when the disk resize is refused', async () => {
    await stack.sim.fault({ op: 'resize', mode: 'task_fail', message: 'shrinking disks is not supported' });
    await provisionExpectingFailure('resize-fails');
  });

  it('undoes everything when the start task fails', async () => {
    await stack.sim.fault({ op: 'start', mode: 'task_fail', message: 'start failed: QEMU exited with code 1' });
    await provisionExpectingFailure('start-fails');
  });

  it('undoes everything when verify never sees the guest running', async () => {
    // Hold the start call's answer; once it is under way, make every status read fail.
    await stack.sim.fault({ op: 'start', mode: 'delay', delayMs: 1500 });
    const created = await stack.create({ hostname: 'verify-fails' });
    const id = created.body.data.id as string;
    await expect.poll(() => stack.api.db.providerCall.count({ where: { instanceId: id, kind: 'start' } }), { timeout: 20_000 }).toBe(1);
    await stack.sim.fault({ op: 'status', mode: 'http500', count: 10_000 });
    const failed = await stack.waitForStatus(id, ['failed', 'running', 'rollback_failed'], 60_000);
    expect(failed.status).toBe('failed');
    await stack.sim.clearFaults();
    await expectFullyReleased(stack.api.db, id);
    expect(await guestsOfInstance(id)).toEqual([]);
    const admin = await stack.api.request('GET', `/v1/admin/instances/${id}`, { token: stack.api.adminToken });
    expect(admin.body.data.failureCause).toMatchObject({ stage: 'verify' });
  });

  it('destroys a guest it adopted after the clone answer was lost', async () => {
    await stack.sim.fault({ op: 'clone', mode: 'drop_after_accept' });
    await stack.sim.fault({ op: 'start', mode: 'task_fail' });
    const before = (await stack.sim.state()).calls['POST /nodes/{node}/qemu/{vmid}/clone'] ?? 0;
    const { id } = await provisionExpectingFailure('adopted-then-fails');
    const after = (await stack.sim.state()).calls['POST /nodes/{node}/qemu/{vmid}/clone'] ?? 0;
    expect(after - before).toBe(1);
    const { task } = await holdings(stack.api.db, id);
    const steps = await stack.api.db.taskStep.findMany({ where: { taskId: task!.id } });
    expect(steps.map((s) => s.step)).toContain('rollback > removing the server');
  });
});

describe('rollback that cannot prove the guest is gone', () => {
  async function parkedInstance(hostname: string, destroyFault: { mode: string; message?: string }) {
    await stack.sim.fault({ op: 'start', mode: 'task_fail' });
    await stack.sim.fault({ op: 'destroy', count: 10_000, ...destroyFault });
    const created = await stack.create({ hostname });
    const id = created.body.data.id as string;
    const parked = await stack.waitForStatus(id, ['rollback_failed', 'failed', 'running'], 60_000);
    expect(parked.status).toBe('rollback_failed');
    await expectAllKept(stack.api.db, id);
    return id;
  }

  it('parks on a rejected destroy, shows the way out in the Web UI, and a retryRollback update from the temporal CLI finishes the rollback', async () => {
    const id = await parkedInstance('parked-retry', { mode: 'http500', message: 'cfs-lock timeout' });
    const handle = stack.api.temporal.workflow.getHandle(`provision-${id}`);
    const progress = await handle.query(progressQuery);
    expect(progress.rollback.state).toBe('parked');
    expect(progress.rollback.reason).toBeTruthy();

    const address = inject('temporalAddress');
    const { stdout } = await run(temporalCli, ['workflow', 'list', '--address', address, '--query', `InstanceStatus='rollback_failed' AND InstanceId='${id}'`, '--output', 'json']);
    expect(stdout).toContain(`provision-${id}`);

    // The Web UI names the workflow and, while parked, shows the reason and both commands.
    const description = await handle.describe();
    expect(await description.staticSummary()).toBe(`create parked-retry (plan small, tenant ${stack.customer.tenantId})`);
    expect(await description.staticDetails()).toContain(id);
    const { currentDetails } = await handle.query<{ currentDetails: string }>('__temporal_workflow_metadata');
    expect(currentDetails).toContain('Parked: waiting for an operator');
    expect(currentDetails).toContain(`temporal workflow update execute --workflow-id provision-${id} --name retryRollback`);
    expect(currentDetails).toContain(`temporal workflow update execute --workflow-id provision-${id} --name resolveRollback --input '{"note":"what you did"}'`);

    await stack.sim.clearFaults();
    const { stdout: answer } = await run(temporalCli, ['workflow', 'update', 'execute', '--address', address, '--workflow-id', `provision-${id}`, '--name', 'retryRollback']);
    expect(answer).toContain('Accepted');
    await stack.waitForStatus(id, ['failed'], 30_000);
    await expectFullyReleased(stack.api.db, id);
    expect(guestsOf(await stack.sim.state(), id)).toEqual([]);
    expect(await handle.result()).toMatchObject({ status: 'failed' });
  });

  it('parks again when a retry still fails', async () => {
    const id = await parkedInstance('parked-twice', { mode: 'http500' });
    const retried = await stack.api.request('POST', `/v1/admin/instances/${id}/rollback/retry`, { token: stack.api.adminToken });
    expect(retried.status).toBe(202);
    const handle = stack.api.temporal.workflow.getHandle(`provision-${id}`);
    await expect.poll(async () => (await handle.query(progressQuery)).rollback.parkedTimes, { timeout: 30_000 }).toBe(2);
    await expectAllKept(stack.api.db, id);
    await stack.sim.clearFaults();
    await stack.api.request('POST', `/v1/admin/instances/${id}/rollback/retry`, { token: stack.api.adminToken });
    await stack.waitForStatus(id, ['failed'], 30_000);
  });

  it('reports a stale clone lock for qm unlock, and resolveRollback from the admin API releases everything', async () => {
    await stack.sim.fault({ op: 'clone', mode: 'lock', message: 'clone' });
    const created = await stack.create({ hostname: 'stale-lock' });
    const id = created.body.data.id as string;
    const parked = await stack.waitForStatus(id, ['rollback_failed', 'failed', 'running'], 60_000);
    expect(parked.status).toBe('rollback_failed');
    const progress = await stack.api.temporal.workflow.getHandle(`provision-${id}`).query(progressQuery);
    expect(progress.rollback.reason).toContain('qm unlock');

    const customerView = await stack.api.request('GET', `/v1/instances/${id}`, { token: stack.customer.token });
    expect(customerView.text).not.toContain('qm unlock');

    const wrongState = await stack.api.request('POST', `/v1/admin/instances/${id}/rollback/resolve`, { token: stack.api.adminToken, body: {} });
    expect(wrongState.status).toBe(400);
    const resolved = await stack.api.request('POST', `/v1/admin/instances/${id}/rollback/resolve`, {
      token: stack.api.adminToken,
      body: { note: 'ran qm unlock and qm destroy on pve1' },
    });
    expect(resolved.status).toBe(202);
    await stack.waitForStatus(id, ['failed'], 30_000);
    await expectFullyReleased(stack.api.db, id);
    const audit = await stack.api.db.auditEvent.findMany({ where: { instanceId: id, action: 'rollback.resolved_by_operator' } });
    expect(audit).toHaveLength(1);
    // The operator's request and the workflow's note both belong to the instance's tenant.
    const { tenantId } = await stack.api.db.instance.findUniqueOrThrow({ where: { id } });
    const requested = await stack.api.db.auditEvent.findFirstOrThrow({ where: { instanceId: id, action: 'rollback.resolve_requested' } });
    expect([requested.tenantId, audit[0]?.tenantId]).toEqual([tenantId, tenantId]);
    // What the operator did by hand (qm unlock, qm destroy), the simulator does by a reset.
    await fetch(`${stack.sim.url}/_sim/reset`, { method: 'POST' });
  });

  it('answers 409 with the workflow\'s own reason when the removal is already running again', async () => {
    const id = await parkedInstance('busy', { mode: 'http500' });
    await stack.sim.clearFaults();
    await stack.sim.fault({ op: 'destroy', mode: 'delay', delayMs: 3000 });
    const first = await stack.api.request('POST', `/v1/admin/instances/${id}/rollback/retry`, { token: stack.api.adminToken });
    expect(first.status).toBe(202);
    const second = await stack.api.request('POST', `/v1/admin/instances/${id}/rollback/retry`, { token: stack.api.adminToken });
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({ code: 'INVALID_STATE', message: 'Nothing is waiting for an operator: the cleanup is running.' });
    await stack.waitForStatus(id, ['failed'], 30_000);
    await expectFullyReleased(stack.api.db, id);
  });

  it('refuses operator decisions for an instance that is not parked', async () => {
    const created = await stack.create({ hostname: 'healthy' });
    const id = created.body.data.id as string;
    await stack.waitForStatus(id, ['running']);
    const res = await stack.api.request('POST', `/v1/admin/instances/${id}/rollback/retry`, { token: stack.api.adminToken });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('INVALID_STATE');
  });
});
