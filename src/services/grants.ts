/**
 * Sharing a server with another user of its tenant: a grant names what they may do to it
 * (authorization.ts decides with it). Revoking or narrowing one ends what it no longer allows:
 * the relay's watch closes their consoles and their event streams end at the next heartbeat.
 */
import { recordAudit } from '../db/audit';
import { AppError, notFound } from '../domain/errors';
import type { InstanceGrant, User } from '../generated/prisma/client';
import { newId } from '../security/ids';
import { SERVER_PERMISSIONS, type ServerPermission } from './authorization';
import type { ServiceDeps } from './deps';
import { findInstance } from './instances';
import type { Principal } from './principal';

type Deps = Pick<ServiceDeps, 'db'>;

export type GrantRow = InstanceGrant & { user: User };

const invalid = (field: string, problem: string) => new AppError('INVALID_INPUT', 'The request body is invalid.', { fields: { [field]: problem } });

/** The permissions as stored: each once, `read` always, in the order SERVER_PERMISSIONS lists them. */
export const normalizedPermissions = (asked: readonly ServerPermission[]): ServerPermission[] => SERVER_PERMISSIONS.filter((p) => p === 'read' || asked.includes(p));

/** Shares the server with `userId` (replacing what it was shared with before); never across tenants. */
export async function shareServer(deps: Deps, who: Principal, instanceId: string, body: { userId: string; permissions: ServerPermission[] }): Promise<GrantRow> {
  const instance = await findInstance(deps, who, instanceId);
  const permissions = normalizedPermissions(body.permissions);
  return deps.db.$transaction(async (tx) => {
    const grantee = await tx.user.findFirst({ where: { id: body.userId, tenantId: instance.tenantId } });
    if (!grantee) throw invalid('userId', 'no such user in this tenant');
    if (grantee.id === instance.userId) throw invalid('userId', 'the server’s creator holds every permission already');
    if (grantee.tenantRole === 'viewer' && permissions.length > 1) throw invalid('permissions', 'a viewer can be given read only');
    const before = await tx.instanceGrant.findUnique({ where: { instanceId_userId: { instanceId, userId: grantee.id } } });
    const grant = await tx.instanceGrant.upsert({
      where: { instanceId_userId: { instanceId, userId: grantee.id } },
      create: { id: newId('grt'), instanceId, userId: grantee.id, permissions, createdBy: who.userId },
      update: { permissions },
      include: { user: true },
    });
    await recordAudit(tx, { action: before ? 'grant.changed' : 'grant.given', actorUserId: who.userId, tenantId: instance.tenantId, instanceId, details: { userId: grantee.id, permissions } });
    return grant;
  });
}

/** Who the server is shared with, oldest grant first. */
export async function listGrants(deps: Deps, who: Principal, instanceId: string): Promise<GrantRow[]> {
  const instance = await findInstance(deps, who, instanceId);
  return deps.db.instanceGrant.findMany({ where: { instanceId: instance.id }, include: { user: true }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

/** Ends the sharing with `userId`: from the next request on, the server is not theirs to see. */
export async function revokeGrant(deps: Deps, who: Principal, instanceId: string, userId: string): Promise<void> {
  const instance = await findInstance(deps, who, instanceId);
  await deps.db.$transaction(async (tx) => {
    const { count } = await tx.instanceGrant.deleteMany({ where: { instanceId: instance.id, userId } });
    if (count === 0) throw notFound('grant');
    await recordAudit(tx, { action: 'grant.revoked', actorUserId: who.userId, tenantId: instance.tenantId, instanceId: instance.id, details: { userId } });
  });
}
