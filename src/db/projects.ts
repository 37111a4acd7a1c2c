/**
 * Projects as a create and a new tenant need them: the tenant's default project, and the project
 * a create goes into, locked and read under its lock so its restrictions and quota hold for it.
 */
import { AppError } from '../domain/errors';
import { Prisma, type Project } from '../generated/prisma/client';
import { newId } from '../security/ids';
import { runSql, type Queryable, type Tx } from './client';

/** The name a tenant's default project is made with (it can be renamed). */
export const DEFAULT_PROJECT_NAME = 'Default';

/** Every tenant is made with its default project, in the transaction that makes the tenant. */
export function createDefaultProject(tx: Tx, tenantId: string): Promise<Project> {
  return tx.project.create({ data: { id: newId('prj'), tenantId, name: DEFAULT_PROJECT_NAME, isDefault: true } });
}

/**
 * The project a create (or a resize or rebuild) is charged to, its row locked (FOR NO KEY UPDATE,
 * after the user's and before the tenant's: see reservations.ts) until commit, so a change of its
 * restrictions or quota either waits for this request or is seen by it. Null when the tenant has
 * no such project (any more).
 */
export async function lockProject(tx: Queryable, tenantId: string, projectId: string): Promise<Project | null> {
  const [project] = await runSql<Project>(tx, Prisma.sql`SELECT * FROM projects WHERE id = ${projectId} AND "tenantId" = ${tenantId} FOR NO KEY UPDATE`);
  return project ?? null;
}

/** What a server is to use (a create: all three; a resize its plan, a rebuild its image), checked against the project's restrictions (an empty list restricts nothing). */
export function assertProjectAllows(project: Pick<Project, 'allowedPlanIds' | 'allowedImageIds' | 'allowedLocationIds'>, uses: { planId?: string; imageId?: string; locationId?: string }): void {
  const refusals = [
    ['PROJECT_PLAN_NOT_ALLOWED', 'planId', 'plan', project.allowedPlanIds, uses.planId],
    ['PROJECT_IMAGE_NOT_ALLOWED', 'imageId', 'image', project.allowedImageIds, uses.imageId],
    ['PROJECT_LOCATION_NOT_ALLOWED', 'locationId', 'location', project.allowedLocationIds, uses.locationId],
  ] as const;
  for (const [code, field, what, allowed, used] of refusals) {
    if (used !== undefined && allowed.length > 0 && !allowed.includes(used)) {
      throw new AppError(code, `This project's servers may not use this ${what}; choose one of those it allows.`, { fields: { [field]: 'not allowed in this project' }, allowed });
    }
  }
}
