/**
 * Projects inside a tenant: a member sees the servers of the projects they have a role in, a
 * project's restrictions and quota hold in the create even for simultaneous creates (the refused
 * ones keep nothing) and in a resize or rebuild, a token limited to a project touches nothing outside it, and a project with
 * servers (or the default one) is not deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operate, runningServer, taskEnd } from '../support/lifecycle';
import { startStack, type Stack } from '../support/stack';

interface TeamUser {
  id: string;
  token: string;
}

let stack: Stack;
let defaultProjectId: string;

const as = (token: string) => ({ token });

async function teamUser(role: 'member' | 'viewer'): Promise<TeamUser> {
  const made = await stack.api.request('POST', '/v1/users', { token: stack.customer.token, body: { email: `${role}-${Math.random().toString(36).slice(2)}@example.com`, role } });
  expect(made.status, made.text).toBe(201);
  const issued = await stack.api.request('POST', `/v1/admin/users/${made.body.data.id}/tokens`, { token: stack.api.adminToken, body: {} });
  return { id: made.body.data.id, token: issued.body.data.token };
}

async function project(body: Record<string, unknown>): Promise<string> {
  const made = await stack.api.request('POST', '/v1/projects', { token: stack.customer.token, body });
  expect(made.status, made.text).toBe(201);
  return made.body.data.id;
}

const setRole = (projectId: string, userId: string, role: string) => stack.api.request('PUT', `/v1/projects/${projectId}/members/${userId}`, { token: stack.customer.token, body: { role } });

/** POST /v1/instances with `token`: the status and the server's id, or the error's code. */
async function create(token: string, body: Record<string, unknown> = {}): Promise<{ status: number; id?: string; code?: string }> {
  const res = await stack.api.request('POST', '/v1/instances', { token, body: stack.createBody({ hostname: `p-${Math.random().toString(36).slice(2, 8)}`, ...body }) });
  return res.status === 202 ? { status: 202, id: res.body.data.id } : { status: res.status, code: res.body.error.code };
}

async function listed(token: string, query = ''): Promise<string[]> {
  const res = await stack.api.request('GET', `/v1/instances${query}`, { token });
  expect(res.status, res.text).toBe(200);
  return (res.body.data as { id: string }[]).map((s) => s.id).sort();
}

