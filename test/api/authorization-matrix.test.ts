import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../src/api/app';
import { buildOpenApiDocument } from '../../src/api/openapi';
import { ROUTE_ACTIONS, ruleOf } from '../../src/api/route-actions';
import { can, SERVER_PERMISSIONS, type Action, type Actor, type Target } from '../../src/services/authorization';
import { startStack, type Stack } from '../support/stack';

/** Everyone the matrix asks as: the operator, the roles of one tenant, a user a server was shared with, another tenant's owner, the owner's read-only token and the owner's token limited to another project. */
const WHO = ['admin', 'owner', 'creator', 'shared', 'member', 'viewer', 'stranger', 'reader', 'limited'] as const;
type Who = (typeof WHO)[number];

/**
 * The contract, written out: what each of them may do to the tenant, to its default project and to
 * one server a member (`creator`) made there and shared with `shared` for `power` only; `reader`
 * is the owner with a token issued for `read` only, `limited` the owner with a token limited to
 * another project. No member has a role in the default project: they all may create servers in
 * it. `a` allowed, `f` 403 FORBIDDEN with the reason, `h` 404 NOT_FOUND (the server or project is
 * not theirs to know of).
 *                                     admin owner creator shared member viewer stranger reader limited */
const CONTRACT: Record<Action, string> = {
  public: /*                */ 'a a a a a a a a a',
  'account.read': /*        */ 'a a a a a a a a a',
  account: /*               */ 'a a a a a a a f f',
  'catalog.read': /*        */ 'a a a a a a a a a',
  'events.read': /*         */ 'a a a a a a a a a',
  'servers.list': /*        */ 'a a a a a a a a a',
  operator: /*              */ 'a f f f f f f f f',
  'server.create': /*       */ 'f a a a a f a f a',
  'tenant.users.read': /*   */ 'f a a a a a a a f',
  'tenant.users': /*        */ 'f a f f f f a f f',
  'tenant.invitations.read': 'f a f f f f a a f',
  'tenant.webhooks.read': /**/ 'a a f f f f a a f',
  'tenant.webhooks': /*     */ 'a a f f f f a f f',
  'tenant.audit': /*        */ 'a a f f f f a a f',
  'tenant.usage': /*        */ 'f a f f f f a a f',
  'tenant.firewall.read': /**/ 'f a a a a a a a f',
  'tenant.firewall': /*     */ 'f a f f f f a f f',
  'projects.list': /*       */ 'f a a a a a a a a',
  'project.create': /*      */ 'f a f f f f a f f',
  'project.read': /*        */ 'f a a a a a h a h',
  'project.manage': /*      */ 'f a f f f f h f h',
  'server.read': /*         */ 'a a a a h a h a h',
  'server.power': /*        */ 'a a a a h f h f h',
  'server.credentials': /*  */ 'f a a f h f h f h',
  'server.share': /*        */ 'a a a f h f h f h',
  ...Object.fromEntries(SERVER_PERMISSIONS.filter((p) => !['read', 'power', 'credentials'].includes(p)).map((p) => [`server.${p}`, 'a a a f h f h f h'])),
} as Record<Action, string>;

const expectedOf = (action: Action, who: Who): string => CONTRACT[action].split(' ')[WHO.indexOf(who)] as string;

interface Operation {
  responses?: Record<string, { content?: Record<string, unknown> }>;
}

const DOCUMENTED = Object.entries(buildOpenApiDocument().paths ?? {}).flatMap(([path, operations]) =>
  Object.entries(operations as Record<string, Operation>).map(([method, operation]) => ({
    method: method.toUpperCase(),
    path,
    /** A stream answers only when it ends: what it allows is not sent. */
    streams: Object.values(operation.responses ?? {}).some((response) => 'text/event-stream' in (response.content ?? {})),
  })),
);

describe('the route table', () => {
  it('decides every route of the OpenAPI document', () => {
    const undecided = DOCUMENTED.filter(({ method, path }) => !ruleOf(method, path.replace(/\{[^}]+\}/g, 'x'))).map(({ method, path }) => `${method} ${path}`);
    expect(undecided, `Routes without an authorization decision: add each to ROUTE_ACTIONS in src/api/route-actions.ts (its action, and its target when it acts on one server): ${undecided.join(', ')}`).toEqual([]);
  });

  it('names no route the document does not have', () => {
    const documented = new Set(DOCUMENTED.map(({ method, path }) => `${method} ${path}`));
    expect(Object.keys(ROUTE_ACTIONS).filter((key) => !documented.has(key))).toEqual([]);
  });

  it('has a contract line for every action it names', () => {
    for (const rule of Object.values(ROUTE_ACTIONS)) expect(CONTRACT[rule.action], rule.action).toMatch(/^([afh] ){8}[afh]$/);
  });
});

