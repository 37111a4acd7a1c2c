import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { replayFiles } from '../../scripts/replay';
import { ProxmoxClient } from '../../src/proxmox';
import { DEFAULT_SIM_TOKEN, parseToken } from '../../src/simulator/server';
import { applyThrottleWorkflowId, backupScheduleId, destroyOrphanWorkflowId, operationWorkflowId, reconcileInstanceWorkflowId, webhookDeliveryWorkflowId } from '../../src/temporal/workflow-ids';
import { progressQuery, retryRollbackSignal } from '../../src/workflows/definitions';
import { PARKS_PER_RUN } from '../../src/workflows/parking';
import { backfillRuns, triggerRun } from '../support/backup-schedules';
import { guestOf, runningServer, runOperation, type OperationOutcome } from '../support/lifecycle';
import { startStack, type Stack } from '../support/stack';
import { startReceiver } from '../support/webhook-receiver';

/**
 * Workflow histories recorded from real runs, replayed against today's workflow code: a change
 * that would break workflows already running in production fails here.
 *
 * To record them again (after an intentional, versioned change):
 *   RECORD_HISTORIES=1 npx vitest run test/replay
 * or only some of them: RECORD_HISTORIES=provision-parks-then-updates npx vitest run test/replay
 */
const historiesDir = path.join(__dirname, 'histories');

