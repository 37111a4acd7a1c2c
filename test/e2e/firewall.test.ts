/**
 * Customer firewall rules end to end: a server's inbound rules open and close ports as the
 * simulator's packet oracle (deciding like pve-firewall) shows; Proxmox holds exactly the rules
 * asked for, in order; two editors cannot overwrite each other (If-Match); bad rules and other
 * tenants' servers are refused before anything is written; a worker killed mid-apply leaves the
 * rules exactly as asked.
 */
import { describe, expect, it } from 'vitest';
import { callCount, runningServer, suiteStack, taskEnd } from '../support/lifecycle';
import { brief, firewallOn, heldRules, inbound, pve } from '../support/firewall';
import type { Stack } from '../support/stack';
import { reconcileScheduleId } from '../../src/temporal/workflow-ids';

const RULES_CALL = 'POST /nodes/{node}/qemu/{vmid}/firewall/rules';

export const putFirewall = (stack: Stack, id: string, body: unknown, headers: Record<string, string> = {}, token = stack.customer.token) =>
  stack.api.request('PUT', `/v1/instances/${id}/firewall`, { token, body, headers });
export const getFirewall = (stack: Stack, id: string, token = stack.customer.token) => stack.api.request('GET', `/v1/instances/${id}/firewall`, { token });

