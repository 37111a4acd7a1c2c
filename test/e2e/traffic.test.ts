/**
 * Traffic counting on the real stack: the sampler's passes (run here on demand, the schedule set
 * far apart) count what the simulator's guests send and receive, across stop/start and migration
 * without counting a byte twice, unchanged by a pass run twice or a worker killed mid-pass; a
 * metered plan's 80% and 100% send their events once, 100% throttles the NIC (the guest's counter
 * then grows at the throttle) and the next period lifts it; usage records add up to a server's life,
 * split at a resize, the same in JSON and CSV.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { TrafficSampleResult } from '../../src/workflows/traffic';
import type { ReconcileSummary } from '../../src/workflows/reconcile';
import { ProxmoxClient } from '../../src/proxmox';
import { parseToken } from '../../src/simulator/server';
import { LEAST_PRIVILEGE_SIM_TOKEN } from '../../src/simulator/spec';
import { nicRateForMbps } from '../../src/domain/traffic';
import type { Stack } from '../support/stack';
import { guestOf, operate, runningServer, runOperation, setTaskMs, suiteStack, taskEnd } from '../support/lifecycle';
import { startReceiver } from '../support/webhook-receiver';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const { tokenId, secret } = parseToken(LEAST_PRIVILEGE_SIM_TOKEN);
/** Far apart: the tests run every pass themselves. */
const env = { TRAFFIC_SAMPLE_SECONDS: '86400', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_DISPATCH_INTERVAL_MS: '100' };

/** One sampling pass of the stack's connection, run to its end. */
const samplingPass = (stack: Stack): Promise<TrafficSampleResult> =>
  stack.api.temporal.workflow.execute('SampleTraffic', { taskQueue: stack.api.config.TEMPORAL_TASK_QUEUE, workflowId: `traffic-test-${randomUUID()}`, args: [{ connectionId: stack.seed.connectionId }] });

/** One reconcile pass of the stack's connection, run to its end. */
const reconcilePass = (stack: Stack): Promise<ReconcileSummary> =>
  stack.api.temporal.workflow.execute('Reconcile', { taskQueue: stack.api.config.TEMPORAL_TASK_QUEUE, workflowId: `reconcile-test-${randomUUID()}`, args: [{ connectionId: stack.seed.connectionId }] });

const trafficOf = async (stack: Stack, id: string, period = 'current') => {
  const answer = await stack.api.request('GET', `/v1/instances/${id}/traffic?period=${period}`, { token: stack.customer.token });
  expect(answer.status).toBe(200);
  return answer.body.data;
};

/** What the sampler last read of the server's guest. */
const lastReading = (stack: Stack, id: string) => stack.api.db.trafficCounter.findUniqueOrThrow({ where: { instanceId: id } });

/** The server's latest throttle or unthrottle task once it has ended, with its step thread as the customer reads it. */
async function rateTask(stack: Stack, id: string, type: 'NIC_THROTTLE' | 'NIC_UNTHROTTLE') {
  const latest = () => stack.api.db.task.findFirst({ where: { instanceId: id, type }, orderBy: { createdAt: 'desc' } });
  await expect.poll(latest, { timeout: 30_000 }).toBeTruthy();
  const task = (await latest())!;
  await taskEnd(stack, task.id);
  const answer = await stack.api.request('GET', `/v1/tasks/${task.id}`, { token: stack.customer.token });
  expect(answer.status).toBe(200);
  return answer.body.data;
}

