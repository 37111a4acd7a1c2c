/**
 * Projects inside a tenant: every server belongs to one. A project may restrict the plans, images
 * and locations its servers use and carry its own quota inside the tenant's (both enforced in the
 * create's transaction, see create-instance.ts); its members hold a role in it (authorization.ts
 * decides with it). Tenant owners manage projects; the default project holds what was made
 * without naming one and is never deleted.
 */
import { recordAudit } from '../db/audit';
import type { Tx } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import type { PageArgs } from '../db/pages';
import { AppError, notFound } from '../domain/errors';
import type { Prisma, Project, ProjectMember, User } from '../generated/prisma/client';
import type { ProjectRole } from '../generated/prisma/enums';
import { newId } from '../security/ids';
import { decideOnProject } from './access';
import { readableProjects } from './authorization';
import type { ServiceDeps } from './deps';
import type { Principal } from './principal';
import type { Quota } from './tenants';

type Deps = Pick<ServiceDeps, 'db'>;

export type MemberRow = ProjectMember & { user: User };

/** A project with its members and what its servers whose quota is still charged hold. */
export type ProjectWithUsage = Project & { members: MemberRow[]; usage: Quota };

/** What a project is made or changed with; what is left out stays as it is (a new project: no restriction, no quota of its own). */
export interface ProjectBody {
  name?: string;
  /** Null: no restriction. */
  allowedPlanIds?: string[] | null;
  allowedImageIds?: string[] | null;
  allowedLocationIds?: string[] | null;
  /** Null: only the tenant's quota. */
  quota?: Quota | null;
}

export const projectNotFound = () => new AppError('NOT_FOUND', 'The project was not found.', { fields: { projectId: 'no such project' } });

/** The caller's tenant: projects are customers' (the route table refuses administrators). */
function tenantOf(who: Principal): string {
  if (!who.tenantId) throw new AppError('FORBIDDEN', 'This account belongs to no tenant.');
  return who.tenantId;
}

const invalid = (field: string, problem: string) => new AppError('INVALID_INPUT', 'The request body is invalid.', { fields: { [field]: problem } });
const nameTaken = () => new AppError('CONFLICT', 'The tenant already has a project of that name.', { fields: { name: 'taken' } });

/**
 * The project a create goes into (the tenant's default one, or a project token's own, when none is
 * named), once `can` allowed the caller to create servers in it.
 */
export async function projectToCreateIn(deps: Deps, who: Principal, projectId: string | undefined): Promise<string> {
  const id = projectId ?? who.tokenProjectId ?? (await deps.db.project.findFirst({ where: { tenantId: tenantOf(who), isDefault: true }, select: { id: true } }))?.id;
  if (!id) throw projectNotFound();
  const decision = await decideOnProject(deps, who, 'server.create', id);
  if (!decision.allowed) throw decision.hidden ? projectNotFound() : new AppError('FORBIDDEN', decision.reason, { action: 'server.create' });
  return id;
}

const memberInclude = { members: { include: { user: true }, orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }] } } satisfies Prisma.ProjectInclude;

async function withUsage(deps: Deps, projects: (Project & { members: MemberRow[] })[]): Promise<ProjectWithUsage[]> {
  const sums = await deps.db.instance.groupBy({
    by: ['projectId'],
    where: { projectId: { in: projects.map((p) => p.id) }, quotaReleasedAt: null },
    _count: { _all: true },
    _sum: { chargedVcpus: true, chargedMemoryMiB: true, chargedDiskGiB: true },
  });
  const byProject = new Map(sums.map((s) => [s.projectId, s]));
  return projects.map((project) => {
    const sum = byProject.get(project.id);
    return { ...project, usage: { instances: sum?._count._all ?? 0, vcpus: sum?._sum.chargedVcpus ?? 0, memoryMiB: sum?._sum.chargedMemoryMiB ?? 0, diskGiB: sum?._sum.chargedDiskGiB ?? 0 } };
  });
}

/** The projects the caller may see, newest first. */
export async function listProjects(deps: Deps, who: Principal, page: PageArgs): Promise<ProjectWithUsage[]> {
  return withUsage(deps, await deps.db.project.findMany({ ...page, where: { AND: [page.where, readableProjects(who)] }, include: memberInclude }));
}

/** One project (the route decided the caller may see it). */
export async function findProject(deps: Deps, who: Principal, id: string): Promise<ProjectWithUsage> {
  const project = await deps.db.project.findFirst({ where: { id, tenantId: tenantOf(who) }, include: memberInclude });
  if (!project) throw notFound('project');
  const [found] = await withUsage(deps, [project]);
  return found as ProjectWithUsage;
}

/** The ids a restriction names must exist in the catalog. */
async function assertCatalogIds(tx: Tx, body: ProjectBody): Promise<void> {
  const lookups = [
    ['allowedPlanIds', body.allowedPlanIds, (ids: string[]) => tx.plan.findMany({ where: { id: { in: ids } }, select: { id: true } })],
    ['allowedImageIds', body.allowedImageIds, (ids: string[]) => tx.image.findMany({ where: { id: { in: ids } }, select: { id: true } })],
    ['allowedLocationIds', body.allowedLocationIds, (ids: string[]) => tx.location.findMany({ where: { id: { in: ids } }, select: { id: true } })],
  ] as const;
  for (const [field, ids, find] of lookups) {
    if (!ids) continue;
    const known = new Set((await find(ids)).map((row) => row.id));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length > 0) throw invalid(field, `no such ${field.slice('allowed'.length, -'Ids'.length).toLowerCase()}: ${unknown.join(', ')}`);
  }
}