if (process.env.RECORD_HISTORIES) {
  describe('recording histories', () => {
    const wanted = (name: string) => process.env.RECORD_HISTORIES === '1' || process.env.RECORD_HISTORIES!.split(',').includes(name);
    let stack: Stack;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    beforeAll(async () => {
      // The first delivery is refused once, so the webhook history holds a retry's timer.
      receiver = await startReceiver((_request, index) => (index === 0 ? 500 : 200));
      stack = await startStack({
        env: { STAGE_TIMEOUT_SCALE: '0.02', RECONCILE_INTERVAL_SECONDS: '1', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_INITIAL_MS: '100', WEBHOOK_DISPATCH_INTERVAL_MS: '100' },
      });
    }, 60_000);
    afterEach(() => stack.sim.clearFaults());
    afterAll(async () => {
      await stack?.close();
      await receiver?.close();
    });
    /** An operator's retry of the parked removal, sent until the workflow is parked to take it. */
    const retryWhenParked = (id: string) =>
      expect.poll(async () => (await stack.api.request('POST', `/v1/admin/instances/${id}/rollback/retry`, admin())).status, { timeout: 30_000 }).toBe(202);

    /** The same JSON an operator gets from `temporal workflow show --output json` (the latest run, unless `runId`). */
    const record = async (name: string, workflowId: string, runId?: string) => {
      const cli = path.resolve(__dirname, '..', '..', '.tools', 'bin', 'temporal');
      const args = ['workflow', 'show', '--address', inject('temporalAddress'), '--workflow-id', workflowId, ...(runId ? ['--run-id', runId] : []), '--output', 'json'];
      const { stdout } = await promisify(execFile)(cli, args, { maxBuffer: 16 * 1024 * 1024 });
      fs.writeFileSync(path.join(historiesDir, `${name}.json`), stdout);
    };
    const admin = () => ({ token: stack.api.adminToken });
    const parkedTimes = async (instanceId: string) => {
      const progress = await stack.api.temporal.workflow.getHandle(`provision-${instanceId}`).query(progressQuery);
      return progress.rollback.state === 'parked' ? progress.rollback.parkedTimes : 0;
    };

    it('records a successful provision, one from a backup, a rollback, and parked rollbacks retried by an operator (signal, update)', async () => {
      if (wanted('provision-succeeds')) {
        const ok = (await stack.create({ hostname: 'replay-ok' })).body.data.id;
        await stack.waitForStatus(ok, ['running']);
        await record('provision-succeeds', `provision-${ok}`);
      }

      if (wanted('provision-restores-backup')) {
        const original = await runningServer(stack, { hostname: 'replay-original' });
        const made = await stack.api.request('POST', `/v1/instances/${original}/backups`, { token: stack.customer.token, body: {} });
        await stack.api.temporal.workflow.getHandle(operationWorkflowId('backup', original, made.body.meta.taskId as string)).result();
        const restored = (await stack.create({ imageId: undefined, backupId: made.body.data.id, hostname: 'replay-restored' })).body.data.id;
        await stack.waitForStatus(restored, ['running']);
        await record('provision-restores-backup', `provision-${restored}`);
      }

      if (wanted('provision-rolls-back')) {
        await stack.sim.fault({ op: 'start', mode: 'task_fail' });
        const rolledBack = (await stack.create({ hostname: 'replay-rollback' })).body.data.id;
        await stack.waitForStatus(rolledBack, ['failed']);
        await record('provision-rolls-back', `provision-${rolledBack}`);
      }

      // Earlier versions took the operator's decision as a signal, today's as an update.
      const parkThenRetry = async (name: string, retry: (id: string) => Promise<unknown>) => {
        if (!wanted(name)) return;
        await stack.sim.fault({ op: 'start', mode: 'task_fail' });
        await stack.sim.fault({ op: 'destroy', mode: 'http500', count: 10_000 });
        const parked = (await stack.create({ hostname: 'replay-parked' })).body.data.id;
        await stack.waitForStatus(parked, ['rollback_failed']);
        await stack.sim.clearFaults();
        await retry(parked);
        await stack.waitForStatus(parked, ['failed']);
        await record(name, `provision-${parked}`);
      };
      await parkThenRetry('provision-parks-then-retries', (id) => stack.api.temporal.workflow.getHandle(`provision-${id}`).signal(retryRollbackSignal));
      await parkThenRetry('provision-parks-then-updates', (id) => stack.api.request('POST', `/v1/admin/instances/${id}/rollback/retry`, admin()));
    }, 120_000);

    it('records a provision parked so often that it continued as new, both runs', async () => {
      if (!wanted('provision-parks-past-continue-as-new')) return;
      await stack.sim.fault({ op: 'start', mode: 'task_fail' });
      await stack.sim.fault({ op: 'destroy', mode: 'http500', count: 10_000 });
      const id = (await stack.create({ hostname: 'replay-long-parked' })).body.data.id;
      const handle = stack.api.temporal.workflow.getHandle(`provision-${id}`);
      await expect.poll(() => parkedTimes(id), { timeout: 30_000 }).toBe(1);
      const firstRunId = (await handle.describe()).runId;
      for (let parks = 1; parks < PARKS_PER_RUN; parks++) {
        await retryWhenParked(id);
        await expect.poll(() => parkedTimes(id), { timeout: 30_000 }).toBe(parks + 1);
      }
      await expect.poll(async () => (await handle.describe()).runId, { timeout: 30_000 }).not.toBe(firstRunId);
      await stack.sim.clearFaults();
      await retryWhenParked(id);
      await stack.waitForStatus(id, ['failed']);
      await record('provision-parks-past-continue-as-new', `provision-${id}`);
      await record('provision-parks-until-continue-as-new', `provision-${id}`, firstRunId);
    }, 180_000);

    it('records lifecycle operations: reboot, a failed stop, rebuild, a rebuild after a failed one, delete', async () => {
      const id = await runningServer(stack, { hostname: 'replay-ops' });
      const operation = async (name: string, kind: string, run: () => Promise<OperationOutcome>) => {
        const { accepted } = await run();
        if (wanted(name)) await record(name, operationWorkflowId(kind, id, accepted.meta.taskId as string));
      };
      await operation('operation-reboot-succeeds', 'reboot', () => runOperation(stack, id, 'reboot'));
      await stack.sim.fault({ op: 'stop', mode: 'task_fail', message: 'stop failed: QEMU exited with code 1' });
      await operation('operation-stop-fails', 'stop', () => runOperation(stack, id, 'stop'));
      await operation('operation-rebuild-succeeds', 'rebuild', () => runOperation(stack, id, 'rebuild', {}));
      await stack.sim.fault({ op: 'clone', mode: 'task_fail', message: 'clone failed: storage full' });
      await operation('operation-rebuild-fails', 'rebuild', () => runOperation(stack, id, 'rebuild', {}));
      await operation('operation-rebuild-after-failed-rebuild', 'rebuild', () => runOperation(stack, id, 'rebuild', {}));
      await operation('operation-delete-succeeds', 'delete', () => runOperation(stack, id, 'delete'));
    }, 120_000);

    it("records a backup schedule's run and the scheduled backup whose retention prunes the one before", async () => {
      if (!wanted('scheduled-backup') && !wanted('operation-backup-scheduled')) return;
      const id = await runningServer(stack, { hostname: 'replay-scheduled' });
      const body = { frequency: 'daily', time: '04:00', timezone: 'UTC', keepLast: 1 };
      expect((await stack.api.request('PUT', `/v1/instances/${id}/backup-schedule`, { token: stack.customer.token, body })).status).toBe(200);
      // Yesterday's run, backfilled, then today's: a schedule backs up once a day.
      const now = new Date();
      const yesterday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 1, 4, 0);
      await backfillRuns(stack, id, new Date(yesterday - 60_000), new Date(yesterday + 60_000), 1);
      const second = await triggerRun(stack, id);
      const { taskId } = await stack.api.db.backup.findUniqueOrThrow({ where: { id: second.outcome.backupId! } });
      const { workflowId } = await stack.api.db.task.findUniqueOrThrow({ where: { id: taskId! } });
      await stack.api.temporal.workflow.getHandle(workflowId).result();
      if (wanted('scheduled-backup')) await record('scheduled-backup', second.workflowId);
      if (wanted('operation-backup-scheduled')) await record('operation-backup-scheduled', workflowId);
      await stack.api.temporal.schedule.getHandle(backupScheduleId(id)).delete();
    }, 120_000);

    it('records a throttle: the sampling pass that decides it, the ApplyThrottle it starts, and the throttle operation', async () => {
      if (!['sample-traffic-one-apply-throttle', 'apply-throttle', 'operation-throttle-succeeds'].some(wanted)) return;
      const plan = await stack.api.request('POST', '/v1/admin/plans', {
        ...admin(),
        body: { name: 'replay-metered', vcpus: 1, memoryMiB: 1024, diskGiB: 10, trafficAllowanceGiB: 1, trafficOverage: 'throttle', throttleMbps: 10 },
      });
      const id = await runningServer(stack, { hostname: 'replay-throttled', planId: plan.body.data.id });
      const { vmid } = (await guestOf(stack, id))!;
      await stack.sim.setGuestTraffic(vmid, { inBytesPerSecond: 0, outBytesPerSecond: 20_000_000 });
      const pass = () =>
        stack.api.temporal.workflow.start('SampleTraffic', { taskQueue: stack.api.config.TEMPORAL_TASK_QUEUE, workflowId: `replay-traffic-${randomBytes(4).toString('hex')}`, args: [{ connectionId: stack.seed.connectionId }] });
      await (await pass()).result();
      // Up a minute at 20 MB/s: past 1 GiB.
      await stack.sim.setGuestUptime(vmid, 60);
      const crossing = await pass();
      await crossing.result();
      const applyId = applyThrottleWorkflowId(id);
      const asked = (await stack.api.temporal.workflow.getHandle(applyId).result()) as { taskId: string };
      const operationId = operationWorkflowId('throttle', id, asked.taskId);
      await stack.api.temporal.workflow.getHandle(operationId).result();
      if (wanted('sample-traffic-one-apply-throttle')) await record('sample-traffic-one-apply-throttle', crossing.workflowId);
      if (wanted('apply-throttle')) await record('apply-throttle', applyId);
      if (wanted('operation-throttle-succeeds')) await record('operation-throttle-succeeds', operationId);
    }, 120_000);

    it('records a reconcile of one server, an orphan destroyed by an operator, and webhook deliveries with a retry', async () => {
      const endpoint = (await stack.api.request('POST', '/v1/webhooks', { token: stack.customer.token, body: { url: receiver.url } })).body.data;
      const id = await runningServer(stack, { hostname: 'replay-watched' });
      if (wanted('reconcile-instance')) {
        expect((await stack.api.request('POST', `/v1/admin/instances/${id}/reconcile`, admin())).status).toBe(200);
        await record('reconcile-instance', reconcileInstanceWorkflowId(id));
      }
      if (wanted('deliver-webhooks')) {
        const deliveries = stack.api.temporal.workflow.getHandle(webhookDeliveryWorkflowId(endpoint.id, id));
        await receiver.waitFor((received) => received.some((hook) => hook.json.instanceId === id && hook.json.type === 'instance.running'), 'instance.running delivered');
        await expect.poll(async () => (await deliveries.describe()).status.name, { timeout: 30_000 }).toBe('COMPLETED');
        await record('deliver-webhooks', webhookDeliveryWorkflowId(endpoint.id, id));
      }
      if (wanted('destroy-orphan')) {
        const owner = `inst_${randomBytes(12).toString('hex')}`;
        const { tokenId, secret } = parseToken(DEFAULT_SIM_TOKEN);
        const client = new ProxmoxClient({ baseUrl: stack.sim.url, tokenId, tokenSecret: secret, plaintextLab: true });
        try {
          await client.tasks.wait(await client.guests.clone('pve1', 9000, { newid: 4201, name: 'left-behind', full: true, description: `pvecp:${owner}\nManaged by pvecp.` }));
          await client.guestConfig.setSync('pve1', 4201, { tags: 'pvecp' });
        } finally {
          client.close();
        }
        let orphan: { id: string } | undefined;
        await expect
          .poll(async () => (orphan = (await stack.api.request('GET', '/v1/admin/orphans?status=open', admin())).body.data.find((o: { vmid: number }) => o.vmid === 4201)), { timeout: 30_000 })
          .toBeDefined();
        const orphanId = (orphan as { id: string }).id;
        expect((await stack.api.request('POST', `/v1/admin/orphans/${orphanId}/destroy`, admin())).status).toBe(202);
        await stack.api.temporal.workflow.getHandle(destroyOrphanWorkflowId(orphanId)).result();
        await record('destroy-orphan', destroyOrphanWorkflowId(orphanId));
      }
    }, 120_000);
  });
}