describe('customer firewall rules', () => {
  const stack = suiteStack();

  it('open and close ports as the oracle shows, in the order asked, with nothing else written', { timeout: 120_000 }, async () => {
    const id = await runningServer(stack, { hostname: 'fw-web' });
    const nic = await firewallOn(stack, id);

    const fresh = await getFirewall(stack, id);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('etag')).toBe('"0"');
    expect(fresh.body.data).toMatchObject({ inboundPolicy: 'accept', outboundPolicy: 'accept', rules: [], application: { state: 'applied' } });

    const put = await putFirewall(
      stack,
      id,
      {
        inboundPolicy: 'drop',
        rules: [
          { action: 'accept', protocol: 'tcp', port: '443', comment: 'https' },
          { action: 'accept', protocol: 'tcp', port: '22', sources: ['198.51.100.0/24', '2001:db8::/32'], comment: 'ssh from the office' },
          { action: 'accept', protocol: 'icmp' },
        ],
      },
      { 'If-Match': '"0"' },
    );
    expect(put.status).toBe(202);
    expect(put.headers.get('etag')).toBe('"1"');
    expect(put.body.data.application.state).toBe('pending');
    const task = await taskEnd(stack, put.body.meta.taskId);
    expect(task).toMatchObject({ type: 'FIREWALL_APPLY', status: 'succeeded' });
    expect(task.steps.map((s: { step: string; status: string }) => `${s.step}: ${s.status}`)).toContain('firewall > writing the rules: success');

    expect(brief(await heldRules(stack, nic))).toEqual([
      'in ACCEPT tcp 443 * pvecp: https 1',
      'in ACCEPT tcp 22 198.51.100.0/24 pvecp: ssh from the office 1',
      'in ACCEPT tcp 22 2001:db8::/32 pvecp: ssh from the office 1',
      'in ACCEPT icmp * * pvecp: 1',
      'in ACCEPT ipv6-icmp * * pvecp: 1',
    ]);
    expect(await pve(stack, 'GET', `/nodes/${nic.node}/qemu/${nic.vmid}/firewall/options`)).toMatchObject({ enable: 1, policy_in: 'DROP', policy_out: 'ACCEPT' });

    expect(await inbound(stack, nic, { source: '203.0.113.9', protocol: 'tcp', dport: 443 })).toBe('ACCEPT');
    expect(await inbound(stack, nic, { source: '203.0.113.9', protocol: 'tcp', dport: 22 })).toBe('DROP');
    expect(await inbound(stack, nic, { source: '198.51.100.7', protocol: 'tcp', dport: 22 })).toBe('ACCEPT');
    expect(await inbound(stack, nic, { source: '203.0.113.9', protocol: 'tcp', dport: 8080 })).toBe('DROP');

    const read = await getFirewall(stack, id);
    expect(read.headers.get('etag')).toBe('"1"');
    expect(read.body.data).toMatchObject({ inboundPolicy: 'drop', revision: '1', application: { state: 'applied', taskId: task.id, taskStatus: 'succeeded' } });
    expect(read.body.data.rules[1]).toEqual({ action: 'accept', protocol: 'tcp', port: '22', sources: ['198.51.100.0/24', '2001:db8::/32'], comment: 'ssh from the office' });

    // Closing 443 and opening a range, reordered: the guest holds the new list exactly.
    const second = await putFirewall(
      stack,
      id,
      {
        inboundPolicy: 'drop',
        rules: [
          { action: 'accept', protocol: 'icmp' },
          { action: 'drop', protocol: 'tcp', port: '8050', comment: 'not this one' },
          { action: 'accept', protocol: 'tcp', port: '8000-8100' },
        ],
      },
      { 'If-Match': read.headers.get('etag')! },
    );
    expect(second.status).toBe(202);
    expect((await taskEnd(stack, second.body.meta.taskId)).status).toBe('succeeded');
    expect(brief(await heldRules(stack, nic))).toEqual([
      'in ACCEPT icmp * * pvecp: 1',
      'in ACCEPT ipv6-icmp * * pvecp: 1',
      'in DROP tcp 8050 * pvecp: not this one 1',
      'in ACCEPT tcp 8000:8100 * pvecp: 1',
    ]);
    expect(await inbound(stack, nic, { source: '203.0.113.9', protocol: 'tcp', dport: 443 })).toBe('DROP');
    expect(await inbound(stack, nic, { source: '203.0.113.9', protocol: 'tcp', dport: 8080 })).toBe('ACCEPT');
    expect(await inbound(stack, nic, { source: '203.0.113.9', protocol: 'tcp', dport: 8050 })).toBe('DROP');

    const events = await stack.api.db.instanceEvent.findMany({ where: { instanceId: id }, orderBy: { seq: 'asc' } });
    expect(events.map((e) => e.type).filter((t) => t.includes('firewall'))).toEqual(['instance.updating_firewall', 'instance.firewall_updated', 'instance.updating_firewall', 'instance.firewall_updated']);
    expect((await stack.client.GET('/v1/instances/{id}', { params: { path: { id } } })).data?.data.status).toBe('running');
  });

  it('keeps the rules on a rebuilt server: the new guest gets them too', { timeout: 120_000 }, async () => {
    const id = await runningServer(stack, { hostname: 'fw-rebuild' });
    const nic = await firewallOn(stack, id);
    const put = await putFirewall(stack, id, { inboundPolicy: 'drop', rules: [{ action: 'accept', protocol: 'tcp', port: '443' }] });
    await taskEnd(stack, put.body.meta.taskId);
    const asked = brief(await heldRules(stack, nic));
    const rebuilt = await stack.api.request('POST', `/v1/instances/${id}/rebuild`, { token: stack.customer.token, body: {} });
    expect(rebuilt.status).toBe(202);
    const task = await taskEnd(stack, rebuilt.body.meta.taskId, 90_000);
    expect(task.status).toBe('succeeded');
    expect(task.steps.map((s: { step: string; status: string }) => `${s.step}: ${s.status}`)).toContain('firewall > writing the rules: success');
    expect(brief(await heldRules(stack, nic))).toEqual(asked);
    expect(await pve(stack, 'GET', `/nodes/${nic.node}/qemu/${nic.vmid}/firewall/options`)).toMatchObject({ enable: 1, policy_in: 'DROP' });
  });

  it('refuses a change made on a stale ETag with 412, writing nothing', { timeout: 90_000 }, async () => {
    const id = await runningServer(stack, { hostname: 'fw-editors' });
    const first = await putFirewall(stack, id, { inboundPolicy: 'accept', rules: [{ action: 'drop', protocol: 'udp', port: '53' }] }, { 'If-Match': '"0"' });
    expect(first.status).toBe(202);
    await taskEnd(stack, first.body.meta.taskId);
    const calls = await callCount(stack, RULES_CALL);

    const stale = await putFirewall(stack, id, { inboundPolicy: 'drop', rules: [] }, { 'If-Match': '"0"' });
    expect(stale.status).toBe(412);
    expect(stale.body.error).toMatchObject({ code: 'PRECONDITION_FAILED', details: { etag: '"1"' } });
    expect((await getFirewall(stack, id)).body.data).toMatchObject({ inboundPolicy: 'accept', revision: '1' });
    expect(await callCount(stack, RULES_CALL)).toBe(calls);
    expect(await stack.api.db.task.count({ where: { instanceId: id, type: 'FIREWALL_APPLY' } })).toBe(1);
  });

  it('refuses bad rules with 400 or 422 naming the field, before anything is written', { timeout: 90_000 }, async () => {
    const id = await runningServer(stack, { hostname: 'fw-bad' });
    const calls = await callCount(stack, RULES_CALL);
    const refused = async (rules: unknown[], status: number, code: string, field?: string) => {
      const res = await putFirewall(stack, id, { inboundPolicy: 'drop', rules });
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.error.code).toBe(code);
      if (field) expect(Object.keys(res.body.error.details.fields)).toContain(field);
    };
    await refused([{ action: 'accept', protocol: 'tcp', port: '70000' }], 400, 'INVALID_INPUT', 'rules.0.port');
    await refused([{ action: 'accept', protocol: 'tcp', port: '443' }, { action: 'accept', protocol: 'tcp', sources: ['10.0.0.300/8'] }], 400, 'INVALID_INPUT', 'rules.1.sources.0');
    await refused([{ action: 'accept', protocol: 'tcp', sources: ['10.0.0.1/8'] }], 400, 'INVALID_INPUT', 'rules.0.sources.0');
    await refused([{ action: 'accept', protocol: 'icmp', port: '80' }], 400, 'INVALID_INPUT', 'rules.0.port');
    await refused([{ action: 'allow', protocol: 'tcp' }], 400, 'INVALID_INPUT', 'rules.0.action');
    await refused([{ group: 'fwg_nope' }], 400, 'INVALID_INPUT', 'rules.0.group');
    await refused(Array.from({ length: 65 }, () => ({ action: 'accept', protocol: 'tcp', port: '80' })), 400, 'INVALID_INPUT', 'rules');

    expect(await callCount(stack, RULES_CALL)).toBe(calls);
    expect(await stack.api.db.instanceFirewall.findUnique({ where: { instanceId: id } })).toBeNull();
    expect(await stack.api.db.task.count({ where: { instanceId: id, type: 'FIREWALL_APPLY' } })).toBe(0);
  });

  it("answers 404 for another tenant's server, reading or writing", { timeout: 90_000 }, async () => {
    const id = await runningServer(stack, { hostname: 'fw-private' });
    const other = await stack.api.createCustomer();
    expect((await getFirewall(stack, id, other.token)).status).toBe(404);
    const put = await putFirewall(stack, id, { inboundPolicy: 'drop', rules: [] }, {}, other.token);
    expect(put.status).toBe(404);
    expect(await stack.api.db.instanceFirewall.findUnique({ where: { instanceId: id } })).toBeNull();
  });
});

