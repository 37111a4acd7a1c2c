import type { Db } from '../db/client';
import { AppError } from '../domain/errors';
import type { User } from '../generated/prisma/client';
import { verifyUserPassword } from '../security/user-passwords';
import type { ServiceDeps } from './deps';

const minutesText = (seconds: number) => {
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
};

/**
 * When the `limit`-th newest of these failures leaves the lockout window: from then on fewer
 * than `limit` count, and sign-ins are let through again.
 */
async function unlockInSeconds(db: Db, where: object, limit: number, windowMs: number, now: Date): Promise<number> {
  const [oldest] = await db.loginAttempt.findMany({ where, orderBy: { id: 'desc' }, skip: limit - 1, take: 1, select: { at: true } });
  return Math.max(1, Math.ceil(((oldest?.at.getTime() ?? now.getTime()) + windowMs - now.getTime()) / 1000));
}

/**
 * Checks an email and password, counting every attempt. The attempt is recorded (as failed)
 * before anything is checked and only the attempts before it are counted, so concurrent guesses
 * count against each other. Once LOGIN_MAX_FAILURES_PER_ACCOUNT failures of the account (since
 * its last success) or LOGIN_MAX_FAILURES_PER_ADDRESS failures from the address fall within
 * LOGIN_LOCKOUT_MINUTES, sign-ins are refused with 429 SIGN_IN_LOCKED, without checking the
 * password and without counting the refused attempt (so the lockout ends on time).
 */
export async function checkSignIn(deps: Pick<ServiceDeps, 'db' | 'config'>, email: string, password: string, address: string): Promise<User> {
  const { db, config } = deps;
  const now = new Date();
  const windowMs = config.LOGIN_LOCKOUT_MINUTES * 60_000;
  const since = new Date(now.getTime() - windowMs);
  const attempt = await db.loginAttempt.create({ data: { email, address, succeeded: false, at: now } });
  const lastSuccess = await db.loginAttempt.findFirst({ where: { email, succeeded: true }, orderBy: { id: 'desc' }, select: { id: true } });
  const accountFailures = { email, succeeded: false, at: { gt: since }, id: { lt: attempt.id, gt: lastSuccess?.id ?? 0n } };
  const addressFailures = { address, succeeded: false, at: { gt: since }, id: { lt: attempt.id } };
  const [byAccount, byAddress] = await Promise.all([db.loginAttempt.count({ where: accountFailures }), db.loginAttempt.count({ where: addressFailures })]);
  const locked =
    byAccount >= config.LOGIN_MAX_FAILURES_PER_ACCOUNT
      ? { who: 'this account', where: accountFailures, limit: config.LOGIN_MAX_FAILURES_PER_ACCOUNT }
      : byAddress >= config.LOGIN_MAX_FAILURES_PER_ADDRESS
        ? { who: 'your address', where: addressFailures, limit: config.LOGIN_MAX_FAILURES_PER_ADDRESS }
        : undefined;
  if (locked) {
    await db.loginAttempt.delete({ where: { id: attempt.id } });
    const retryAfterSeconds = await unlockInSeconds(db, locked.where, locked.limit, windowMs, now);
    throw new AppError('SIGN_IN_LOCKED', `Too many failed sign-ins for ${locked.who}. Try again in ${minutesText(retryAfterSeconds)}.`, { retryAfterSeconds });
  }
  const user = await db.user.findUnique({ where: { email } });
  if (!(await verifyUserPassword(password, user?.passwordHash)) || !user) {
    throw new AppError('UNAUTHENTICATED', 'The email or the password is not right.');
  }
  await db.loginAttempt.update({ where: { id: attempt.id }, data: { succeeded: true } });
  if (user.disabledAt) throw new AppError('FORBIDDEN', 'This account is disabled. Ask an administrator to enable it.');
  return user;
}