beforeAll(async () => {
  // No worker: the servers stay scheduled with their reservations, which is all these cases read.
  stack = await startStack({ worker: false });
  defaultProjectId = (await stack.api.db.project.findFirstOrThrow({ where: { tenantId: stack.customer.tenantId, isDefault: true } })).id;
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

describe('projects', () => {
  it('a new tenant is made with its default project, and a create without projectId lands in it', async () => {
    const listedProjects = await stack.api.request('GET', '/v1/projects', as(stack.customer.token));
    expect(listedProjects.body.data.map((p: { name: string; isDefault: boolean }) => [p.name, p.isDefault])).toEqual([['Default', true]]);
    const server = await create(stack.customer.token);
    expect(server.status).toBe(202);
    const read = await stack.api.request('GET', `/v1/instances/${server.id}`, as(stack.customer.token));
    expect(read.body.data.projectId).toBe(defaultProjectId);
  });

  it("a member sees the servers of their projects with scope=all and their own with scope=mine; elsewhere only what they made or were shared", async () => {
    const member = await teamUser('member');
    const outsider = await teamUser('member');
    const alpha = await project({ name: 'alpha' });
    const beta = await project({ name: 'beta' });
    expect((await setRole(alpha, member.id, 'member')).body.data).toMatchObject({ userId: member.id, role: 'member' });

    const ownersInAlpha = await create(stack.customer.token, { projectId: alpha });
    const ownersInDefault = await create(stack.customer.token);
    const membersInAlpha = await create(member.token, { projectId: alpha });
    const membersInDefault = await create(member.token);
    const outsidersInDefault = await create(outsider.token);
    for (const server of [ownersInAlpha, ownersInDefault, membersInAlpha, membersInDefault, outsidersInDefault]) expect(server.status).toBe(202);

    expect(await listed(member.token, '?scope=all')).toEqual([ownersInAlpha.id, membersInAlpha.id, membersInDefault.id].sort());
    expect(await listed(member.token, '?scope=mine')).toEqual([membersInAlpha.id, membersInDefault.id].sort());
    expect(await listed(member.token, `?projectId=${alpha}`)).toEqual([ownersInAlpha.id, membersInAlpha.id].sort());
    expect(await listed(stack.customer.token, `?projectId=${alpha}`)).toEqual([ownersInAlpha.id, membersInAlpha.id].sort());
    expect((await stack.api.request('GET', `/v1/instances/${ownersInDefault.id}`, as(member.token))).status).toBe(404);
    // A member acts on their own servers; on others of the project they read only.
    const reboot = await stack.api.request('POST', `/v1/instances/${ownersInAlpha.id}/reboot`, { token: member.token, body: {} });
    expect(reboot.status).toBe(403);
    expect(reboot.body.error.details).toMatchObject({ action: 'server.power' });

    // Projects they have no role in are not theirs to know of.
    expect(await create(outsider.token, { projectId: alpha })).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(await listed(outsider.token, '?scope=all')).toEqual([outsidersInDefault.id]);
    expect((await stack.api.request('GET', `/v1/projects/${beta}`, as(member.token))).status).toBe(404);
    expect((await stack.api.request('GET', '/v1/projects', as(member.token))).body.data.map((p: { id: string }) => p.id).sort()).toEqual([alpha, defaultProjectId].sort());

    // A viewer of the project reads its servers and creates none there.
    expect((await setRole(alpha, outsider.id, 'viewer')).status).toBe(200);
    expect(await listed(outsider.token, '?scope=all')).toEqual([ownersInAlpha.id, membersInAlpha.id, outsidersInDefault.id].sort());
    const refused = await stack.api.request('POST', '/v1/instances', { token: outsider.token, body: stack.createBody({ hostname: 'viewer-1', projectId: alpha }) });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('viewer');
    // Only tenant owners manage projects.
    expect((await setRole(alpha, member.id, 'owner')).status).toBe(200);
    const selfPromotion = await stack.api.request('PUT', `/v1/projects/${alpha}/members/${outsider.id}`, { token: member.token, body: { role: 'owner' } });
    expect(selfPromotion.status).toBe(403);
    // A project owner acts on every server of the project.
    expect((await stack.api.request('GET', `/v1/instances/${ownersInAlpha.id}/grants`, as(member.token))).status).toBe(200);
    expect((await stack.api.request('DELETE', `/v1/projects/${alpha}/members/${outsider.id}`, as(stack.customer.token))).status).toBe(204);
    expect(await listed(outsider.token, '?scope=all')).toEqual([outsidersInDefault.id]);
  });

  it("holds a project's plan restriction, and its quota for 6 simultaneous creates: exactly 2 pass, the refused ones keep nothing", async () => {
    const plans = stack.seed.plans as Record<string, string>;
    const capped = await project({ name: 'capped', allowedPlanIds: [plans.small], quota: { instances: 2, vcpus: 100, memoryMiB: 100_000, diskGiB: 1_000 } });
    const heldBefore = { vmids: await stack.api.db.vmidReservation.count({ where: { state: { not: 'free' } } }), addresses: await stack.api.db.ipAddress.count({ where: { state: { not: 'free' } } }) };

    const medium = await stack.api.request('POST', '/v1/instances', { token: stack.customer.token, body: stack.createBody({ hostname: 'medium-1', projectId: capped, planId: plans.medium }) });
    expect(medium.status).toBe(422);
    expect(medium.body.error).toMatchObject({ code: 'PROJECT_PLAN_NOT_ALLOWED', details: { fields: { planId: 'not allowed in this project' } } });

    const answers = await Promise.all(Array.from({ length: 6 }, () => create(stack.customer.token, { projectId: capped })));
    const accepted = answers.filter((a) => a.status === 202).map((a) => a.id as string);
    expect(accepted).toHaveLength(2);
    expect(answers.filter((a) => a.status !== 202)).toEqual(Array.from({ length: 4 }, () => ({ status: 422, code: 'PROJECT_QUOTA_EXCEEDED' })));

    const { db } = stack.api;
    expect((await db.instance.findMany({ where: { projectId: capped } })).map((i) => i.id).sort()).toEqual(accepted.sort());
    expect(await db.vmidReservation.count({ where: { state: { not: 'free' } } })).toBe(heldBefore.vmids + 2);
    const heldByAccepted = await db.ipAddress.count({ where: { instanceId: { in: accepted } } });
    expect(heldByAccepted).toBeGreaterThanOrEqual(2);
    expect(await db.ipAddress.count({ where: { state: { not: 'free' } } })).toBe(heldBefore.addresses + heldByAccepted);
    const read = await stack.api.request('GET', `/v1/projects/${capped}`, as(stack.customer.token));
    expect(read.body.data).toMatchObject({ allowedPlanIds: [plans.small], allowedImageIds: null, quota: { instances: 2 }, usage: { instances: 2, vcpus: 2 } });

    // The tenant's own quota still holds beside the project's.
    const lifted = await stack.api.request('PATCH', `/v1/projects/${capped}`, { token: stack.customer.token, body: { quota: null } });
    expect(lifted.body.data.quota).toBeNull();
    expect((await create(stack.customer.token, { projectId: capped })).status).toBe(202);
  });

  it("a token limited to a project touches no server of another project and creates only in its own", async () => {
    const gamma = await project({ name: 'gamma' });
    const inDefault = await create(stack.customer.token);
    const inGamma = await create(stack.customer.token, { projectId: gamma });
    const issued = await stack.api.request('POST', '/v1/account/tokens', { token: stack.customer.token, body: { name: 'gamma', projectId: gamma } });
    expect(issued.status, issued.text).toBe(201);
    const limited = issued.body.data.token as string;

    expect(await listed(limited)).toEqual([inGamma.id]);
    expect((await stack.api.request('GET', `/v1/instances/${inDefault.id}`, as(limited))).status).toBe(404);
    expect((await stack.api.request('POST', `/v1/instances/${inDefault.id}/reboot`, { token: limited, body: {} })).status).toBe(404);
    expect((await stack.api.request('DELETE', `/v1/instances/${inDefault.id}`, as(limited))).status).toBe(404);
    expect((await stack.api.request('GET', `/v1/instances/${inGamma.id}`, as(limited))).status).toBe(200);

    const made = await create(limited);
    expect(made.status).toBe(202);
    expect((await stack.api.db.instance.findUniqueOrThrow({ where: { id: made.id } })).projectId).toBe(gamma);
    expect(await create(limited, { projectId: defaultProjectId })).toEqual({ status: 404, code: 'NOT_FOUND' });
    // Nothing of the tenant as a whole, nor a broader token of its own.
    expect((await stack.api.request('GET', '/v1/users', as(limited))).status).toBe(403);
    expect((await stack.api.request('POST', '/v1/account/tokens', { token: limited, body: {} })).status).toBe(403);
    // A project its user may not see cannot be named.
    const outsider = await teamUser('member');
    const outsiderToken = await stack.api.request('POST', '/v1/account/tokens', { token: outsider.token, body: { projectId: gamma } });
    expect(outsiderToken.body.error).toMatchObject({ code: 'INVALID_INPUT', details: { fields: { projectId: 'no such project' } } });
  });

  it('deletes only an empty project that is not the default one', async () => {
    const busy = await project({ name: 'busy' });
    expect((await create(stack.customer.token, { projectId: busy })).status).toBe(202);
    const inUse = await stack.api.request('DELETE', `/v1/projects/${busy}`, as(stack.customer.token));
    expect(inUse.status).toBe(409);
    expect(inUse.body.error).toMatchObject({ code: 'PROJECT_IN_USE', details: { servers: 1 } });
    const theDefault = await stack.api.request('DELETE', `/v1/projects/${defaultProjectId}`, as(stack.customer.token));
    expect(theDefault.body.error.code).toBe('PROJECT_IS_DEFAULT');
    const empty = await project({ name: 'empty' });
    expect((await stack.api.request('DELETE', `/v1/projects/${empty}`, as(stack.customer.token))).status).toBe(204);
    expect((await stack.api.request('GET', `/v1/projects/${empty}`, as(stack.customer.token))).status).toBe(404);
  });

  it("holds a project's plan, image and quota for a resize and a rebuild of its server too", async () => {
    await stack.startWorker();
    const { plans, images } = stack.seed as { plans: Record<string, string>; images: Record<string, string> };
    const quota = { instances: 5, vcpus: 1, memoryMiB: 100_000, diskGiB: 1_000 };
    const tight = await project({ name: 'tight', allowedPlanIds: [plans.small], allowedImageIds: [images['debian-12']], quota });
    const id = await runningServer(stack, { hostname: 'tight-1', projectId: tight }, 60_000);
    const stop = await operate(stack, id, 'stop');
    await taskEnd(stack, stop.body.meta.taskId, 30_000);

    const toMedium = () => operate(stack, id, 'resize', { planId: plans.medium });
    expect((await toMedium()).body.error.code).toBe('PROJECT_PLAN_NOT_ALLOWED');
    await stack.api.request('PATCH', `/v1/projects/${tight}`, { token: stack.customer.token, body: { allowedPlanIds: null } });
    expect((await toMedium()).body.error).toMatchObject({ code: 'PROJECT_QUOTA_EXCEEDED', details: { resource: 'vcpus', limit: 1, used: 1, requested: 1 } });
    const rebuild = await operate(stack, id, 'rebuild', { imageId: images['rocky-9'] });
    expect(rebuild.body.error.code).toBe('PROJECT_IMAGE_NOT_ALLOWED');
    // Its own image stays usable.
    const again = await operate(stack, id, 'rebuild', {});
    expect(again.status).toBe(202);
    expect((await taskEnd(stack, again.body.meta.taskId, 60_000)).status).toBe('succeeded');
  }, 120_000);
});