/** The columns of what a body sets; a restriction of null is stored as an empty list. */
function columnsOf(body: ProjectBody) {
  const list = (ids: string[] | null) => [...new Set(ids ?? [])];
  return {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.allowedPlanIds !== undefined ? { allowedPlanIds: list(body.allowedPlanIds) } : {}),
    ...(body.allowedImageIds !== undefined ? { allowedImageIds: list(body.allowedImageIds) } : {}),
    ...(body.allowedLocationIds !== undefined ? { allowedLocationIds: list(body.allowedLocationIds) } : {}),
    ...(body.quota !== undefined
      ? { quotaInstances: body.quota?.instances ?? null, quotaVcpus: body.quota?.vcpus ?? null, quotaMemoryMiB: body.quota?.memoryMiB ?? null, quotaDiskGiB: body.quota?.diskGiB ?? null }
      : {}),
  };
}

async function renamingSafely<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

/** POST /v1/projects: a project of the caller's tenant. */
export async function createProject(deps: Deps, who: Principal, body: ProjectBody & { name: string }): Promise<ProjectWithUsage> {
  const tenantId = tenantOf(who);
  const id = await renamingSafely(() =>
    deps.db.$transaction(async (tx) => {
      await assertCatalogIds(tx, body);
      const row = await tx.project.create({ data: { id: newId('prj'), tenantId, ...columnsOf(body), name: body.name } });
      await recordAudit(tx, { action: 'project.created', actorUserId: who.userId, tenantId, details: { projectId: row.id, name: row.name } });
      return row.id;
    }),
  );
  return findProject(deps, who, id);
}

/** PATCH /v1/projects/{id}: the update locks the project's row, so it waits for a create in it under way (and the next create sees it). */
export async function updateProject(deps: Deps, who: Principal, id: string, body: ProjectBody): Promise<ProjectWithUsage> {
  await renamingSafely(() =>
    deps.db.$transaction(async (tx) => {
      await assertCatalogIds(tx, body);
      const { count } = await tx.project.updateMany({ where: { id, tenantId: tenantOf(who) }, data: columnsOf(body) });
      if (count === 0) throw notFound('project');
      await recordAudit(tx, { action: 'project.updated', actorUserId: who.userId, tenantId: tenantOf(who), details: { projectId: id, changed: Object.keys(body) } });
    }),
  );
  return findProject(deps, who, id);
}

/**
 * DELETE /v1/projects/{id}: only a project without servers, never the default one. Its deleted
 * servers (they stay readable) move to the default project; tokens limited to it go with it.
 */
export async function deleteProject(deps: Deps, who: Principal, id: string): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    const [project] = await tx.$queryRaw<Project[]>`SELECT * FROM projects WHERE id = ${id} AND "tenantId" = ${tenantOf(who)} FOR UPDATE`;
    if (!project) throw notFound('project');
    if (project.isDefault) throw new AppError('PROJECT_IS_DEFAULT', "The tenant's default project cannot be deleted.");
    const servers = await tx.instance.count({ where: { projectId: id, status: { not: 'deleted' } } });
    if (servers > 0) throw new AppError('PROJECT_IN_USE', 'The project still has servers; delete them or wait for their deletion first.', { servers });
    const fallback = await tx.project.findFirstOrThrow({ where: { tenantId: project.tenantId, isDefault: true }, select: { id: true } });
    await tx.instance.updateMany({ where: { projectId: id }, data: { projectId: fallback.id } });
    await tx.project.delete({ where: { id } });
    await recordAudit(tx, { action: 'project.deleted', actorUserId: who.userId, tenantId: project.tenantId, details: { projectId: id, name: project.name } });
  });
}

/** PUT /v1/projects/{id}/members/{userId}: gives a user of the tenant a role in the project (or changes it). */
export async function setProjectMember(deps: Deps, who: Principal, id: string, userId: string, role: ProjectRole): Promise<MemberRow> {
  return deps.db.$transaction(async (tx) => {
    const user = await tx.user.findFirst({ where: { id: userId, tenantId: tenantOf(who) } });
    if (!user) throw invalid('userId', 'no such user in this tenant');
    if (user.tenantRole === 'viewer' && role !== 'viewer') throw invalid('role', 'a tenant viewer can be given viewer only');
    const member = await tx.projectMember.upsert({
      where: { projectId_userId: { projectId: id, userId } },
      create: { projectId: id, userId, role },
      update: { role },
      include: { user: true },
    });
    await recordAudit(tx, { action: 'project.member_set', actorUserId: who.userId, tenantId: tenantOf(who), details: { projectId: id, userId, role } });
    return member;
  });
}

/** DELETE /v1/projects/{id}/members/{userId}: the user no longer sees the project's servers (theirs and what was shared with them aside). */
export async function removeProjectMember(deps: Deps, who: Principal, id: string, userId: string): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    const { count } = await tx.projectMember.deleteMany({ where: { projectId: id, userId } });
    if (count === 0) throw notFound('member');
    await recordAudit(tx, { action: 'project.member_removed', actorUserId: who.userId, tenantId: tenantOf(who), details: { projectId: id, userId } });
  });
}
