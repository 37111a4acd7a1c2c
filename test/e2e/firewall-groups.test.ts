/**
 * Firewall groups end to end: a group's rules stand where a server's list names it; changing the
 * group applies it again to every server that names it (a few at a time, each its own firewall
 * operation, each server's outcome on the group); limits, other tenants and groups in use.
 */
import { describe, expect, it } from 'vitest';
import { runningServer, suiteStack, taskEnd } from '../support/lifecycle';
import { brief, firewallOn, heldRules, inbound } from '../support/firewall';
import type { Stack } from '../support/stack';

const groups = (stack: Stack, method: string, path = '', body?: unknown, token = stack.customer.token) => stack.api.request(method, `/v1/firewall-groups${path}`, { token, body });
const putFirewall = (stack: Stack, id: string, body: unknown) => stack.api.request('PUT', `/v1/instances/${id}/firewall`, { token: stack.customer.token, body });

describe('firewall groups', () => {
  const stack = suiteStack();

  it('a group change reaches every server that names it, as the oracle shows', { timeout: 240_000 }, async () => {
    const created = await groups(stack, 'POST', '', { name: 'web', description: 'public web', rules: [{ action: 'accept', protocol: 'tcp', port: '80', comment: 'http' }] });
    expect(created.status).toBe(201);
    const groupId = created.body.data.id as string;
    expect(created.body.data).toMatchObject({ name: 'web', servers: [] });

    const ids = await Promise.all(['fwg-a', 'fwg-b', 'fwg-c'].map((hostname) => runningServer(stack, { hostname }, 90_000)));
    const nics = [];
    for (const id of ids) {
      nics.push(await firewallOn(stack, id));
      const put = await putFirewall(stack, id, { inboundPolicy: 'drop', rules: [{ action: 'accept', protocol: 'tcp', port: '22', sources: ['198.51.100.0/24'] }, { group: groupId }] });
      expect(put.status).toBe(202);
      expect((await taskEnd(stack, put.body.meta.taskId)).status).toBe('succeeded');
    }
    const read = await stack.api.request('GET', `/v1/instances/${ids[0]}/firewall`, { token: stack.customer.token });
    expect(read.body.data.rules[1]).toEqual({ group: groupId, name: 'web' });
    for (const nic of nics) {
      expect(await inbound(stack, nic, { source: '203.0.113.9', protocol: 'tcp', dport: 80 })).toBe('ACCEPT');
      expect(await inbound(stack, nic, { source: '203.0.113.9', protocol: 'tcp', dport: 443 })).toBe('DROP');
    }

    const patched = await groups(stack, 'PATCH', `/${groupId}`, { rules: [{ action: 'accept', protocol: 'tcp', port: '443', comment: 'https' }] });
    expect(patched.status).toBe(200);
    expect(patched.body.data.servers).toHaveLength(3);
    await expect
      .poll(async () => ((await groups(stack, 'GET', `/${groupId}`)).body.data.servers as { application: { state: string } }[]).map((s) => s.application.state), { timeout: 120_000, interval: 250 })
      .toEqual(['applied', 'applied', 'applied']);
    const final = (await groups(stack, 'GET', `/${groupId}`)).body.data;
    expect(final.servers.map((s: { id: string }) => s.id).sort()).toEqual([...ids].sort());
    for (const server of final.servers) expect(server.application).toMatchObject({ taskStatus: 'succeeded', errorCode: null });
    for (const nic of nics) {
      expect(await inbound(stack, nic, { source: '203.0.113.9', protocol: 'tcp', dport: 80 })).toBe('DROP');
      expect(await inbound(stack, nic, { source: '203.0.113.9', protocol: 'tcp', dport: 443 })).toBe('ACCEPT');
      expect(brief(await heldRules(stack, nic))).toEqual(['in ACCEPT tcp 22 198.51.100.0/24 pvecp: 1', `in ACCEPT tcp 443 * pvecp ${groupId}: https 1`]);
    }
    // Each server was applied again as its own operation.
    for (const id of ids) expect(await stack.api.db.task.count({ where: { instanceId: id, type: 'FIREWALL_APPLY', status: 'succeeded' } })).toBe(2);

    // A group servers name cannot go.
    const inUse = await groups(stack, 'DELETE', `/${groupId}`);
    expect(inUse.status).toBe(409);
    expect(inUse.body.error.code).toBe('FIREWALL_GROUP_IN_USE');
  });

  it('refuses a change that would take a server past 64 rules, writing nothing', { timeout: 90_000 }, async () => {
    const group = (await groups(stack, 'POST', '', { name: 'small', rules: [{ action: 'accept', protocol: 'udp', port: '53' }] })).body.data;
    const id = await runningServer(stack, { hostname: 'fwg-limit' });
    const own = Array.from({ length: 60 }, (_, i) => ({ action: 'accept', protocol: 'tcp', port: String(2000 + i) }));
    const put = await putFirewall(stack, id, { inboundPolicy: 'drop', rules: [...own, { group: group.id }] });
    expect(put.status).toBe(202);
    await taskEnd(stack, put.body.meta.taskId);

    const tooMany = await groups(stack, 'PATCH', `/${group.id}`, { rules: Array.from({ length: 5 }, (_, i) => ({ action: 'accept', protocol: 'udp', port: String(5000 + i) })) });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error).toMatchObject({ code: 'FIREWALL_RULE_LIMIT', details: { limit: 64, count: 65, instanceId: id } });
    expect((await groups(stack, 'GET', `/${group.id}`)).body.data.rules).toHaveLength(1);

    const five = (await groups(stack, 'POST', '', { name: 'five', rules: Array.from({ length: 5 }, (_, i) => ({ action: 'accept', protocol: 'udp', port: String(6000 + i) })) })).body.data;
    const direct = await putFirewall(stack, id, { inboundPolicy: 'drop', rules: [...own, { group: five.id }] });
    expect(direct.status).toBe(422);
    expect(direct.body.error.code).toBe('FIREWALL_RULE_LIMIT');
  });

  it("answers 404 for another tenant's group, and refuses naming it in a server's rules", { timeout: 90_000 }, async () => {
    const other = await stack.api.createCustomer();
    const theirs = (await groups(stack, 'POST', '', { name: 'theirs', rules: [] }, other.token)).body.data;
    expect((await groups(stack, 'GET', `/${theirs.id}`)).status).toBe(404);
    expect((await groups(stack, 'PATCH', `/${theirs.id}`, { name: 'mine' })).status).toBe(404);
    expect((await groups(stack, 'DELETE', `/${theirs.id}`)).status).toBe(404);
    expect(((await groups(stack, 'GET')).body.data as { id: string }[]).map((g) => g.id)).not.toContain(theirs.id);
    const id = await runningServer(stack, { hostname: 'fwg-foreign' });
    const put = await putFirewall(stack, id, { inboundPolicy: 'drop', rules: [{ group: theirs.id }] });
    expect(put.status).toBe(400);
    expect(put.body.error.details.fields).toEqual({ 'rules.0.group': 'no such firewall group' });
    expect((await groups(stack, 'DELETE', `/${theirs.id}`, undefined, other.token)).status).toBe(204);
  });
});