describe('the traffic sampler', () => {
  const stack = suiteStack({ env });
  let outside: ProxmoxClient | undefined;
  /** The guest's counters as Proxmox lists them now. */
  const liveCounters = async (id: string) => {
    outside ??= new ProxmoxClient({ baseUrl: stack.sim.url, tokenId, tokenSecret: secret, plaintextLab: true });
    const { vmid } = (await guestOf(stack, id))!;
    const listed = (await outside.guests.list()).find((g) => g.vmid === vmid)!;
    return { netin: listed.netin ?? 0, netout: listed.netout ?? 0 };
  };
  afterAll(() => outside?.close());

  it('runs on a Temporal Schedule per connection at TRAFFIC_SAMPLE_SECONDS, with one cluster listing per pass', async () => {
    const described = await stack.api.temporal.schedule.getHandle(`traffic-${stack.seed.connectionId}`).describe();
    expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'SampleTraffic', args: [{ connectionId: stack.seed.connectionId }] });
    expect(described.policies.overlap).toBe('SKIP');
    expect(described.spec.intervals?.[0]?.every).toBe(86_400_000);
    const before = (await stack.sim.state()).calls['GET /cluster/resources'] ?? 0;
    await samplingPass(stack);
    expect((await stack.sim.state()).calls['GET /cluster/resources']).toBe(before + 1);
  });

  it('counts what a server sends at a set rate: the period holds every byte of its counters', async () => {
    const id = await runningServer(stack, { hostname: 'traffic-rate' });
    const { vmid } = (await guestOf(stack, id))!;
    await stack.sim.setGuestTraffic(vmid, { inBytesPerSecond: 20_000, outBytesPerSecond: 500_000 });
    await samplingPass(stack);
    const first = await lastReading(stack, id);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await samplingPass(stack);
    const second = await lastReading(stack, id);

    const report = await trafficOf(stack, id);
    // No reset since the guest started: the period holds exactly what its counters counted.
    expect([report.inBytes, report.outBytes]).toEqual([Number(second.netin), Number(second.netout)]);
    const seconds = (second.sampledAt.getTime() - first.sampledAt.getTime()) / 1000;
    // Between the passes it sent at the set rate (the two reads are timed on our side: a second either way).
    expect(Number(second.netout - first.netout)).toBeGreaterThanOrEqual(500_000 * (seconds - 1));
    expect(Number(second.netout - first.netout)).toBeLessThanOrEqual(500_000 * (seconds + 1));
    expect(report).toMatchObject({ counted: 'out', countedBytes: report.outBytes, allowanceBytes: null, percent: null, throttle: null, period: { current: true } });
    const today = new Date().toISOString().slice(0, 10);
    expect(report.daily.at(-1)).toMatchObject({ date: today });
    expect(report.daily.reduce((sum: number, day: { outBytes: number }) => sum + day.outBytes, 0)).toBe(report.outBytes);
  });

  it('counts across a stop and start and a migration from zero again: never twice, losing at most what moved since the pass before', async () => {
    const id = await runningServer(stack, { hostname: 'traffic-resets' });
    const { vmid } = (await guestOf(stack, id))!;
    // Up an hour before the restart: a new process is told by its uptime going back, whatever the stop and start took.
    await stack.sim.setGuestUptime(vmid, 3_600);
    await stack.sim.setGuestTraffic(vmid, { inBytesPerSecond: 1_000, outBytesPerSecond: 300_000 });
    await samplingPass(stack);
    const before = await trafficOf(stack, id);

    await runOperation(stack, id, 'stop');
    await runOperation(stack, id, 'start');
    await stack.sim.setGuestTraffic(vmid, { inBytesPerSecond: 1_000, outBytesPerSecond: 300_000 });
    const sinceStart = await liveCounters(id);
    const afterRestart = await samplingPass(stack);
    expect(afterRestart.resets).toBeGreaterThanOrEqual(1);
    const restarted = await lastReading(stack, id);
    // The new process's counters are all new; the old one's are counted once.
    expect((await trafficOf(stack, id)).outBytes).toBe(before.outBytes + Number(restarted.netout));
    expect(Number(restarted.netout)).toBeGreaterThanOrEqual(sinceStart.netout);

    const from = (await stack.api.db.instance.findUniqueOrThrow({ where: { id } })).node as string;
    await runOperation(stack, id, 'migrate', { node: ['pve1', 'pve2', 'pve3'].find((n) => n !== from) as string });
    const beforeMigration = await trafficOf(stack, id);
    await samplingPass(stack);
    const migrated = await lastReading(stack, id);
    expect(migrated.node).not.toBe(from);
    expect((await trafficOf(stack, id)).outBytes).toBe(beforeMigration.outBytes + Number(migrated.netout));
  });

  it('counts each byte once when two passes run at the same time, and a pass run again adds only what moved since', async () => {
    const id = await runningServer(stack, { hostname: 'traffic-twice' });
    const { vmid } = (await guestOf(stack, id))!;
    await stack.sim.setGuestTraffic(vmid, { inBytesPerSecond: 0, outBytesPerSecond: 100_000 });
    await samplingPass(stack);
    await Promise.all([samplingPass(stack), samplingPass(stack), samplingPass(stack)]);
    await samplingPass(stack);
    const reading = await lastReading(stack, id);
    expect((await trafficOf(stack, id)).outBytes).toBe(Number(reading.netout));
  });

  it('sends 80% and 100% once, throttles at 100% so the counter grows at the throttle, and lifts it when the next period begins', async () => {
    const plan = await stack.api.request('POST', '/v1/admin/plans', {
      token: stack.api.adminToken,
      body: { name: 'metered-1', vcpus: 1, memoryMiB: 1024, diskGiB: 10, trafficAllowanceGiB: 1, trafficCounted: 'out', trafficOverage: 'throttle', throttleMbps: 10 },
    });
    expect(plan.status).toBe(201);
    expect(plan.body.data).toMatchObject({ trafficAllowanceGiB: 1, trafficCounted: 'out', trafficOverage: 'throttle', throttleMbps: 10, billingPeriod: 'calendar_month' });
    const receiver = await startReceiver();
    const hook = await stack.api.request('POST', '/v1/webhooks', {
      token: stack.customer.token,
      body: { url: receiver.url, eventTypes: ['instance.traffic_threshold', 'instance.throttled', 'instance.unthrottled'] },
    });
    expect(hook.status).toBe(201);
    const id = await runningServer(stack, { hostname: 'traffic-metered', planId: plan.body.data.id });
    const { vmid } = (await guestOf(stack, id))!;
    const demand = 20_000_000;
    await stack.sim.setGuestTraffic(vmid, { inBytesPerSecond: 0, outBytesPerSecond: demand });
    await samplingPass(stack);
    // Up 44 s at the rate: 880 MB sent, past 80% of 1 GiB and short of 100%.
    await stack.sim.setGuestUptime(vmid, 44);
    await samplingPass(stack);
    const events = async (type: string) =>
      (await stack.api.request('GET', `/v1/events?instanceId=${id}&type=${type}`, { token: stack.customer.token })).body.data as { data: { traffic: { threshold?: number; percent: number } } }[];
    expect((await events('instance.traffic_threshold')).map((e) => e.data.traffic.threshold)).toEqual([80]);
    expect(await events('instance.throttled')).toEqual([]);

    await stack.sim.setGuestUptime(vmid, 60);
    const crossed = await samplingPass(stack);
    expect(crossed.throttles).toEqual({ [id]: 'requested' });
    // The throttle is the server's own operation, by the system: a task with its step thread the customer reads.
    const throttle = await rateTask(stack, id, 'NIC_THROTTLE');
    expect(throttle).toMatchObject({ status: 'succeeded', type: 'NIC_THROTTLE' });
    expect(throttle.steps.map((step: { step: string }) => step.step)).toEqual(['throttle > accepted', 'throttle > reading the config', 'throttle > reading the config', 'throttle > writing the rate', 'throttle > writing the rate', 'throttle > checking the rate', 'throttle > done']);
    expect(throttle.steps.find((step: { step: string; status: string }) => step.step === 'throttle > reading the config' && step.status === 'success').message).toBe('net0: no rate limit');
    const calls = await stack.api.db.providerCall.findMany({ where: { taskId: throttle.id } });
    expect(calls.map((call) => [call.kind, call.status])).toEqual([['nic-rate', 'succeeded']]);
    expect((await stack.api.db.auditEvent.findFirstOrThrow({ where: { instanceId: id, action: 'instance.throttle' } })).actorUserId).toBeNull();
    await samplingPass(stack);
    const thresholds = await events('instance.traffic_threshold');
    expect(thresholds.map((e) => e.data.traffic.threshold).sort()).toEqual([100, 80]);
    expect(thresholds.find((e) => e.data.traffic.threshold === 100)!.data.traffic.percent).toBeGreaterThanOrEqual(100);
    const throttledEvents = await events('instance.throttled');
    expect(throttledEvents).toHaveLength(1);
    expect(throttledEvents[0]!.data).toMatchObject({ operation: 'throttle', status: 'running', traffic: { throttleMbps: 10, allowanceBytes: GiB } });
    const audited = await stack.api.db.auditEvent.findMany({ where: { instanceId: id, action: 'instance.throttled' } });
    expect(audited).toHaveLength(1);

    // The NIC holds 10 Mbit/s: Proxmox's rate is in megabytes per second.
    const net0 = () => stack.sim.state().then((s) => String(s.guests.find((g) => g.vmid === vmid)!.config.net0));
    expect(await net0()).toContain(`rate=${nicRateForMbps(10)}`);
    const report = await trafficOf(stack, id);
    expect(report).toMatchObject({ percent: expect.any(Number), throttle: { mbps: 10, since: expect.any(String) } });
    expect(report.percent).toBeGreaterThanOrEqual(100);
    const cap = nicRateForMbps(10) * MiB;
    const a = await liveCounters(id);
    const t0 = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const b = await liveCounters(id);
    // It still asks for 20 MB/s, and gets the throttle's share.
    expect(b.netout - a.netout).toBeLessThanOrEqual(cap * ((Date.now() - t0) / 1000 + 0.5));

    // The period ends: the next pass removes the rate and says so.
    await stack.api.db.instance.update({ where: { id }, data: { throttleUntil: new Date(Date.now() - 1_000) } });
    const next = await samplingPass(stack);
    expect(next.throttles[id]).toBe('requested');
    expect((await rateTask(stack, id, 'NIC_UNTHROTTLE')).steps.at(-1)).toMatchObject({ step: 'unthrottle > done', status: 'success' });
    expect(await net0()).not.toContain('rate=');
    expect(await events('instance.unthrottled')).toHaveLength(1);
    expect((await trafficOf(stack, id)).throttle).toBeNull();
    const c = await liveCounters(id);
    const t1 = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await liveCounters(id)).netout - c.netout).toBeGreaterThan(cap * ((Date.now() - t1) / 1000 + 0.5));

    // Each event reached the billing system's receiver once, with its figures.
    const hooked = () => receiver.received.filter((r) => r.json.instanceId === id);
    await receiver.waitFor(() => hooked().length >= 4, 'the traffic events delivered');
    const delivered = hooked().map((r) => `${r.json.type}${(r.json.data.traffic as { threshold?: number } | undefined)?.threshold ?? ''}`);
    expect(delivered).toEqual(['instance.traffic_threshold80', 'instance.traffic_threshold100', 'instance.throttled', 'instance.unthrottled']);
    await receiver.close();
  });

  it('throttles a server busy with another operation once it is free, puts back a throttle removed outside, and lets an operator lift one or add allowance, audited', async () => {
    const plan = await stack.api.request('POST', '/v1/admin/plans', {
      token: stack.api.adminToken,
      body: { name: 'metered-2', vcpus: 1, memoryMiB: 1024, diskGiB: 10, trafficAllowanceGiB: 1, trafficCounted: 'max', trafficOverage: 'throttle', throttleMbps: 8 },
    });
    const id = await runningServer(stack, { hostname: 'traffic-operator', planId: plan.body.data.id });
    const { vmid, node } = (await guestOf(stack, id))!;
    await stack.sim.setGuestTraffic(vmid, { inBytesPerSecond: 40_000_000, outBytesPerSecond: 0 });
    await stack.sim.setGuestUptime(vmid, 30);
    // The customer reboots it slowly just as it crosses its allowance: the throttle waits for the reboot.
    await setTaskMs(stack, 2_000);
    const reboot = await operate(stack, id, 'reboot');
    expect(reboot.status).toBe(202);
    expect((await samplingPass(stack)).throttles[id]).toBe('requested');
    await setTaskMs(stack, 0);
    const rebooted = await taskEnd(stack, reboot.body.meta.taskId);
    const waited = await rateTask(stack, id, 'NIC_THROTTLE');
    expect([rebooted.status, waited.status]).toEqual(['succeeded', 'succeeded']);
    expect(Date.parse(waited.steps[0].at)).toBeGreaterThanOrEqual(Date.parse(rebooted.steps.at(-1)!.at));
    const net0 = () => stack.sim.state().then((s) => String(s.guests.find((g) => g.vmid === vmid)!.config.net0));
    expect(await net0()).toContain(`rate=${nicRateForMbps(8)}`);

    // Someone takes the rate off in Proxmox: the reconciler puts it back.
    outside ??= new ProxmoxClient({ baseUrl: stack.sim.url, tokenId, tokenSecret: secret, plaintextLab: true });
    const config = await outside.guestConfig.get(node, vmid);
    await outside.guestConfig.setSync(node, vmid, { net0: String(config.net0).replace(/,rate=[0-9.]+/, '') });
    expect(await net0()).not.toContain('rate=');
    await reconcilePass(stack);
    // This pass or the scheduled one that ran first: put back once.
    await expect.poll(() => stack.api.db.auditEvent.count({ where: { instanceId: id, action: 'instance.throttle_restored' } })).toBe(1);
    expect(await net0()).toContain(`rate=${nicRateForMbps(8)}`);

    const customerTry = await stack.api.request('POST', `/v1/admin/instances/${id}/traffic/lift`, { token: stack.customer.token });
    expect(customerTry.status).toBe(403);
    const added = await stack.api.request('POST', `/v1/admin/instances/${id}/traffic/allowance`, { token: stack.api.adminToken, body: { addGiB: 100 } });
    expect(added.status).toBe(200);
    expect(added.body.data).toMatchObject({ extraAllowanceGiB: 100, allowanceBytes: 101 * GiB, throttle: null });
    // The operator's change is the server's unthrottle operation, theirs in the audit trail.
    const freed = await rateTask(stack, id, 'NIC_UNTHROTTLE');
    expect(freed.status).toBe('succeeded');
    expect(await net0()).not.toContain('rate=');
    const operatorId = (await stack.api.db.auditEvent.findFirstOrThrow({ where: { instanceId: id, action: 'instance.traffic_allowance_added' } })).actorUserId;
    expect((await stack.api.db.auditEvent.findFirstOrThrow({ where: { instanceId: id, action: 'instance.unthrottle' } })).actorUserId).toBe(operatorId);
    const actions = (await stack.api.db.auditEvent.findMany({ where: { instanceId: id }, orderBy: { at: 'asc' } })).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['instance.throttled', 'instance.throttle_restored', 'instance.traffic_allowance_added', 'instance.unthrottled']));

    const lifted = await stack.api.request('POST', `/v1/admin/instances/${id}/traffic/lift`, { token: stack.api.adminToken });
    expect(lifted.status).toBe(200);
    expect(lifted.body.data.liftedAt).toEqual(expect.any(String));
    const invalid = await stack.api.request('POST', `/v1/admin/instances/${id}/traffic/allowance`, { token: stack.api.adminToken, body: { addGiB: -1 } });
    expect(invalid.status).toBe(400);
    expect((await stack.api.request('GET', `/v1/instances/${id}/traffic?period=2026-13`, { token: stack.customer.token })).status).toBe(400);
  });

  it('removes the rate of a throttle lifted while Temporal could not be reached, by the reconciler, and leaves a rate set by hand alone', async () => {
    const plan = await stack.api.request('POST', '/v1/admin/plans', {
      token: stack.api.adminToken,
      body: { name: 'metered-3', vcpus: 1, memoryMiB: 1024, diskGiB: 10, trafficAllowanceGiB: 1, trafficCounted: 'out', trafficOverage: 'throttle', throttleMbps: 6 },
    });
    const id = await runningServer(stack, { hostname: 'traffic-lost-start', planId: plan.body.data.id });
    const { vmid, node } = (await guestOf(stack, id))!;
    await stack.sim.setGuestTraffic(vmid, { inBytesPerSecond: 0, outBytesPerSecond: 40_000_000 });
    await stack.sim.setGuestUptime(vmid, 30);
    expect((await samplingPass(stack)).throttles[id]).toBe('requested');
    expect((await rateTask(stack, id, 'NIC_THROTTLE')).status).toBe('succeeded');
    const net0 = () => stack.sim.state().then((s) => String(s.guests.find((g) => g.vmid === vmid)!.config.net0));
    expect(await net0()).toContain(`rate=${nicRateForMbps(6)}`);
    const throttleOf = () => stack.api.db.instance.findUniqueOrThrow({ where: { id }, select: { throttleMbps: true, appliedThrottleMbps: true } });
    expect(await throttleOf()).toEqual({ throttleMbps: 6, appliedThrottleMbps: 6 });

    // The lift commits, then the API cannot start the workflow that asks for the unthrottle.
    const { workflow } = stack.api.temporal;
    const start = workflow.start.bind(workflow);
    const unreachable = vi.spyOn(workflow, 'start').mockImplementation(((type: string, options: never) => (type === 'ApplyThrottle' ? Promise.reject(new Error('Temporal is unreachable')) : start(type, options))) as never);
    const lifted = await stack.api.request('POST', `/v1/admin/instances/${id}/traffic/lift`, { token: stack.api.adminToken }).finally(() => unreachable.mockRestore());
    expect(lifted.status).toBe(200);
    expect(lifted.body.data.throttle).toBeNull();
    expect(await net0()).toContain(`rate=${nicRateForMbps(6)}`);
    expect(await throttleOf()).toEqual({ throttleMbps: null, appliedThrottleMbps: 6 });

    // The reconciler sees the NICs hold a throttle no longer asked for and asks for the unthrottle, as the system.
    await reconcilePass(stack);
    const freed = await rateTask(stack, id, 'NIC_UNTHROTTLE');
    expect(freed.status).toBe('succeeded');
    expect(await net0()).not.toContain('rate=');
    expect(await throttleOf()).toEqual({ throttleMbps: null, appliedThrottleMbps: null });
    expect((await stack.api.db.auditEvent.findFirstOrThrow({ where: { instanceId: id, action: 'instance.unthrottle' } })).actorUserId).toBeNull();
    const unthrottledEvents = await stack.api.request('GET', `/v1/events?instanceId=${id}&type=instance.unthrottled`, { token: stack.customer.token });
    expect(unthrottledEvents.body.data).toHaveLength(1);

    // A rate an operator sets by hand afterwards is not a throttle's: the reconciler leaves it.
    outside ??= new ProxmoxClient({ baseUrl: stack.sim.url, tokenId, tokenSecret: secret, plaintextLab: true });
    await outside.guestConfig.setSync(node, vmid, { net0: `${await net0()},rate=3` });
    expect((await reconcilePass(stack)).throttles).toEqual({ restored: 0, requested: 0 });
    expect(await net0()).toContain('rate=3');
    expect(await stack.api.db.task.count({ where: { instanceId: id, type: 'NIC_UNTHROTTLE' } })).toBe(1);
  });

  it('exports usage records that add up to the server’s life, split at a resize, the same in JSON and CSV', async () => {
    const id = await runningServer(stack, { hostname: 'traffic-usage' });
    await samplingPass(stack);
    await runOperation(stack, id, 'stop');
    await runOperation(stack, id, 'resize', { planId: stack.seed.plans.medium as string });
    await runOperation(stack, id, 'start');
    await samplingPass(stack);
    await runOperation(stack, id, 'delete');
    const row = await stack.api.db.instance.findUniqueOrThrow({ where: { id } });
    const change = await stack.api.db.planChange.findFirstOrThrow({ where: { instanceId: id } });
    const hour = 3_600_000;
    const from = new Date(Math.floor(row.createdAt.getTime() / hour) * hour).toISOString();
    const to = new Date((Math.floor(Date.now() / hour) + 1) * hour).toISOString();

    const pages: { instanceId: string; seconds: number; planId: string; hour: string; part: number }[][] = [];
    let cursor: string | undefined;
    do {
      const page = await stack.api.request('GET', `/v1/admin/usage?from=${from}&to=${to}&tenantId=${row.tenantId}&limit=1${cursor ? `&cursor=${cursor}` : ''}`, { token: stack.api.adminToken });
      expect(page.status).toBe(200);
      pages.push(page.body.data);
      cursor = page.body.meta.nextCursor;
    } while (cursor);
    const json = pages.flat();
    const mine = json.filter((r) => r.instanceId === id);
    const life = Math.floor((row.deletedAt as Date).getTime() / 1000) - Math.floor(row.createdAt.getTime() / 1000);
    expect(mine.reduce((sum, r) => sum + r.seconds, 0)).toBe(life);
    // Small until the resize, medium after: the hour of the resize in two parts.
    const plans = mine.map((r) => r.planId);
    expect(plans[0]).toBe(stack.seed.plans.small);
    expect(plans.at(-1)).toBe(stack.seed.plans.medium);
    const split = mine.filter((r) => r.hour === new Date(Math.floor(change.changedAt.getTime() / hour) * hour).toISOString());
    expect(split.map((r) => [r.part, r.planId])).toEqual([
      [0, stack.seed.plans.small],
      [1, stack.seed.plans.medium],
    ]);

    const csv = await fetch(`${stack.api.baseUrl}/v1/admin/usage?from=${from}&to=${to}&tenantId=${row.tenantId}`, { headers: { authorization: `Bearer ${stack.api.adminToken}`, accept: 'text/csv' } });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header, ...lines] = (await csv.text()).trimEnd().split('\n');
    const columns = (header as string).split(',');
    const parsed = lines.map((line) => Object.fromEntries(line.split(',').map((value, i) => [columns[i], value])));
    // The same records: this server's, whose life is over (the tenant's running servers' open hours grow between the two reads).
    expect(parsed.filter((r) => r.instanceId === id)).toEqual(mine.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, String(v)]))));

    // A tenant reads its own records only.
    const own = await stack.api.request('GET', `/v1/usage?from=${from}&to=${to}`, { token: stack.customer.token });
    expect(own.status).toBe(200);
    expect(own.body.data.every((r: { tenantId: string }) => r.tenantId === stack.customer.tenantId)).toBe(true);
    expect((await stack.api.request('GET', `/v1/usage?from=${from}&to=${to}&tenantId=other`, { token: stack.customer.token })).status).toBe(400);
    expect((await stack.api.request('GET', `/v1/usage?from=2026-01-01T00:30:00Z&to=${to}`, { token: stack.customer.token })).status).toBe(400);
  });
});