describe('recorded workflow histories', () => {
  const files = fs.readdirSync(historiesDir).filter((file) => file.endsWith('.json'));

  it('has histories of every workflow type: provisions (success, from a backup, rollback, parked and retried, past continue-as-new), operations, reconcile, orphan, webhooks, a backup schedule, a throttle', () => {
    expect(files.sort()).toEqual([
      'apply-throttle.json',
      'deliver-webhooks.json',
      'destroy-orphan.json',
      'operation-backup-scheduled.json',
      'operation-delete-succeeds.json',
      'operation-reboot-succeeds.json',
      'operation-rebuild-after-failed-rebuild.json',
      'operation-rebuild-fails.json',
      'operation-rebuild-succeeds.json',
      'operation-stop-fails.json',
      'operation-throttle-succeeds.json',
      'provision-parks-past-continue-as-new.json',
      'provision-parks-then-retries.json',
      'provision-parks-then-updates.json',
      'provision-parks-until-continue-as-new.json',
      'provision-restores-backup.json',
      'provision-rolls-back.json',
      'provision-succeeds.json',
      'reconcile-instance.json',
      'sample-traffic-one-apply-throttle.json',
      'sample-traffic-throttles.json',
      'scheduled-backup.json',
    ]);
    const workflowTypes = new Set(
      files.map((file) => JSON.parse(fs.readFileSync(path.join(historiesDir, file), 'utf8')).events[0].workflowExecutionStartedEventAttributes.workflowType.name as string),
    );
    expect([...workflowTypes].sort()).toEqual(['ApplyThrottle', 'DeliverWebhooks', 'DestroyOrphan', 'InstanceOperation', 'ProvisionInstance', 'Reconcile', 'SampleTraffic', 'ScheduledBackup']);
  });

  const replay = (file: string) => replayFiles([file], inject('workflowBundlePath'));

  it.each(files)('replays %s against the current workflow code without nondeterminism', async (file) => {
    expect(await replay(path.join(historiesDir, file))).toEqual([{ file: path.join(historiesDir, file) }]);
  });

  it('notices a history that the current code cannot replay', async () => {
    const history = JSON.parse(fs.readFileSync(path.join(historiesDir, 'provision-succeeds.json'), 'utf8'));
    // Pretend the recorded run scheduled a different first activity than today's code does.
    const scheduled = history.events.find((e: any) => e.activityTaskScheduledEventAttributes);
    scheduled.activityTaskScheduledEventAttributes.activityType.name = 'someOtherActivity';
    const tampered = path.join(os.tmpdir(), `tampered-${process.pid}.json`);
    fs.writeFileSync(tampered, JSON.stringify(history));
    try {
      const [result] = await replay(tampered);
      expect(result?.error).toMatch(/Nondeterminism|DeterminismViolation/i);
    } finally {
      fs.rmSync(tampered, { force: true });
    }
  });
});
