/**
 * Anti-spoofing on the real stack: every server's firewall holds exactly its own addresses, the
 * packet oracle (pve-firewall's chains) drops what a server sends with a neighbour's address or
 * MAC and passes its own, rebuilds keep and restores as a new server renew the set, a worker that
 * dies mid-write leaves it exact, and the reconciler writes back what was changed behind our back
 * (and brings servers built before anti-spoofing to it, once).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProxmoxClient } from '../../src/proxmox';
import { DEFAULT_SIM_TOKEN, parseToken } from '../../src/simulator/server';
import { reconcileScheduleId } from '../../src/temporal/workflow-ids';
import { runOperation, suiteStack, taskEnd } from '../support/lifecycle';
import type { Stack, WorkerProcess } from '../support/stack';

const IPSET = 'ipfilter-net0';

interface Server {
  id: string;
  node: string;
  vmid: number;
  mac: string;
  ipv4: string;
  ipv6: string;
}

async function serverOf(stack: Stack, id: string): Promise<Server> {
  const row = await stack.api.db.instance.findUniqueOrThrow({ where: { id }, include: { addresses: true } });
  const address = (family: number) => row.addresses.find((a) => a.family === family)?.address as string;
  return { id, node: row.node as string, vmid: row.vmid as number, mac: row.macAddress as string, ipv4: address(4), ipv6: address(6) };
}

/** What the packet oracle says of one packet `from` sends. */
async function verdictOf(stack: Stack, from: Server, packet: { source: string; sourceMac?: string }): Promise<string> {
  const res = await fetch(`${stack.sim.url}/_sim/firewall/packet`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ vmid: from.vmid, direction: 'out', protocol: 'tcp', dport: 443, dest: packet.source.includes(':') ? '2001:db8:ffff::1' : '203.0.113.1', ...packet }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { verdict: string }).verdict;
}

