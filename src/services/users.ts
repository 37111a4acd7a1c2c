import { recordAudit } from '../db/audit';
import { endSessions } from '../db/sessions';
import { AppError, notFound } from '../domain/errors';
import type { Tenant, User } from '../generated/prisma/client';
import type { TenantRole } from '../generated/prisma/enums';
import { newId } from '../security/ids';
import { hashPasswordBounded } from '../security/password-hashing';
import type { ServiceDeps } from './deps';
import { issueInvite } from './invitations';
import type { PageArgs } from '../db/pages';
import { checkCurrentPassword } from './passwords';
import type { Principal } from './principal';
import { usageOf, type TenantWithUsage } from './tenants';

type Deps = Pick<ServiceDeps, 'db'>;

export async function findUser(deps: Deps, userId: string): Promise<User> {
  const user = await deps.db.user.findUnique({ where: { id: userId } });
  if (!user) throw notFound('user');
  return user;
}

/** What a user is made as: a tenant role, or `admin` (`customer` is kept for existing integrations: an owner). */
export type NewUserRole = TenantRole | 'admin' | 'customer';

/** A user of an existing tenant or an administrator; a taken email is a unique violation. */
export function createUser(deps: Deps, who: Principal, body: { email: string; role: NewUserRole; tenantId?: string | null }): Promise<User> {
  const tenantRole: TenantRole | null = body.role === 'admin' ? null : body.role === 'customer' ? 'owner' : body.role;
  const tenantId = tenantRole ? (body.tenantId ?? null) : null;
  return deps.db.$transaction(async (tx) => {
    if (tenantId && !(await tx.tenant.findUnique({ where: { id: tenantId }, select: { id: true } }))) {
      throw new AppError('INVALID_INPUT', 'The request body is invalid.', { fields: { tenantId: 'no such tenant' } });
    }
    const created = await tx.user.create({ data: { id: newId('usr'), tenantId, email: body.email, role: tenantRole ? 'customer' : 'admin', tenantRole } });
    await recordAudit(tx, { action: 'user.created', actorUserId: who.userId, tenantId, details: { userId: created.id, role: created.role, tenantRole } });
    return created;
  });
}

/** A tenant owner adds a user to their own tenant. */
export function createTenantUser(deps: Deps, who: Principal, body: { email: string; role: TenantRole }): Promise<User> {
  return createUser(deps, who, { ...body, tenantId: who.tenantId });
}

export function listUsers(deps: Deps, page: PageArgs, filters: { tenantId?: string }): Promise<User[]> {
  return deps.db.user.findMany({ ...page, where: { ...page.where, ...(filters.tenantId ? { tenantId: filters.tenantId } : {}) } });
}

/** A user of the caller's tenant; anyone else's is NOT_FOUND. */
export async function findTenantUser(deps: Deps, who: Principal, userId: string): Promise<User> {
  const user = await deps.db.user.findFirst({ where: { id: userId, tenantId: who.tenantId ?? '-' } });
  if (!user) throw notFound('user');
  return user;
}

/**
 * A tenant owner changes another user's role or disables (or enables) them. Never their own: the
 * tenant keeps the owner who asks. A viewer reads only, so a user made a viewer keeps `read` of
 * what was shared with them; a disabled user's sessions end and tokens stop (setUserDisabled).
 */
export async function changeTenantUser(deps: Deps, who: Principal, userId: string, change: { role?: TenantRole; disabled?: boolean }): Promise<User> {
  const user = await findTenantUser(deps, who, userId);
  if (user.id === who.userId) throw new AppError('INVALID_STATE', 'You cannot change your own role or disable yourself: another owner of the tenant can.');
  if (change.role && change.role !== user.tenantRole) {
    const role = change.role;
    await deps.db.$transaction(async (tx) => {
      await tx.user.update({ where: { id: user.id }, data: { tenantRole: role } });
      if (role === 'viewer') await tx.instanceGrant.updateMany({ where: { userId: user.id }, data: { permissions: ['read'] } });
      await recordAudit(tx, { action: 'user.role_changed', actorUserId: who.userId, tenantId: user.tenantId, details: { userId: user.id, tenantRole: role } });
    });
  }
  return change.disabled === undefined ? findUser(deps, user.id) : setUserDisabled(deps, who, user.id, change.disabled);
}