describe('a sampling pass whose worker is killed', () => {
  const stack = suiteStack({ env, worker: false });

  it('leaves the totals as they were: the pass taken up again counts each byte once', async () => {
    const first = stack.spawnWorkerProcess();
    const id = (await stack.create({ hostname: 'traffic-crash' })).body.data.id;
    await stack.waitForStatus(id, ['running'], 60_000);
    const { vmid } = (await guestOf(stack, id))!;
    await stack.sim.setGuestTraffic(vmid, { inBytesPerSecond: 0, outBytesPerSecond: 250_000 });
    await samplingPass(stack);

    // The next pass's listing is answered late; the worker dies while it waits.
    await stack.sim.fault({ op: 'any', call: 'GET /cluster/resources', mode: 'delay', delayMs: 3_000, count: 1 });
    const listings = (await stack.sim.state()).calls['GET /cluster/resources'] ?? 0;
    const pass = samplingPass(stack);
    await expect.poll(async () => (await stack.sim.state()).calls['GET /cluster/resources'] ?? 0, { timeout: 30_000, interval: 25 }).toBeGreaterThan(listings);
    await first.kill();
    await stack.startWorker();
    await pass;
    await samplingPass(stack);
    const reading = await lastReading(stack, id);
    expect((await trafficOf(stack, id)).outBytes).toBe(Number(reading.netout));
  });
});