describe('customer firewall rules when the worker dies mid-apply', () => {
  const stack = suiteStack({ worker: false });

  it('leaves the rules exactly as asked, none duplicated', { timeout: 180_000 }, async () => {
    let worker = stack.spawnWorkerProcess();
    const id = await runningServer(stack, { hostname: 'fw-crash' }, 60_000);
    const nic = await firewallOn(stack, id);
    const before = await callCount(stack, RULES_CALL);
    // The third rule written is answered late: the worker dies while it waits, the write done.
    await stack.sim.fault({ op: 'any', mode: 'delay', delayMs: 4000, call: RULES_CALL, skip: 2 });
    const rules = Array.from({ length: 6 }, (_, i) => ({ action: 'accept', protocol: 'tcp', port: String(1000 + i), comment: `r${i}` }));
    const put = await putFirewall(stack, id, { inboundPolicy: 'drop', rules });
    expect(put.status).toBe(202);
    await expect.poll(() => callCount(stack, RULES_CALL), { timeout: 60_000, interval: 25 }).toBeGreaterThanOrEqual(before + 3);
    await worker.kill();
    worker = stack.spawnWorkerProcess();
    expect((await taskEnd(stack, put.body.meta.taskId, 120_000)).status).toBe('succeeded');
    expect(brief(await heldRules(stack, nic))).toEqual(rules.map((r) => `in ACCEPT tcp ${r.port} * pvecp: ${r.comment} 1`));
    expect(await inbound(stack, nic, { source: '203.0.113.9', protocol: 'tcp', dport: 1003 })).toBe('ACCEPT');
    expect(await inbound(stack, nic, { source: '203.0.113.9', protocol: 'tcp', dport: 999 })).toBe('DROP');
    await worker.kill();
  });
});

