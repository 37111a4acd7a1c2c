/**
 * What the authorization decision needs to know about a request's target, read from the
 * database: the server a route acts on (named directly, or through one of its backups or tasks)
 * with what it was shared with the caller.
 */
import { AppError, notFound } from '../domain/errors';
import type { ServiceDeps } from './deps';
import { can, type Action, type Actor, type Decision, type ProjectTarget, type Target } from './authorization';
import { tenantScope } from './principal';

type Deps = Pick<ServiceDeps, 'db'>;

/** Where a route's target comes from: its `:id` names the server, one of its backups or one of its tasks, or a project. */
export type TargetSource = 'instance' | 'backup' | 'task' | 'project';

const NAMES: Record<TargetSource, string> = { instance: 'server', backup: 'backup', task: 'task', project: 'project' };

/** What a route's `:id` names, as the decision sees it; another tenant's is NOT_FOUND. */
export function targetOf(deps: Deps, who: Actor, source: TargetSource, id: string): Promise<Target> {
  return source === 'project' ? projectTarget(deps, who, id) : serverTarget(deps, who, source, id);
}

/** The project `id` of the caller's tenant with the caller's role in it; another tenant's is NOT_FOUND. */
export async function projectTarget(deps: Deps, who: Actor, id: string): Promise<ProjectTarget> {
  const project = await deps.db.project.findFirst({ where: { id, ...tenantScope(who) }, select: { tenantId: true, isDefault: true, members: { where: { userId: who.userId }, select: { role: true } } } });
  if (!project) throw notFound('project');
  return { kind: 'project', tenantId: project.tenantId, projectId: id, isDefault: project.isDefault, role: project.members[0]?.role ?? null };
}

/** The server `id` names (or whose backup or task it is), as the decision sees it; another tenant's is NOT_FOUND. */
export async function serverTarget(deps: Deps, who: Actor, source: Exclude<TargetSource, 'project'>, id: string): Promise<Target> {
  const scope = tenantScope(who);
  const where = source === 'instance' ? { id, ...scope } : source === 'backup' ? { backups: { some: { id, ...scope } } } : { tasks: { some: { id, ...scope } } };
  const server = await deps.db.instance.findFirst({
    where,
    select: {
      tenantId: true,
      projectId: true,
      userId: true,
      grants: { where: { userId: who.userId }, select: { permissions: true } },
      project: { select: { members: { where: { userId: who.userId }, select: { role: true } } } },
    },
  });
  if (!server) throw notFound(NAMES[source]);
  return {
    kind: 'server',
    tenantId: server.tenantId,
    projectId: server.projectId,
    userId: server.userId,
    grant: server.grants[0]?.permissions ?? null,
    projectRole: server.project.members[0]?.role ?? null,
  };
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

/** Decides `action` on the project `projectId` (a create in it, a token limited to it). */
export async function decideOnProject(deps: Deps, who: Actor, action: Action, projectId: string): Promise<Decision> {
  try {
    return can(who, action, await projectTarget(deps, who, projectId));
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return { allowed: false, reason: 'No such project.', hidden: true };
    throw error;
  }
}
