import { describe, expect, it } from 'vitest';
import { DEFAULT_SIM_TOKEN, parseToken } from '../../src/simulator/server';
import { CPU_FLAGS_V3, demoCluster } from '../../src/simulator/spec';
import { reconcileScheduleId } from '../../src/temporal/workflow-ids';
import { runningServer, runOperation, suiteStack } from '../support/lifecycle';

/**
 * A connection's nodes and VMID range change with the cluster, through the admin API: a node the
 * cluster lists joins, an empty node leaves (one with servers only drains), and the VMID range
 * grows at either end and shrinks over free VMIDs only. Every change is audited.
 */
describe("a connection's nodes and VMID range", () => {
  const stack = suiteStack({
    // The cluster has a fourth node the demo connection does not know yet.
    simulator: { cluster: { nodes: [...demoCluster().nodes, { name: 'pve4', cpus: 16, memoryGiB: 64, cpuFlags: CPU_FLAGS_V3 }] } },
  });
  const admin = () => ({ token: stack.api.adminToken });
  const connectionUrl = () => `/v1/admin/connections/${stack.seed.connectionId}`;
  const nodeNames = async () => {
    const listed = (await stack.api.request('GET', '/v1/admin/connections', admin())).body.data.find((c: { id: string }) => c.id === stack.seed.connectionId);
    return listed.nodes.map((n: { name: string }) => n.name);
  };
  const lastAudit = (action: string) => stack.api.db.auditEvent.findFirstOrThrow({ where: { action }, orderBy: { id: 'desc' } });
  const putRange = (range: unknown) => stack.api.request('PUT', `${connectionUrl()}/vmid-range`, { ...admin(), body: range });

  it('adds a node the cluster lists, audited; refuses a node it does not list, a node already there and an unknown connection', async () => {
    const capacity = { vcpus: 16, memoryMiB: 32_768, diskGiB: 500 };
    const added = await stack.api.request('POST', `${connectionUrl()}/nodes`, { ...admin(), body: { name: 'pve4', ...capacity } });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ name: 'pve4', ...capacity, enabled: true, draining: false });
    expect(await nodeNames()).toEqual(['pve1', 'pve2', 'pve3', 'pve4']);
    expect((await lastAudit('node.added')).details).toMatchObject({ connectionId: stack.seed.connectionId, name: 'pve4', ...capacity });

    const unknown = await stack.api.request('POST', `${connectionUrl()}/nodes`, { ...admin(), body: { name: 'pve9', ...capacity } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.fields.name).toContain('not a node of this Proxmox VE cluster');
    const again = await stack.api.request('POST', `${connectionUrl()}/nodes`, { ...admin(), body: { name: 'pve4', ...capacity } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONFLICT');
    expect((await stack.api.request('POST', '/v1/admin/connections/conn_missing/nodes', { ...admin(), body: { name: 'pve4', ...capacity } })).status).toBe(404);
    expect((await stack.api.request('POST', `${connectionUrl()}/nodes`, { ...admin(), body: { name: 'pve4' } })).status).toBe(400);
  });

  it('removes a node only once no server lives there: 409 NODE_IN_USE until it is drained and its servers migrated', { timeout: 90_000 }, async () => {
    const id = await runningServer(stack, { hostname: 'on-leaving-node' }, 60_000);
    const { node } = await stack.api.db.instance.findUniqueOrThrow({ where: { id } });
    const nodeUrl = `${connectionUrl()}/nodes/${node}`;

    const refused = await stack.api.request('DELETE', nodeUrl, admin());
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'NODE_IN_USE', details: { servers: 1, allocations: 1 } });
    expect(refused.body.error.message).toContain('drain');
    expect(await nodeNames()).toContain(node);

    // Drain it, move the server away: now it can go, and its templates with it.
    await stack.api.request('PATCH', nodeUrl, { ...admin(), body: { draining: true } });
    const target = node === 'pve3' ? 'pve2' : 'pve3';
    expect((await runOperation(stack, id, 'migrate', { node: target })).instance.status).toBe('running');
    const removed = await stack.api.request('DELETE', nodeUrl, admin());
    expect(removed.status).toBe(204);
    expect(await nodeNames()).not.toContain(node);
    expect(await stack.api.db.imageTemplate.count({ where: { connectionId: stack.seed.connectionId, node: node as string } })).toBe(0);
    expect((await lastAudit('node.removed')).details).toMatchObject({ connectionId: stack.seed.connectionId, node, templatesRemoved: 5 });
    expect((await stack.api.request('DELETE', nodeUrl, admin())).status).toBe(404);
    // The moved server keeps working.
    expect((await runOperation(stack, id, 'stop')).instance.status).toBe('stopped');
  });

  it('grows the VMID range at either end and shrinks it over free VMIDs only: 409 VMID_RANGE_IN_USE names the held ones', { timeout: 120_000 }, async () => {
    const id = await runningServer(stack, { hostname: 'holds-a-vmid' }, 60_000);
    const { vmid } = await stack.api.db.instance.findUniqueOrThrow({ where: { id } });
    const held = vmid as number;

    const leavingItOut = await putRange({ start: held + 1, end: 8999 });
    expect(leavingItOut.status).toBe(409);
    expect(leavingItOut.body.error).toMatchObject({ code: 'VMID_RANGE_IN_USE', details: { held: expect.any(Number), vmids: expect.arrayContaining([{ vmid: held, state: 'assigned' }]) } });
    expect((await stack.api.db.proxmoxConnection.findUniqueOrThrow({ where: { id: stack.seed.connectionId } })).vmidStart).toBe(1000);

    // Every VMID but the ones servers hold is free: the range shrinks to those.
    const heldVmids = (await stack.api.db.vmidReservation.findMany({ where: { connectionId: stack.seed.connectionId, state: { not: 'free' } } })).map((r) => r.vmid);
    const top = Math.max(...heldVmids);
    const shrunk = await putRange({ start: 1000, end: top });
    expect(shrunk.status).toBe(200);
    expect(shrunk.body.data.vmidRange).toEqual({ start: 1000, end: top });
    expect(await stack.api.db.vmidReservation.count({ where: { connectionId: stack.seed.connectionId, vmid: { gt: top } } })).toBe(0);
    const audit = await lastAudit('connection.vmid_range_changed');
    expect(audit.details).toMatchObject({ before: { start: 1000, end: 8999 }, after: { start: 1000, end: top } });
    // The servers of this file hold every VMID of it now: a new one finds none.
    expect(heldVmids.sort()).toEqual(Array.from({ length: top - 1000 + 1 }, (_, i) => 1000 + i));
    const { response, error } = await stack.createAnswer({ hostname: 'no-vmid-left' });
    expect(response.status).toBe(503);
    expect(error).toMatchObject({ error: { code: 'CAPACITY_UNAVAILABLE', details: { resource: 'vmid' } } });

    // Grown below its start: new servers get VMIDs there once the top is full.
    expect((await putRange({ start: 500, end: top })).status).toBe(200);
    const below = await runningServer(stack, { hostname: 'below-the-start' }, 60_000);
    const belowVmid = (await stack.api.db.instance.findUniqueOrThrow({ where: { id: below } })).vmid as number;
    expect(belowVmid).toBeGreaterThanOrEqual(500);
    expect(belowVmid).toBeLessThan(1000);

    // Grown past its end, back to where it was.
    expect((await putRange({ start: 500, end: 8999 })).body.data.vmidRange).toEqual({ start: 500, end: 8999 });
    expect((await putRange({ start: 900, end: 100 })).status).toBe(400);
    expect((await stack.api.request('PUT', '/v1/admin/connections/conn_missing/vmid-range', { ...admin(), body: { start: 500, end: 8999 } })).status).toBe(404);
  });

  it('refuses a range that reaches VMIDs another connection to the same cluster uses', async () => {
    const { tokenId, secret } = parseToken(DEFAULT_SIM_TOKEN);
    const second = await stack.api.request('POST', '/v1/admin/connections', {
      ...admin(),
      body: { name: 'same-cluster', url: stack.sim.url, plaintextLab: true, tokenId, tokenSecret: secret, vmidRange: { start: 9100, end: 9199 }, nodes: [{ name: 'pve1', vcpus: 8, memoryMiB: 8192, diskGiB: 100 }] },
    });
    expect(second.status).toBe(201);
    try {
      const overlapping = await putRange({ start: 500, end: 9150 });
      expect(overlapping.status).toBe(409);
      expect(overlapping.body.error).toMatchObject({ code: 'CONNECTION_OVERLAP', details: { connectionId: second.body.data.id } });
    } finally {
      await stack.api.temporal.schedule.getHandle(reconcileScheduleId(second.body.data.id)).delete().catch(() => undefined);
    }
  });
});