/** Disabling takes effect on the next request of every token and session of the user; enabling gives back the tokens still valid. */
export async function setUserDisabled(deps: Deps, who: Principal, userId: string, disabled: boolean): Promise<User> {
  if (disabled && userId === who.userId) {
    throw new AppError('INVALID_STATE', 'Administrators cannot disable themselves: another administrator must do it.');
  }
  return deps.db.$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({
      where: { id: userId, disabledAt: disabled ? null : { not: null } },
      data: { disabledAt: disabled ? new Date() : null },
    });
    const row = await tx.user.findUnique({ where: { id: userId } });
    if (!row) throw notFound('user');
    // Sessions end for good (enabling again does not bring them back); tokens wait for the user to be enabled.
    if (disabled) await endSessions(tx, { userId });
    if (count > 0) {
      await recordAudit(tx, { action: disabled ? 'user.disabled' : 'user.enabled', actorUserId: who.userId, tenantId: row.tenantId, details: { userId } });
    }
    return row;
  });
}

export interface Invite {
  id: string;
  userId: string;
  /** The invite link: its token rides after `#`, so it never reaches a server log. */
  url: string;
  expiresAt: Date;
}

/** A new invite link for a user; it replaces the user's unused ones. */
export async function inviteUser(deps: Pick<ServiceDeps, 'db' | 'config'>, who: Principal, userId: string): Promise<Invite> {
  const user = await findUser(deps, userId);
  const now = new Date();
  const expiresAt = new Date(now.getTime() + deps.config.INVITE_TTL_HOURS * 3_600_000);
  const { invite, url } = await deps.db.$transaction(async (tx) => {
    await tx.userInvite.updateMany({ where: { userId: user.id, usedAt: null, expiresAt: { gt: now } }, data: { expiresAt: now } });
    const issued = await issueInvite(tx, deps, { userId: user.id, email: user.email, tenantId: user.tenantId, tenantRole: null, createdBy: who.userId, expiresAt });
    await recordAudit(tx, { action: 'user.invited', actorUserId: who.userId, tenantId: user.tenantId, details: { userId: user.id, inviteId: issued.invite.id, expiresAt: expiresAt.toISOString() } });
    return issued;
  });
  return { id: invite.id, userId: user.id, url, expiresAt };
}

/** An administrator sets a user's password: every session of the user ends. */
export async function setUserPassword(deps: Pick<ServiceDeps, 'db' | 'config'>, who: Principal, userId: string, password: string): Promise<void> {
  const user = await findUser(deps, userId);
  const passwordHash = await hashPasswordBounded(deps.config, password);
  await deps.db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { passwordHash, passwordChangedAt: new Date() } });
    await endSessions(tx, { userId: user.id });
    await recordAudit(tx, { action: 'user.password_set', actorUserId: who.userId, tenantId: user.tenantId, details: { userId: user.id } });
  });
}

/**
 * The caller changes their own password: every other session of theirs ends, so whoever knew the
 * old password is signed out. A wrong current password counts against the sign-in lockout.
 */
export async function changeOwnPassword(deps: Pick<ServiceDeps, 'db' | 'config'>, who: Principal, body: { currentPassword: string; newPassword: string }, address: string): Promise<void> {
  const user = await deps.db.user.findUniqueOrThrow({ where: { id: who.userId } });
  await checkCurrentPassword(deps, user, body.currentPassword, address);
  const passwordHash = await hashPasswordBounded(deps.config, body.newPassword);
  await deps.db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { passwordHash, passwordChangedAt: new Date() } });
    await endSessions(tx, { userId: user.id, ...(who.sessionId ? { id: { not: who.sessionId } } : {}) });
    await recordAudit(tx, { action: 'user.password_changed', actorUserId: user.id, tenantId: user.tenantId, details: { userId: user.id } });
  });
}

/** The caller and, for a customer, their tenant with its usage. */
export async function readAccount(deps: Deps, who: Principal): Promise<{ user: User; tenant: TenantWithUsage | null }> {
  const user: User & { tenant: Tenant | null } = await deps.db.user.findUniqueOrThrow({ where: { id: who.userId }, include: { tenant: true } });
  return { user, tenant: user.tenant ? await usageOf(deps, user.tenant) : null };
}