describe('anti-spoofing: no server can take another’s address', () => {
  // Budgets long enough for a worker process to start in place of one killed mid-stage.
  const stack = suiteStack({ worker: false, env: { RECONCILE_INTERVAL_SECONDS: '1', FIREWALL_CHECKS_PER_PASS: '100', STAGE_TIMEOUT_SCALE: '0.5' } });
  let worker: WorkerProcess;
  /** Proxmox's own API as an operator (root) uses it outside this service. */
  let root: ProxmoxClient;
  beforeAll(async () => {
    worker = stack.spawnWorkerProcess();
    const { tokenId, secret } = parseToken(DEFAULT_SIM_TOKEN);
    root = new ProxmoxClient({ baseUrl: stack.sim.url, tokenId, tokenSecret: secret, plaintextLab: true });
    // The operator's switch; this service never turns it on.
    await root.http.request('PUT', '/cluster/firewall/options', {}, { enable: 1 });
  });
  afterAll(() => root?.close());

  const running = async (hostname: string) => {
    const created = await stack.create({ hostname });
    const ready = await stack.waitForStatus(created.body.data.id, ['running', 'failed', 'rollback_failed'], 120_000);
    expect(ready.status).toBe('running');
    return serverOf(stack, created.body.data.id);
  };
  const firewallOf = async (server: Server) => ({
    options: await root.firewall.guestOptions(server.node, server.vmid),
    entries: (await root.firewall.ipsetEntries(server.node, server.vmid, IPSET))?.map((e) => e.cidr).sort() ?? null,
    net0: (await root.guestConfig.get(server.node, server.vmid)).net0,
  });
  const schedule = () => stack.api.temporal.schedule.getHandle(reconcileScheduleId(stack.seed.connectionId));
  /** Waits until the schedule has started `runs` more reconciles and the last of them has finished. */
  const afterReconcileRuns = async (runs: number) => {
    const before = (await schedule().describe()).info.numActionsTaken;
    await expect.poll(async () => (await schedule().describe()).info.numActionsTaken, { timeout: 60_000, interval: 200 }).toBeGreaterThanOrEqual(before + runs);
    const last = (await schedule().describe()).info.recentActions.at(-1);
    if (last) await stack.api.temporal.workflow.getHandle(last.action.workflow.workflowId, last.action.workflow.firstExecutionRunId).result();
  };

  let a: Server;
  let b: Server;

  it('gives a provisioned server a firewall holding exactly its addresses, each write recorded as a provider call', { timeout: 180_000 }, async () => {
    a = await running('spoof-a');
    b = await running('spoof-b');
    expect(a.ipv6).toBeDefined();
    const fw = await firewallOf(a);
    expect(fw.options).toMatchObject({ enable: 1, ipfilter: 1, macfilter: 1, policy_in: 'ACCEPT' });
    expect(fw.entries).toEqual([a.ipv4, a.ipv6].sort());
    expect(fw.net0).toContain('firewall=1');
    const task = await stack.api.db.task.findFirstOrThrow({ where: { instanceId: a.id, type: 'INSTANCE_CREATE' } });
    const calls = await stack.api.db.providerCall.findMany({ where: { taskId: task.id, kind: { startsWith: 'firewall.' } } });
    expect(calls.map((c) => c.kind).sort()).toEqual(['firewall.ipset ipfilter-net0', `firewall.ipset+${a.ipv4}`, `firewall.ipset+${a.ipv6}`, 'firewall.options'].sort());
    expect(calls.every((c) => c.status === 'succeeded' && c.phase === 'network')).toBe(true);
  });

  it('drops what a server sends with a neighbour’s IPv4, IPv6 or MAC address, and passes what it sends with its own', async () => {
    expect(await verdictOf(stack, a, { source: a.ipv4 })).toBe('ACCEPT');
    expect(await verdictOf(stack, a, { source: a.ipv6 })).toBe('ACCEPT');
    expect(await verdictOf(stack, a, { source: b.ipv4 })).toBe('DROP');
    expect(await verdictOf(stack, a, { source: b.ipv6 })).toBe('DROP');
    expect(await verdictOf(stack, a, { source: a.ipv4, sourceMac: b.mac })).toBe('DROP');
    const arp = await fetch(`${stack.sim.url}/_sim/firewall/packet`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ vmid: a.vmid, direction: 'out', kind: 'arp', source: b.ipv4 }),
    });
    expect(((await arp.json()) as { verdict: string }).verdict).toBe('DROP');
  });

  it('writes back, within two reconcile passes, an IP filter switched off and an ipset entry added behind our back: an event, an audit row with before and after', { timeout: 120_000 }, async () => {
    await root.firewall.setGuestOptions(a.node, a.vmid, { ipfilter: 0 });
    await root.firewall.addIpsetEntry(a.node, a.vmid, IPSET, b.ipv4);
    expect(await verdictOf(stack, a, { source: b.ipv4 })).toBe('ACCEPT');

    await afterReconcileRuns(2);
    const fw = await firewallOf(a);
    expect(fw.options).toMatchObject({ enable: 1, ipfilter: 1, macfilter: 1 });
    expect(fw.entries).toEqual([a.ipv4, a.ipv6].sort());
    expect(await verdictOf(stack, a, { source: b.ipv4 })).toBe('DROP');
    const events = await stack.api.db.instanceEvent.findMany({ where: { instanceId: a.id, type: 'instance.firewall_restored' } });
    expect(events).toHaveLength(1);
    const audit = await stack.api.db.auditEvent.findFirstOrThrow({ where: { instanceId: a.id, action: 'instance.firewall_restored' } });
    expect(audit.details).toMatchObject({
      drifts: [{ check: 'anti-spoofing', before: { options: { ipfilter: 0 }, ipfilterNet0: [a.ipv4, b.ipv4, a.ipv6].sort() }, after: { options: { ipfilter: 1 }, ipfilterNet0: [a.ipv4, a.ipv6].sort() } }],
    });
    // Nothing had changed on the neighbour: nothing was written or said.
    expect(await stack.api.db.auditEvent.count({ where: { instanceId: b.id, action: { startsWith: 'instance.firewall_' } } })).toBe(0);
  });

  it('brings a server built before anti-spoofing to it on a coming reconcile pass, once, audited', { timeout: 120_000 }, async () => {
    await root.firewall.setGuestOptions(b.node, b.vmid, { delete: 'enable,ipfilter,macfilter,policy_in' });
    await root.http.request('DELETE', '/nodes/{node}/qemu/{vmid}/firewall/ipset/{name}', { node: b.node, vmid: b.vmid, name: IPSET }, { force: 1 });
    const net0 = String((await root.guestConfig.get(b.node, b.vmid)).net0).replace(',firewall=1', '');
    await root.guestConfig.setSync(b.node, b.vmid, { net0 });
    await stack.api.db.instance.update({ where: { id: b.id }, data: { firewallCheckedAt: null } });
    expect(await verdictOf(stack, b, { source: a.ipv4 })).toBe('ACCEPT');

    await afterReconcileRuns(2);
    const fw = await firewallOf(b);
    expect(fw).toMatchObject({ options: { enable: 1, ipfilter: 1, macfilter: 1, policy_in: 'ACCEPT' }, entries: [b.ipv4, b.ipv6].sort() });
    expect(fw.net0).toContain('firewall=1');
    expect(await verdictOf(stack, b, { source: a.ipv4 })).toBe('DROP');
    expect(await stack.api.db.auditEvent.count({ where: { instanceId: b.id, action: 'instance.firewall_converged' } })).toBe(1);
    expect(await stack.api.db.instanceEvent.count({ where: { instanceId: b.id, type: 'instance.firewall_restored' } })).toBe(0);
    expect((await stack.api.db.instance.findUniqueOrThrow({ where: { id: b.id } })).firewallCheckedAt).not.toBeNull();
  });

  it('checks one server’s firewall on an operator’s reconcile, and fails it with PROVIDER_PERMISSION_DENIED when the token may not read that firewall', { timeout: 120_000 }, async () => {
    const checked = await stack.api.request('POST', `/v1/admin/instances/${b.id}/reconcile`, { token: stack.api.adminToken });
    expect(checked.status).toBe(200);
    expect(checked.body.meta.firewalls).toEqual({ checked: 1, restored: 0, converged: 0, undecided: 0 });
    await stack.sim.fault({ op: 'any', mode: 'http403', call: 'GET /nodes/{node}/qemu/{vmid}/firewall/options', count: 1000 });
    try {
      const refused = await stack.api.request('POST', `/v1/admin/instances/${b.id}/reconcile`, { token: stack.api.adminToken });
      expect(refused.body.error.code).toBe('PROVIDER_PERMISSION_DENIED');
    } finally {
      await stack.sim.clearFaults();
    }
  });

  it('keeps the set on a rebuild and a migration, and gives a server restored from a backup as a new server a set of its own new addresses', { timeout: 240_000 }, async () => {
    const rebuilt = await runOperation(stack, a.id, 'rebuild', {});
    expect(rebuilt.task.status).toBe('succeeded');
    const again = await serverOf(stack, a.id);
    expect((await firewallOf(again)).entries).toEqual([a.ipv4, a.ipv6].sort());
    const migrated = await runOperation(stack, a.id, 'migrate', { node: again.node === 'pve1' ? 'pve2' : 'pve1' });
    expect(migrated.task.status).toBe('succeeded');
    const moved = await serverOf(stack, a.id);
    expect(moved.node).not.toBe(again.node);
    expect(await firewallOf(moved)).toMatchObject({ options: { enable: 1, ipfilter: 1, macfilter: 1 }, entries: [a.ipv4, a.ipv6].sort() });
    expect(await verdictOf(stack, moved, { source: b.ipv4 })).toBe('DROP');

    const backup = await stack.api.request('POST', `/v1/instances/${b.id}/backups`, { token: stack.customer.token, body: {} });
    expect((await taskEnd(stack, backup.body.meta.taskId, 120_000)).status).toBe('succeeded');
    const created = await stack.create({ imageId: undefined, locationId: undefined, backupId: backup.body.data.id, hostname: 'spoof-b-copy' });
    expect((await taskEnd(stack, created.body.meta.taskId!, 120_000)).status).toBe('succeeded');
    const copy = await serverOf(stack, created.body.data.id);
    expect(copy.ipv4).not.toBe(b.ipv4);
    expect((await firewallOf(copy)).entries).toEqual([copy.ipv4, copy.ipv6].sort());
    expect(await verdictOf(stack, copy, { source: b.ipv4 })).toBe('DROP');
    expect(await verdictOf(stack, copy, { source: copy.ipv4 })).toBe('ACCEPT');
  });

  it('leaves the set exact when the worker dies while an ipset write is answered', { timeout: 240_000 }, async () => {
    // The entry is written at once; only the answer waits, so the worker dies between the call and its answer.
    await stack.sim.fault({ op: 'any', mode: 'delay', delayMs: 8_000, call: 'POST /nodes/{node}/qemu/{vmid}/firewall/ipset/{name}', count: 1 });
    const created = await stack.create({ hostname: 'spoof-crash' });
    const taskId = created.body.meta.taskId!;
    const dying = worker;
    worker = stack.spawnWorkerProcess();
    await expect
      .poll(async () => stack.api.db.providerCall.count({ where: { taskId, kind: { startsWith: 'firewall.ipset+' }, status: 'issuing' } }), { timeout: 60_000, interval: 25 })
      .toBe(1);
    await dying.kill();
    expect((await taskEnd(stack, taskId, 180_000)).status).toBe('succeeded');
    const server = await serverOf(stack, created.body.data.id);
    expect((await firewallOf(server)).entries).toEqual([server.ipv4, server.ipv6].sort());
    const calls = await stack.api.db.providerCall.findMany({ where: { taskId, kind: { startsWith: 'firewall.ipset+' } } });
    expect(calls.map((c) => c.status)).toEqual(['succeeded', 'succeeded']);
  });
});
