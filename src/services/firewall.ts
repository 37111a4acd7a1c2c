import type { Tx } from '../db/client';
import { groupRules, OPEN_FIREWALL, specOf } from '../db/firewall';
import { lockKey } from '../db/locks';
import { AppError } from '../domain/errors';
import { expandEntries, isGroupEntry, MAX_FIREWALL_RULES, type FirewallEntry, type FirewallSpec } from '../domain/firewall-rules';
import type { InstanceFirewall, Prisma, Task } from '../generated/prisma/client';
import type { ServiceDeps } from './deps';
import { findInstance } from './instances';
import { answer, requestOperation, type OperationAnswer, type OperationDeps } from './operations';
import type { Caller, Principal } from './principal';

/** How the last apply of a server's firewall stands. */
export interface FirewallApplication {
  state: 'applied' | 'pending' | 'failed';
  taskId: string | null;
  taskStatus: Task['status'] | null;
  errorCode: string | null;
}

export interface FirewallState {
  spec: FirewallSpec;
  /** The names of the groups the entries name, by id. */
  groupNames: Map<string, string>;
  revision: number;
  application: FirewallApplication;
}

/** The advisory lock under which a tenant's group changes and the lists naming groups are decided. */
export const tenantFirewallsKey = (tenantId: string) => `firewall-groups:${tenantId}`;

/** A strong ETag of a revision. */
export const firewallETag = (revision: number) => `"${revision}"`;

/** Whether an `If-Match` header names the revision (`*` names any). */
function ifMatchHolds(header: string, revision: number): boolean {
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === firewallETag(revision));
}

type FirewallRow = InstanceFirewall & { lastTask: Pick<Task, 'status' | 'errorCode'> | null };

export function applicationOf(row: Pick<InstanceFirewall, 'generation' | 'appliedGeneration' | 'lastTaskId'> | null, task: Pick<Task, 'status' | 'errorCode'> | null): FirewallApplication {
  if (!row) return { state: 'applied', taskId: null, taskStatus: null, errorCode: null };
  const settled = task === null || task.status === 'succeeded' || task.status === 'failed';
  const state = row.appliedGeneration === row.generation && settled ? 'applied' : task?.status === 'failed' ? 'failed' : 'pending';
  return { state, taskId: row.lastTaskId, taskStatus: task?.status ?? null, errorCode: task?.status === 'failed' ? task.errorCode : null };
}

async function firewallRow(db: ServiceDeps['db'] | Tx, instanceId: string): Promise<FirewallRow | null> {
  const row = await db.instanceFirewall.findUnique({ where: { instanceId } });
  if (!row) return null;
  const lastTask = row.lastTaskId ? await db.task.findUnique({ where: { id: row.lastTaskId }, select: { status: true, errorCode: true } }) : null;
  return { ...row, lastTask };
}

/** GET /v1/instances/{id}/firewall: what the customer asked for, its revision and how applying it went. */
export async function readFirewall(deps: Pick<ServiceDeps, 'db'>, who: Caller, instanceId: string): Promise<FirewallState> {
  const instance = await findInstance(deps, who, instanceId);
  const row = await firewallRow(deps.db, instanceId);
  const spec = row ? specOf(row) : OPEN_FIREWALL;
  const ids = spec.rules.filter(isGroupEntry).map((entry) => entry.group);
  const names = ids.length > 0 ? await deps.db.firewallGroup.findMany({ where: { tenantId: instance.tenantId, id: { in: ids } }, select: { id: true, name: true } }) : [];
  return { spec, groupNames: new Map(names.map((g) => [g.id, g.name])), revision: row?.revision ?? 0, application: applicationOf(row, row?.lastTask ?? null) };
}

/**
 * The entries checked against the tenant's groups: each group named must be the tenant's, and the
 * list with its groups' rules in place holds at most MAX_FIREWALL_RULES rules.
 */
export async function checkEntries(tx: Tx, tenantId: string, rules: FirewallEntry[]): Promise<string[]> {
  const ids = [...new Set(rules.filter(isGroupEntry).map((entry) => entry.group))];
  // Decided one at a time with the tenant's group changes, so the limit holds after both.
  if (ids.length > 0) await lockKey(tx, tenantFirewallsKey(tenantId));
  const groups = await groupRules(tx, tenantId, ids);
  const unknown: Record<string, string> = {};
  rules.forEach((entry, i) => {
    if (isGroupEntry(entry) && !groups.has(entry.group)) unknown[`rules.${i}.group`] = 'no such firewall group';
  });
  if (Object.keys(unknown).length > 0) throw new AppError('INVALID_INPUT', 'The request refers to something that does not exist.', { fields: unknown });
  assertWithinRuleLimit(expandEntries(rules, groups).length);
  return ids;
}