describe('every route × every role and grant', () => {
  let stack: Stack;
  const tokens = {} as Record<Who, string>;
  const actors = {} as Record<Who, Actor>;
  let serverId: string;
  let taskId: string;
  let backupId: string;
  let tenantId: string;
  let creatorId: string;
  let projectId: string;

  beforeAll(async () => {
    stack = await startStack({ worker: false });
    const { api } = stack;
    tenantId = stack.customer.tenantId;
    const user = async (role: string, inTenant = tenantId) => {
      const made = await api.request('POST', '/v1/admin/users', { token: api.adminToken, body: { tenantId: inTenant, email: `${role}-${Math.random().toString(36).slice(2)}@example.com`, role } });
      expect(made.status, made.text).toBe(201);
      const issued = await api.request('POST', `/v1/admin/users/${made.body.data.id}/tokens`, { token: api.adminToken, body: {} });
      return { id: made.body.data.id as string, token: issued.body.data.token as string };
    };
    const admin = await api.db.user.findFirstOrThrow({ where: { role: 'admin' } });
    const creator = await user('member');
    const shared = await user('member');
    const member = await user('member');
    const viewer = await user('viewer');
    const stranger = await api.createCustomer();
    creatorId = creator.id;
    const reader = await api.request('POST', '/v1/account/tokens', { token: stack.customer.token, body: { name: 'read only', scopes: ['read'] } });
    expect(reader.body.data.scopes).toEqual(['read']);
    projectId = (await api.db.project.findFirstOrThrow({ where: { tenantId, isDefault: true } })).id;
    const side = await api.request('POST', '/v1/projects', { token: stack.customer.token, body: { name: 'side' } });
    expect(side.status, side.text).toBe(201);
    const limited = await api.request('POST', '/v1/account/tokens', { token: stack.customer.token, body: { name: 'side only', projectId: side.body.data.id } });
    expect(limited.body.data.projectId).toBe(side.body.data.id);
    Object.assign(tokens, {
      admin: api.adminToken,
      owner: stack.customer.token,
      creator: creator.token,
      shared: shared.token,
      member: member.token,
      viewer: viewer.token,
      stranger: stranger.token,
      reader: reader.body.data.token,
      limited: limited.body.data.token,
    });
    const customer = (userId: string, tenantRole: Actor['tenantRole'], tenant = tenantId): Actor => ({ userId, role: 'customer', tenantId: tenant, tenantRole });
    Object.assign(actors, {
      admin: { userId: admin.id, role: 'admin', tenantId: null, tenantRole: null },
      owner: customer(stack.customer.userId, 'owner'),
      creator: customer(creator.id, 'member'),
      shared: customer(shared.id, 'member'),
      member: customer(member.id, 'member'),
      viewer: customer(viewer.id, 'viewer'),
      stranger: customer(stranger.userId, 'owner', stranger.tenantId),
      reader: { ...customer(stack.customer.userId, 'owner'), tokenScopes: ['read'] },
      limited: { ...customer(stack.customer.userId, 'owner'), tokenProjectId: side.body.data.id },
    });

    const created = await api.request('POST', '/v1/instances', { token: creator.token, body: stack.createBody({ hostname: 'matrix' }) });
    expect(created.status, created.text).toBe(202);
    serverId = created.body.data.id;
    taskId = created.body.meta.taskId;
    const grant = await api.request('POST', `/v1/instances/${serverId}/grants`, { token: creator.token, body: { userId: shared.id, permissions: ['power'] } });
    expect(grant.status, grant.text).toBe(200);
    const row = await api.db.instance.findUniqueOrThrow({ where: { id: serverId } });
    backupId = 'bkp_matrix';
    await api.db.backup.create({ data: { id: backupId, tenantId, instanceId: serverId, connectionId: row.connectionId, node: 'pve1', storage: 'local', vmid: 100, status: 'available' } });
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  const serverTarget = (who: Who): Target => ({ kind: 'server', tenantId, projectId, userId: creatorId, grant: who === 'shared' ? ['read', 'power'] : null, projectRole: null });
  const projectTarget = (): Target => ({ kind: 'project', tenantId, projectId, isDefault: true, role: null });

  it('decides as the contract says', () => {
    const wrong: string[] = [];
    for (const action of Object.keys(CONTRACT) as Action[]) {
      for (const who of WHO) {
        const target = action.startsWith('server.') && action !== 'server.create' ? serverTarget(who) : action === 'project.read' || action === 'project.manage' ? projectTarget() : undefined;
        const decision = can(actors[who], action, target);
        const answer = decision.allowed ? 'a' : decision.hidden ? 'h' : 'f';
        if (answer !== expectedOf(action, who)) wrong.push(`${action} as ${who}: ${answer}, expected ${expectedOf(action, who)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('answers every route as its decision says, over HTTP', async () => {
    const wrong: string[] = [];
    for (const { method, path, streams } of DOCUMENTED) {
      const rule = ruleOf(method, path.replace(/\{[^}]+\}/g, 'x'));
      if (!rule || rule.action === 'public') continue;
      const id = rule.target === 'instance' ? serverId : rule.target === 'task' ? taskId : rule.target === 'backup' ? backupId : rule.target === 'project' ? projectId : 'unknown';
      const url = path.replace('{id}', id).replace('{name}', 'none').replace(/\{[^}]+\}/g, 'unknown');
      for (const who of WHO) {
        const expected = expectedOf(rule.action, who);
        // What is allowed runs: only reads are sent, so the matrix changes nothing.
        if (expected === 'a' && (method !== 'GET' || streams)) continue;
        const res = await stack.api.request(method, url, { token: tokens[who], ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }) });
        const refused = res.status === 403 && res.body?.error?.details?.action === rule.action;
        const hidden = res.status === 404 && res.body?.error?.code === 'NOT_FOUND';
        const answer = refused ? 'f' : hidden && expected === 'h' ? 'h' : res.status === 403 ? `403 ${res.text}` : 'a';
        if (answer !== expected) wrong.push(`${method} ${path} as ${who}: ${answer} (${res.status}), expected ${expected}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 300_000);
});
