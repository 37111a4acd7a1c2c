/**
 * Teams inside a tenant: viewers read only, members see and act on their own servers and on what
 * is shared with them, a grant allows exactly its permissions, and revoking it ends that user's
 * open console and event stream of the server. The audit trail names who did each.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CLOSE_CODES } from '../../src/domain/guest-console';
import { consoleOffer } from '../support/console-client';
import { connectConsole } from '../support/console-socket';
import { operate, runningServer, suiteStack, taskEnd } from '../support/lifecycle';
import type { Stack } from '../support/stack';

const ENDS_WITHIN_MS = 8_000;

interface TeamUser {
  id: string;
  token: string;
}

/** A user of the stack customer's tenant with `role`, made by its owner, with a token issued by the administrator. */
async function teamUser(stack: Stack, role: 'member' | 'viewer'): Promise<TeamUser> {
  const made = await stack.api.request('POST', '/v1/users', { token: stack.customer.token, body: { email: `${role}-${Math.random().toString(36).slice(2)}@example.com`, role } });
  expect(made.status, made.text).toBe(201);
  expect(made.body.data).toMatchObject({ role: 'customer', tenantRole: role, tenantId: stack.customer.tenantId });
  const issued = await stack.api.request('POST', `/v1/admin/users/${made.body.data.id}/tokens`, { token: stack.api.adminToken, body: {} });
  return { id: made.body.data.id, token: issued.body.data.token };
}

const share = (stack: Stack, serverId: string, userId: string, permissions: string[]) =>
  stack.api.request('POST', `/v1/instances/${serverId}/grants`, { token: stack.customer.token, body: { userId, permissions } });

const listed = async (stack: Stack, token: string, scope?: 'mine' | 'all') =>
  ((await stack.api.request('GET', `/v1/instances${scope ? `?scope=${scope}` : ''}`, { token })).body.data as { id: string }[]).map((s) => s.id).sort();