describe('customer firewall rules changed behind our back', () => {
  const stack = suiteStack({ env: { RECONCILE_INTERVAL_SECONDS: '1' } });
  const schedule = () => stack.api.temporal.schedule.getHandle(reconcileScheduleId(stack.seed.connectionId));
  /** Waits until the schedule has started `runs` more reconciles and the last of them has finished. */
  const afterReconcileRuns = async (runs: number) => {
    const before = (await schedule().describe()).info.numActionsTaken;
    await expect.poll(async () => (await schedule().describe()).info.numActionsTaken, { timeout: 60_000, interval: 100 }).toBeGreaterThanOrEqual(before + runs);
    const last = (await schedule().describe()).info.recentActions.at(-1);
    if (last) await stack.api.temporal.workflow.getHandle(last.action.workflow.workflowId, last.action.workflow.firstExecutionRunId).result();
  };

  it('are restored within two reconcile periods: a rule deleted by hand, one added among ours, the policy opened', { timeout: 180_000 }, async () => {
    const id = await runningServer(stack, { hostname: 'fw-drift' }, 60_000);
    const nic = await firewallOn(stack, id);
    const put = await putFirewall(stack, id, {
      inboundPolicy: 'drop',
      rules: [
        { action: 'accept', protocol: 'tcp', port: '443' },
        { action: 'accept', protocol: 'tcp', port: '22', sources: ['198.51.100.0/24'] },
      ],
    });
    await taskEnd(stack, put.body.meta.taskId);
    const asked = brief(await heldRules(stack, nic));

    const fw = `/nodes/${nic.node}/qemu/${nic.vmid}/firewall`;
    const digest = (await heldRules(stack, nic)) as unknown as { digest: string }[];
    await pve(stack, 'DELETE', `${fw}/rules/0`, { digest: digest[0]!.digest });
    await pve(stack, 'POST', `${fw}/rules`, { type: 'in', action: 'ACCEPT', proto: 'tcp', dport: '3306', comment: 'pvecp: sneaky', enable: '1' });
    await pve(stack, 'PUT', `${fw}/options`, { policy_in: 'ACCEPT' });
    expect(await inbound(stack, nic, { source: '203.0.113.9', protocol: 'tcp', dport: 3306 })).toBe('ACCEPT');
    expect(await inbound(stack, nic, { source: '203.0.113.9', protocol: 'tcp', dport: 443 })).toBe('ACCEPT');

    await afterReconcileRuns(2);
    expect(brief(await heldRules(stack, nic))).toEqual(asked);
    expect(await pve(stack, 'GET', `${fw}/options`)).toMatchObject({ policy_in: 'DROP' });
    expect(await inbound(stack, nic, { source: '203.0.113.9', protocol: 'tcp', dport: 3306 })).toBe('DROP');
    expect(await inbound(stack, nic, { source: '203.0.113.9', protocol: 'tcp', dport: 443 })).toBe('ACCEPT');

    const events = await stack.api.db.instanceEvent.findMany({ where: { instanceId: id, type: 'instance.firewall_restored' } });
    expect(events).toHaveLength(1);
    const audit = await stack.api.db.auditEvent.findFirstOrThrow({ where: { instanceId: id, action: 'instance.firewall_restored' } });
    const details = audit.details as { before: { rules: { dport?: string }[]; policyIn: string }; after: { rules: { dport?: string }[]; policyIn: string } };
    expect(details.before.rules.map((r) => r.dport)).toEqual(['3306', '22']);
    expect(details.before.policyIn).toBe('ACCEPT');
    expect(details.after.rules.map((r) => r.dport)).toEqual(['443', '22']);
    expect(details.after.policyIn).toBe('DROP');
    const reconcileTask = await stack.api.db.task.findFirstOrThrow({ where: { instanceId: id, type: 'INSTANCE_RECONCILE' }, include: { steps: true } });
    expect(reconcileTask.steps.map((s) => s.step)).toEqual(['reconcile > firewall restored']);

    // Nothing more to restore on the next passes.
    await afterReconcileRuns(2);
    expect(await stack.api.db.instanceEvent.count({ where: { instanceId: id, type: 'instance.firewall_restored' } })).toBe(1);
  });
});
