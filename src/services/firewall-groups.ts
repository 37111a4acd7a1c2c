import type { Tx } from '../db/client';
import { recordAudit } from '../db/audit';
import { isUniqueViolation } from '../db/errors';
import { groupRules, specOf } from '../db/firewall';
import { lockKey } from '../db/locks';
import type { PageArgs } from '../db/pages';
import { AppError, notFound } from '../domain/errors';
import { expandEntries, type FirewallRule } from '../domain/firewall-rules';
import type { FirewallGroup, InstanceFirewall, Prisma, Task } from '../generated/prisma/client';
import { newId } from '../security/ids';
import { startWorkflow, withinStartDeadline } from '../temporal/starts';
import { firewallGroupWorkflowId } from '../temporal/workflow-ids';
import type { ServiceDeps } from './deps';
import { applicationOf, assertWithinRuleLimit, tenantFirewallsKey, type FirewallApplication } from './firewall';
import { tenantScope, type Caller, type Principal } from './principal';

/** How many servers a group change applies to at once. */
export const GROUP_FAN_OUT_PARALLELISM = 4;

export interface GroupServer {
  id: string;
  hostname: string;
  application: FirewallApplication;
}

export interface GroupWithServers {
  group: FirewallGroup;
  servers: GroupServer[];
}

/** Group changes and the lists that name groups are decided one at a time per tenant, so the rule limit holds for every server. */
export const lockTenantFirewalls = (tx: Tx, tenantId: string) => lockKey(tx, tenantFirewallsKey(tenantId));

async function serversNaming(db: ServiceDeps['db'] | Tx, groupId: string): Promise<(InstanceFirewall & { instance: { hostname: string; tenantId: string } })[]> {
  return db.instanceFirewall.findMany({
    where: { groupIds: { has: groupId }, instance: { status: { not: 'deleted' } } },
    include: { instance: { select: { hostname: true, tenantId: true } } },
    orderBy: { instanceId: 'asc' },
  });
}

async function withServers(deps: Pick<ServiceDeps, 'db'>, group: FirewallGroup): Promise<GroupWithServers> {
  const rows = await serversNaming(deps.db, group.id);
  const taskIds = rows.map((r) => r.lastTaskId).filter((id): id is string => id !== null);
  const tasks = new Map<string, Pick<Task, 'status' | 'errorCode'>>(
    (await deps.db.task.findMany({ where: { id: { in: taskIds } }, select: { id: true, status: true, errorCode: true } })).map((t) => [t.id, t]),
  );
  return { group, servers: rows.map((r) => ({ id: r.instanceId, hostname: r.instance.hostname, application: applicationOf(r, r.lastTaskId ? (tasks.get(r.lastTaskId) ?? null) : null) })) };
}

async function visibleGroup(deps: Pick<ServiceDeps, 'db'>, who: Caller, id: string): Promise<FirewallGroup> {
  const group = await deps.db.firewallGroup.findFirst({ where: { id, ...tenantScope(who) } });
  if (!group) throw notFound('firewall group');
  return group;
}

const nameTaken = () => new AppError('CONFLICT', 'The tenant already has a firewall group of that name.', { fields: { name: 'taken' } });

export interface GroupBody {
  name: string;
  description: string;
  rules: FirewallRule[];
  tenantId?: string;
}