export function assertWithinRuleLimit(count: number, server?: { id: string; hostname: string }): void {
  if (count <= MAX_FIREWALL_RULES) return;
  throw new AppError(
    'FIREWALL_RULE_LIMIT',
    server
      ? `The server ${server.hostname} would have ${count} firewall rules with this group; at most ${MAX_FIREWALL_RULES} are allowed.`
      : `A server has at most ${MAX_FIREWALL_RULES} firewall rules, its groups' rules counted in; this list has ${count}.`,
    { limit: MAX_FIREWALL_RULES, count, fields: { rules: `at most ${MAX_FIREWALL_RULES} rules` }, ...(server ? { instanceId: server.id } : {}) },
  );
}

export interface FirewallUpdateAnswer extends OperationAnswer {
  state: FirewallState;
}

/**
 * PUT /v1/instances/{id}/firewall: the whole list replaced, checked before anything is written
 * (the groups it names are the tenant's, the rule limit holds, `If-Match` names the revision),
 * then applied to the guest as the server's `firewall` operation.
 */
export async function requestFirewallUpdate(deps: OperationDeps, who: Principal, instanceId: string, spec: FirewallSpec, ifMatch: string | undefined): Promise<FirewallUpdateAnswer> {
  let before: InstanceFirewall | null = null;
  let written: number | undefined;
  const { taskId } = (await requestOperation(deps, who, instanceId, {
    operation: 'firewall',
    prepare: async (tx, instance) => {
      const row = await tx.instanceFirewall.findUnique({ where: { instanceId } });
      before = row;
      const revision = row?.revision ?? 0;
      written = revision + 1;
      if (ifMatch !== undefined && !ifMatchHolds(ifMatch, revision)) {
        throw new AppError('PRECONDITION_FAILED', "The server's firewall changed since it was read; read it again and reapply your change.", { etag: firewallETag(revision) });
      }
      const groupIds = await checkEntries(tx, instance.tenantId, spec.rules);
      const data = { inboundPolicy: spec.inboundPolicy, rules: spec.rules as unknown as Prisma.InputJsonValue, groupIds };
      await tx.instanceFirewall.upsert({
        where: { instanceId },
        create: { instanceId, ...data, revision: 1, generation: 1 },
        update: { ...data, revision: { increment: 1 }, generation: { increment: 1 } },
      });
      return {};
    },
  }).catch(async (error: unknown) => {
    // A committed change whose workflow could not start is taken back with the operation (nothing was changed).
    if (written !== undefined && error instanceof AppError && error.code === 'PROVIDER_UNAVAILABLE') await takeBack(deps, instanceId, before, written);
    throw error;
  })) as { taskId: string };
  await deps.db.instanceFirewall.update({ where: { instanceId }, data: { lastTaskId: taskId } });
  return { ...(await answer(deps, who, instanceId, taskId, 202)), state: await readFirewall(deps, who, instanceId) };
}

/** The firewall as it was before `revision` was written, if `revision` is what the row holds (a rolled-back transaction left it untouched). */
async function takeBack(deps: OperationDeps, instanceId: string, before: InstanceFirewall | null, revision: number): Promise<void> {
  if (!before) {
    await deps.db.instanceFirewall.deleteMany({ where: { instanceId, revision } });
    return;
  }
  const { instanceId: _id, updatedAt: _updatedAt, rules, ...columns } = before;
  await deps.db.instanceFirewall.updateMany({ where: { instanceId, revision }, data: { ...columns, rules: rules as Prisma.InputJsonValue } });
}

/**
 * Applies the server's firewall again because one of its groups changed (the group's fan-out):
 * a `firewall` operation when the guest does not hold the current generation yet, nothing
 * when it does (null).
 */
export async function requestFirewallReapply(deps: OperationDeps, who: Principal, instanceId: string): Promise<string | null> {
  const row = await deps.db.instanceFirewall.findUnique({ where: { instanceId }, select: { generation: true, appliedGeneration: true } });
  if (!row || row.appliedGeneration === row.generation) return null;
  const { taskId } = (await requestOperation(deps, who, instanceId, { operation: 'firewall' })) as { taskId: string };
  await deps.db.instanceFirewall.update({ where: { instanceId }, data: { lastTaskId: taskId } });
  return taskId;
}

