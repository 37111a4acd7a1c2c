/**
 * What the authorization decision needs to know about a request's target, read from the
 * database: the server a route acts on (named directly, or through one of its backups or tasks)
 * with what it was shared with the caller.
 */
import { AppError, notFound } from '../domain/errors';
import type { ServiceDeps } from './deps';
import { can, type Action, type Actor, type Decision, type Target } from './authorization';
import { tenantScope } from './principal';

type Deps = Pick<ServiceDeps, 'db'>;

/** Where a route's server comes from: its `:id` names the server, one of its backups or one of its tasks. */
export type TargetSource = 'instance' | 'backup' | 'task';

const NAMES: Record<TargetSource, string> = { instance: 'server', backup: 'backup', task: 'task' };

/** The server `id` names (or whose backup or task it is), as the decision sees it; another tenant's is NOT_FOUND. */
export async function serverTarget(deps: Deps, who: Actor, source: TargetSource, id: string): Promise<Target> {
  const scope = tenantScope(who);
  const where = source === 'instance' ? { id, ...scope } : source === 'backup' ? { backups: { some: { id, ...scope } } } : { tasks: { some: { id, ...scope } } };
  const server = await deps.db.instance.findFirst({
    where,
    select: { tenantId: true, userId: true, grants: { where: { userId: who.userId }, select: { permissions: true } } },
  });
  if (!server) throw notFound(NAMES[source]);
  return { kind: 'server', tenantId: server.tenantId, userId: server.userId, grant: server.grants[0]?.permissions ?? null };
}

/** Decides `action` on the server `instanceId` now (the event streams re-ask while they run). */
export async function decideOnServer(deps: Deps, who: Actor, action: Action, instanceId: string): Promise<Decision> {
  try {
    return can(who, action, await serverTarget(deps, who, 'instance', instanceId));
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return { allowed: false, reason: 'No such server.', hidden: true };
    throw error;
  }
}