/** POST /v1/firewall-groups: a customer's group is their tenant's; an administrator names the tenant. */
export async function createGroup(deps: Pick<ServiceDeps, 'db'>, who: Principal, body: GroupBody): Promise<GroupWithServers> {
  const tenantId = who.role === 'admin' ? body.tenantId : who.tenantId;
  if (!tenantId) throw new AppError('INVALID_INPUT', 'The request body is invalid.', { fields: { tenantId: 'required for administrators' } });
  if (who.role !== 'admin' && body.tenantId !== undefined && body.tenantId !== who.tenantId) throw new AppError('INVALID_INPUT', 'The request body is invalid.', { fields: { tenantId: 'administrators only' } });
  if (!(await deps.db.tenant.findUnique({ where: { id: tenantId }, select: { id: true } }))) throw new AppError('INVALID_INPUT', 'The request refers to something that does not exist.', { fields: { tenantId: 'no such tenant' } });
  try {
    const group = await deps.db.$transaction(async (tx) => {
      const row = await tx.firewallGroup.create({ data: { id: newId('fwg'), tenantId, name: body.name, description: body.description, rules: body.rules as unknown as Prisma.InputJsonValue } });
      await recordAudit(tx, { action: 'firewall_group.created', actorUserId: who.userId, tenantId, details: { groupId: row.id, name: row.name, rules: body.rules.length } });
      return row;
    });
    return { group, servers: [] };
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

export function listGroups(deps: Pick<ServiceDeps, 'db'>, who: Caller, page: PageArgs): Promise<FirewallGroup[]> {
  return deps.db.firewallGroup.findMany({ ...page, where: { AND: [page.where, tenantScope(who)] } });
}

export async function findGroup(deps: Pick<ServiceDeps, 'db'>, who: Caller, id: string): Promise<GroupWithServers> {
  return withServers(deps, await visibleGroup(deps, who, id));
}

/**
 * PATCH /v1/firewall-groups/{id}. New rules must leave every server that names the group within
 * the rule limit; they then count as a new generation of each such server's firewall, applied
 * again to all of them by one fan-out workflow (a few servers at a time, each its own
 * `firewall` operation).
 */
export async function updateGroup(deps: Pick<ServiceDeps, 'db' | 'temporal' | 'config' | 'logger'>, who: Principal, id: string, body: Partial<Omit<GroupBody, 'tenantId'>>): Promise<GroupWithServers> {
  const found = await visibleGroup(deps, who, id);
  let reapply: string[] = [];
  try {
    await deps.db.$transaction(async (tx) => {
      await lockTenantFirewalls(tx, found.tenantId);
      const servers = body.rules ? await serversNaming(tx, id) : [];
      if (body.rules) {
        for (const server of servers) {
          const groups = await groupRules(tx, found.tenantId, server.groupIds);
          groups.set(id, body.rules);
          assertWithinRuleLimit(expandEntries(specOf(server).rules, groups).length, { id: server.instanceId, hostname: server.instance.hostname });
        }
      }
      await tx.firewallGroup.update({
        where: { id },
        data: { ...(body.name !== undefined ? { name: body.name } : {}), ...(body.description !== undefined ? { description: body.description } : {}), ...(body.rules ? { rules: body.rules as unknown as Prisma.InputJsonValue } : {}) },
      });
      reapply = servers.map((s) => s.instanceId);
      if (reapply.length > 0) await tx.instanceFirewall.updateMany({ where: { instanceId: { in: reapply } }, data: { generation: { increment: 1 } } });
      await recordAudit(tx, { action: 'firewall_group.updated', actorUserId: who.userId, tenantId: found.tenantId, details: { groupId: id, changed: Object.keys(body), servers: reapply.length } });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
  if (reapply.length > 0) await startFanOut(deps, { groupId: id, tenantId: found.tenantId, actorUserId: who.userId, instanceIds: reapply });
  return findGroup(deps, who, id);
}

/**
 * Starts the fan-out of one group change. When Temporal cannot take it, the servers keep their
 * new generation as pending and the reconciler's firewall check brings each guest to it.
 */
async function startFanOut(deps: Pick<ServiceDeps, 'temporal' | 'config' | 'logger'>, input: { groupId: string; tenantId: string; actorUserId: string; instanceIds: string[] }): Promise<void> {
  try {
    await withinStartDeadline(deps.temporal, () =>
      startWorkflow(deps.temporal, 'ApplyFirewallGroup', {
        taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
        workflowId: firewallGroupWorkflowId(input.groupId, newId('chk')),
        args: [{ ...input, parallelism: GROUP_FAN_OUT_PARALLELISM }],
      }),
    );
  } catch (error) {
    deps.logger.warn({ err: error, groupId: input.groupId }, 'could not start applying a firewall group; the reconciler will apply it');
  }
}

/** DELETE /v1/firewall-groups/{id}: only a group no server names (409 FIREWALL_GROUP_IN_USE, naming them). */
export async function deleteGroup(deps: Pick<ServiceDeps, 'db'>, who: Principal, id: string): Promise<void> {
  const group = await visibleGroup(deps, who, id);
  await deps.db.$transaction(async (tx) => {
    await lockTenantFirewalls(tx, group.tenantId);
    const servers = await serversNaming(tx, id);
    if (servers.length > 0) {
      throw new AppError('FIREWALL_GROUP_IN_USE', 'Servers still name this firewall group in their rules; take it out of them first.', { servers: servers.map((s) => s.instanceId) });
    }
    await tx.firewallGroup.delete({ where: { id } });
    await recordAudit(tx, { action: 'firewall_group.deleted', actorUserId: who.userId, tenantId: group.tenantId, details: { groupId: id, name: group.name } });
  });
}
