/**
 * A tenant owner's invitations: a one-time link for an email and a tenant role. Accepting it
 * (passwords.ts) makes the user with a password of their choosing. The link's token is shown in
 * the creating answer only; the database keeps its SHA-256 digest, as for API tokens.
 */
import { recordAudit } from '../db/audit';
import { appendEvents } from '../db/events';
import type { Db, Tx } from '../db/client';
import type { PageArgs } from '../db/pages';
import { AppError, notFound } from '../domain/errors';
import type { InstanceEventData } from '../domain/events';
import type { UserInvite } from '../generated/prisma/client';
import type { TenantRole } from '../generated/prisma/enums';
import { newId } from '../security/ids';
import { generateApiToken, hashToken, type SecretBox } from '../security/secrets';
import type { ServiceDeps } from './deps';
import type { Principal } from './principal';

type Deps = Pick<ServiceDeps, 'db' | 'config' | 'secrets'>;

/** Longest an invitation may stay usable: 30 days. */
export const MAX_INVITATION_HOURS = 720;

export type InvitationStatus = 'pending' | 'accepted' | 'expired' | 'revoked';

export const invitationStatus = (invite: UserInvite, now = new Date()): InvitationStatus =>
  invite.usedAt ? 'accepted' : invite.revokedAt ? 'revoked' : invite.expiresAt <= now ? 'expired' : 'pending';

export interface IssuedInvitation {
  invite: UserInvite;
  /** The one-time link: its token rides after `#`, so it never reaches a server log. In this answer only. */
  url: string;
}

/** A one-time link at PUBLIC_URL for a new invite row of `data` (its token's digest only is kept; with `sealWith`, the link sealed for the `user.invited` webhook). */
export async function issueInvite(
  tx: Tx | Db,
  deps: Pick<ServiceDeps, 'config'>,
  data: Pick<UserInvite, 'email' | 'tenantId' | 'tenantRole' | 'userId' | 'createdBy' | 'expiresAt'>,
  sealWith?: SecretBox,
): Promise<IssuedInvitation> {
  const token = generateApiToken();
  const id = newId('inv');
  const url = `${deps.config.PUBLIC_URL}/invite#${token}`;
  const invite = await tx.userInvite.create({ data: { id, tokenHash: hashToken(token), linkCipher: sealWith?.seal(url, id) ?? null, ...data } });
  return { invite, url };
}

/** What a `user.*` event says of an invitation: never its link. */
export const invitationEventData = (invite: UserInvite, userId?: string): InstanceEventData => ({
  status: invitationStatus(invite),
  invitation: { id: invite.id, email: invite.email, role: invite.tenantRole ?? 'viewer', expiresAt: invite.expiresAt.toISOString(), ...(userId ? { userId } : {}) },
});

/**
 * A tenant owner invites `email` into their tenant as `role`; an email that has an account
 * already is 409 CONFLICT. The `user.invited` event's webhooks carry the link to whatever mails it.
 */
export async function createInvitation(deps: Deps, who: Principal, body: { email: string; role: TenantRole; expiresInHours?: number }): Promise<IssuedInvitation> {
  const tenantId = who.tenantId ?? '-';
  const now = new Date();
  const expiresAt = new Date(now.getTime() + (body.expiresInHours ?? Math.min(deps.config.INVITE_TTL_HOURS, MAX_INVITATION_HOURS)) * 3_600_000);
  return deps.db.$transaction(async (tx) => {
    if (await tx.user.findUnique({ where: { email: body.email }, select: { id: true } })) {
      throw new AppError('CONFLICT', 'A user with this email already exists.', { fields: { email: 'already in use' } });
    }
    // The newest link for an email is the one that works: an earlier pending one is revoked.
    await tx.userInvite.updateMany({ where: { tenantId, email: body.email, userId: null, usedAt: null, revokedAt: null, expiresAt: { gt: now } }, data: { revokedAt: now, linkCipher: null } });
    const issued = await issueInvite(tx, deps, { email: body.email, tenantId, tenantRole: body.role, userId: null, createdBy: who.userId, expiresAt }, deps.secrets);
    await recordAudit(tx, { action: 'user.invited', actorUserId: who.userId, tenantId, details: { inviteId: issued.invite.id, role: body.role, expiresAt: expiresAt.toISOString() } });
    await appendEvents(tx, { tenantId, instanceId: issued.invite.id }, [{ type: 'user.invited', data: invitationEventData(issued.invite) }]);
    return issued;
  });
}

/** The caller's tenant's invitations, newest first, whatever their status. */
export function listInvitations(deps: Pick<ServiceDeps, 'db'>, who: Principal, page: PageArgs): Promise<UserInvite[]> {
  return deps.db.userInvite.findMany({ ...page, where: { ...page.where, tenantId: who.tenantId ?? '-' } });
}

/** Revokes a pending invitation of the caller's tenant; one accepted, expired or revoked already is 409 INVALID_STATE. */
export async function revokeInvitation(deps: Pick<ServiceDeps, 'db'>, who: Principal, id: string): Promise<UserInvite> {
  return deps.db.$transaction(async (tx) => {
    const invite = await tx.userInvite.findFirst({ where: { id, tenantId: who.tenantId ?? '-' } });
    if (!invite) throw notFound('invitation');
    const now = new Date();
    const { count } = await tx.userInvite.updateMany({ where: { id, usedAt: null, revokedAt: null, expiresAt: { gt: now } }, data: { revokedAt: now, linkCipher: null } });
    if (count === 0) throw new AppError('INVALID_STATE', `This invitation is ${invitationStatus(invite, now)} already: only a pending one can be revoked.`);
    await recordAudit(tx, { action: 'user.invite_revoked', actorUserId: who.userId, tenantId: invite.tenantId, details: { inviteId: id } });
    return { ...invite, revokedAt: now };
  });
}
