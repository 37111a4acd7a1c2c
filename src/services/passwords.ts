import type { Config } from '../config';
import { recordAudit } from '../db/audit';
import { appendEvents } from '../db/events';
import type { Db, Tx } from '../db/client';
import { AppError } from '../domain/errors';
import type { User, UserInvite } from '../generated/prisma/client';
import { newId } from '../security/ids';
import { hashPasswordBounded, verifyPasswordBounded } from '../security/password-hashing';
import { hashToken } from '../security/secrets';
import { usesCurrentParameters } from '../security/user-passwords';
import { invitationEventData } from './invitations';
import { attemptSucceeded, type PasswordAttempt, recordAttempt, withdrawAttempt } from './login-attempts';

/**
 * Everything that checks a password or an invite link. Each check counts against the sign-in
 * lockout (login-attempts.ts) and is refused while it holds, before any hashing; hashing itself
 * waits for one of the process's bounded slots (password-hashing.ts).
 */

export type PasswordDeps = { db: Db; config: Config };

const isBusy = (error: unknown) => error instanceof AppError && error.code === 'SERVICE_BUSY';

/**
 * Runs `check` as one attempt. It fails unless `check` returns; an attempt that could not be
 * made for want of a hashing slot is withdrawn, so a busy answer never counts as a failure.
 */
async function attempted<T>(deps: PasswordDeps, attempt: PasswordAttempt, check: () => Promise<T>, accountOf: (result: T) => string | null): Promise<T> {
  const id = await recordAttempt(deps, attempt);
  let result: T;
  try {
    result = await check();
  } catch (error) {
    if (isBusy(error)) await withdrawAttempt(deps.db, id);
    throw error;
  }
  await attemptSucceeded(deps.db, id, accountOf(result));
  return result;
}

/**
 * A hash made with older scrypt parameters is made again with today's, now that the password is
 * known. Only if a slot is free (otherwise the next sign-in does it) and only over that same
 * hash, so a password changed meanwhile stays.
 */
async function upgradeStaleHash(deps: PasswordDeps, user: User, password: string): Promise<void> {
  if (!user.passwordHash || usesCurrentParameters(user.passwordHash)) return;
  let passwordHash: string;
  try {
    passwordHash = await hashPasswordBounded(deps.config, password);
  } catch (error) {
    if (isBusy(error)) return;
    throw error;
  }
  await deps.db.user.updateMany({ where: { id: user.id, passwordHash: user.passwordHash }, data: { passwordHash } });
}

/** Checks an email and password from `address`; the user signed in, or 401, 403 (disabled), 429 (locked) or 503 (busy). */
export async function signIn(deps: PasswordDeps, email: string, password: string, address: string): Promise<User> {
  const user = await attempted(
    deps,
    { kind: 'sign_in', email, address },
    async () => {
      const found = await deps.db.user.findUnique({ where: { email } });
      if (!(await verifyPasswordBounded(deps.config, password, found?.passwordHash)) || !found) {
        throw new AppError('UNAUTHENTICATED', 'The email or the password is not right.');
      }
      return found;
    },
    () => email,
  );
  if (user.disabledAt) throw new AppError('FORBIDDEN', 'This account is disabled. Ask an administrator to enable it.');
  await upgradeStaleHash(deps, user, password);
  return user;
}

/** One answer for every link that does not work (unknown, used, expired, revoked), so nothing can be learnt by trying links. */
const inviteInvalid = () => new AppError('INVITE_INVALID', 'This invite link is unknown, used already, expired or revoked. Ask whoever invited you for a new one.');

/** The user an accepted invite is for: an existing user's first password, or a tenant owner's invitation made into a new user of the tenant. */
async function invitedUser(tx: Tx, invite: UserInvite, passwordHash: string, now: Date): Promise<User> {
  if (invite.userId) return tx.user.update({ where: { id: invite.userId }, data: { passwordHash, passwordChangedAt: now } });
  if (await tx.user.findUnique({ where: { email: invite.email }, select: { id: true } })) {
    throw new AppError('CONFLICT', 'An account with this email exists already: sign in with it instead.');
  }
  const user = await tx.user.create({
    data: { id: newId('usr'), tenantId: invite.tenantId, email: invite.email, role: 'customer', tenantRole: invite.tenantRole ?? 'viewer', passwordHash, passwordChangedAt: now },
  });
  const accepted = await tx.userInvite.update({ where: { id: invite.id }, data: { userId: user.id } });
  await recordAudit(tx, { action: 'user.created', actorUserId: user.id, tenantId: user.tenantId, details: { userId: user.id, role: user.role, tenantRole: user.tenantRole, inviteId: invite.id } });
  await appendEvents(tx, { tenantId: user.tenantId ?? '-', instanceId: invite.id }, [{ type: 'user.joined', data: invitationEventData(accepted, user.id) }]);
  return user;
}

/**
 * Sets an invited user's first password, making the user first for a tenant owner's invitation.
 * The link is checked before any hashing, so a wrong link costs no scrypt work; wrong links count
 * against the address's lockout (they name no account).
 */
export async function acceptInvite(deps: PasswordDeps, token: string, password: string, address: string): Promise<User> {
  const { db, config } = deps;
  const tokenHash = hashToken(token);
  return attempted(
    deps,
    { kind: 'invite', email: null, address },
    async () => {
      const invite = await db.userInvite.findUnique({ where: { tokenHash } });
      if (!invite || invite.usedAt || invite.revokedAt || invite.expiresAt <= new Date()) throw inviteInvalid();
      const passwordHash = await hashPasswordBounded(config, password);
      return db.$transaction(async (tx) => {
        const now = new Date();
        // Conditional, so two tabs accepting one link at once set one password.
        const { count } = await tx.userInvite.updateMany({ where: { id: invite.id, usedAt: null, revokedAt: null, expiresAt: { gt: now } }, data: { usedAt: now, linkCipher: null } });
        if (count === 0) throw inviteInvalid();
        const updated = await invitedUser(tx, invite, passwordHash, now);
        await recordAudit(tx, { action: 'user.invite_accepted', actorUserId: updated.id, tenantId: updated.tenantId, details: { userId: updated.id, inviteId: invite.id } });
        return updated;
      });
    },
    (user) => user.email,
  );
}

/**
 * The current password a user names to change it: a wrong one counts against the lockout like a
 * failed sign-in, since it would otherwise let a stolen session guess the password unhindered.
 */
export async function checkCurrentPassword(deps: PasswordDeps, user: User, currentPassword: string, address: string): Promise<void> {
  await attempted(
    deps,
    { kind: 'password_change', email: user.email, address },
    async () => {
      if (!(await verifyPasswordBounded(deps.config, currentPassword, user.passwordHash))) {
        throw new AppError('INVALID_INPUT', 'The request body is invalid.', { fields: { currentPassword: 'not your current password' } });
      }
    },
    () => user.email,
  );
}