/** Reads an event stream until it closes: the data of its `event: close`. */
async function streamClose(stack: Stack, serverId: string, token: string): Promise<{ reason: string }> {
  const res = await fetch(`${stack.api.baseUrl}/v1/instances/${serverId}/events`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  const text = await res.text();
  const close = text.split('\n\n').find((block) => block.startsWith('event: close'));
  return JSON.parse(close?.slice(close.indexOf('data: ') + 6) ?? '{}') as { reason: string };
}

describe('teams inside a tenant', () => {
  const stack = suiteStack({ env: { CONSOLE_WATCH_SECONDS: '1', EVENT_STREAM_HEARTBEAT_SECONDS: '1' } });
  let serverId: string;
  let member: TeamUser;
  let viewer: TeamUser;

  beforeAll(async () => {
    serverId = await runningServer(stack, { hostname: 'team-1' });
    member = await teamUser(stack, 'member');
    viewer = await teamUser(stack, 'viewer');
  }, 120_000);

  it('a viewer reads every server of the tenant and cannot change anything, and is told why', async () => {
    expect((await stack.api.request('GET', `/v1/instances/${serverId}`, { token: viewer.token })).status).toBe(200);
    expect(await listed(stack, viewer.token)).toContain(serverId);
    const refusals = [
      await stack.api.request('POST', '/v1/instances', { token: viewer.token, body: stack.createBody({ hostname: 'viewer-1' }) }),
      await operate(stack, serverId, 'reboot', undefined, viewer.token),
      await operate(stack, serverId, 'delete', undefined, viewer.token),
      await stack.api.request('POST', `/v1/instances/${serverId}/credentials/reveal`, { token: viewer.token, body: {} }),
      await consoleOffer(stack, serverId, 'serial', viewer.token),
      await stack.api.request('POST', '/v1/users', { token: viewer.token, body: { email: 'x@example.com', role: 'owner' } }),
      await stack.api.request('POST', '/v1/webhooks', { token: viewer.token, body: { url: 'https://example.com/hook' } }),
    ];
    for (const res of refusals) {
      expect(res.status, res.text).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
      expect(res.body.error.message).toMatch(/Viewers read only|tenant owner/);
    }
  });

  it('a member sees their own servers and those shared with them; the owner sees all, or what they made with scope=mine', async () => {
    const created = await stack.api.request('POST', '/v1/instances', { token: member.token, body: stack.createBody({ hostname: 'member-1' }) });
    expect(created.status, created.text).toBe(202);
    const own = created.body.data.id as string;
    expect(await listed(stack, member.token)).toEqual([own]);
    expect(await listed(stack, member.token, 'mine')).toEqual([own]);
    expect((await stack.api.request('GET', `/v1/instances/${serverId}`, { token: member.token })).status).toBe(404);
    expect(await listed(stack, stack.customer.token, 'all')).toEqual([own, serverId].sort());
    expect(await listed(stack, stack.customer.token, 'mine')).toEqual([serverId]);

    expect((await share(stack, serverId, member.id, [])).status).toBe(200);
    expect(await listed(stack, member.token)).toEqual([own, serverId].sort());
    expect((await stack.api.request('DELETE', `/v1/instances/${serverId}/grants/${member.id}`, { token: stack.customer.token })).status).toBe(204);
    await taskEnd(stack, created.body.meta.taskId, 60_000);
  }, 90_000);

  it('a server shared with power only can be rebooted but not rebuilt nor its credential revealed, and the audit names who did what', async () => {
    const grant = await share(stack, serverId, member.id, ['power']);
    expect(grant.status, grant.text).toBe(200);
    expect(grant.body.data).toMatchObject({ userId: member.id, permissions: ['read', 'power'] });

    const reboot = await operate(stack, serverId, 'reboot', undefined, member.token);
    expect(reboot.status, reboot.text).toBe(202);
    await taskEnd(stack, reboot.body.meta.taskId, 60_000);
    const rebuild = await operate(stack, serverId, 'rebuild', {}, member.token);
    expect(rebuild.status).toBe(403);
    expect(rebuild.body.error).toMatchObject({ code: 'FORBIDDEN', details: { action: 'server.rebuild' } });
    expect(rebuild.body.error.message).toContain('does not include rebuild');
    const reveal = await stack.api.request('POST', `/v1/instances/${serverId}/credentials/reveal`, { token: member.token, body: {} });
    expect(reveal.body.error).toMatchObject({ code: 'FORBIDDEN', details: { action: 'server.credentials' } });
    // The member may not pass the server on.
    const reshare = await stack.api.request('POST', `/v1/instances/${serverId}/grants`, { token: member.token, body: { userId: viewer.id, permissions: [] } });
    expect(reshare.status).toBe(403);

    const audit = await stack.api.db.auditEvent.findMany({ where: { instanceId: serverId, action: { in: ['grant.given', 'instance.reboot'] } }, orderBy: { id: 'asc' } });
    expect(audit.map((e) => [e.action, e.actorUserId])).toEqual(expect.arrayContaining([['grant.given', stack.customer.userId], ['instance.reboot', member.id]]));
  }, 90_000);

  it("a member restores as a new server only the backups of servers whose backups they may handle", async () => {
    const row = await stack.api.db.instance.findUniqueOrThrow({ where: { id: serverId } });
    const backup = await stack.api.db.backup.create({
      data: { id: `bkp_team${Date.now()}`, tenantId: row.tenantId, instanceId: serverId, connectionId: row.connectionId, node: row.node ?? 'pve1', storage: 'local', vmid: row.vmid ?? 100, status: 'available' },
    });
    const restore = () => stack.api.request('POST', '/v1/instances', { token: member.token, body: { planId: row.planId, hostname: 'restored-1', backupId: backup.id } });
    await stack.api.request('DELETE', `/v1/instances/${serverId}/grants/${member.id}`, { token: stack.customer.token });
    expect((await restore()).body.error).toMatchObject({ code: 'NOT_FOUND', details: { fields: { backupId: 'no such backup' } } });
    expect((await share(stack, serverId, member.id, ['power'])).status).toBe(200);
    expect((await restore()).body.error).toMatchObject({ code: 'FORBIDDEN', details: { action: 'server.backups' } });
    await stack.api.db.backup.delete({ where: { id: backup.id } });
  });

  it("a grant never crosses tenants, and a viewer can be given read only", async () => {
    const stranger = await stack.api.createCustomer();
    const across = await share(stack, serverId, stranger.userId, ['power']);
    expect(across.status).toBe(400);
    expect(across.body.error.details.fields).toEqual({ userId: 'no such user in this tenant' });
    const toViewer = await share(stack, serverId, viewer.id, ['power']);
    expect(toViewer.body.error.details.fields).toEqual({ permissions: 'a viewer can be given read only' });
  });

  it("revoking a grant ends that user's open console and event stream of the server", async () => {
    expect((await share(stack, serverId, member.id, ['console'])).status).toBe(200);
    const offer = await consoleOffer(stack, serverId, 'serial', member.token);
    expect(offer.status, offer.text).toBe(201);
    const c = await connectConsole(offer.body.data.websocketUrl);
    await expect.poll(() => c.text(), { timeout: 10_000 }).toContain('team-1 login: ');

    // A task under way, so the stream follows it instead of ending at once.
    const task = await stack.api.db.task.findFirstOrThrow({ where: { instanceId: serverId }, orderBy: { createdAt: 'desc' } });
    await stack.api.db.task.update({ where: { id: task.id }, data: { status: 'running' } });
    try {
      const stream = streamClose(stack, serverId, member.token);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const since = Date.now();
      expect((await stack.api.request('DELETE', `/v1/instances/${serverId}/grants/${member.id}`, { token: stack.customer.token })).status).toBe(204);
      expect(await stream).toEqual({ reason: 'access_lost' });
      const closed = await Promise.race([c.closed, new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), since + ENDS_WITHIN_MS - Date.now()))]);
      expect(closed).toEqual({ code: CONSOLE_CLOSE_CODES.access_lost, reason: 'access_lost' });
    } finally {
      await stack.api.db.task.update({ where: { id: task.id }, data: { status: task.status } });
    }
    expect((await stack.api.request('GET', `/v1/instances/${serverId}`, { token: member.token })).status).toBe(404);
    const revoked = await stack.api.db.auditEvent.findFirst({ where: { instanceId: serverId, action: 'grant.revoked' }, orderBy: { id: 'desc' } });
    expect(revoked).toMatchObject({ actorUserId: stack.customer.userId, details: { userId: member.id } });
  }, 60_000);

  it('the audit trail shows each of these with its actor to the tenant owner only, and nothing secret', async () => {
    const page = await stack.api.request('GET', `/v1/audit?instanceId=${serverId}&limit=200`, { token: stack.customer.token });
    expect(page.status, page.text).toBe(200);
    const entries = page.body.data as { action: string; actor: { userId: string; email: string } | null; details: Record<string, unknown> }[];
    const by = (action: string) => entries.filter((e) => e.action === action).map((e) => e.actor?.userId);
    expect(by('grant.given')).toContain(stack.customer.userId);
    expect(by('grant.revoked')).toContain(stack.customer.userId);
    expect(by('instance.reboot')).toContain(member.id);
    expect(by('console.opened')).toContain(member.id);
    expect(entries.find((e) => e.action === 'grant.given')?.details).toMatchObject({ userId: member.id });
    const row = await stack.api.db.instance.findUniqueOrThrow({ where: { id: serverId } });
    expect(page.text).not.toContain(`"${row.node}"`);
    expect(page.text).not.toMatch(/"(node|vmid|upid|storage|connectionId)"/);

    const byMember = await stack.api.request('GET', `/v1/audit?userId=${member.id}`, { token: stack.customer.token });
    expect(new Set((byMember.body.data as { actor: { userId: string } }[]).map((e) => e.actor.userId))).toEqual(new Set([member.id]));
    for (const token of [member.token, viewer.token]) {
      const refused = await stack.api.request('GET', '/v1/audit', { token });
      expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', message: 'Only a tenant owner may do this.' });
    }
    const paged = await stack.api.request('GET', `/v1/audit?limit=1`, { token: stack.customer.token });
    const next = await stack.api.request('GET', `/v1/audit?limit=1&cursor=${paged.body.meta.nextCursor}`, { token: stack.customer.token });
    expect(Number(next.body.data[0].id)).toBeLessThan(Number(paged.body.data[0].id));
  });
});
