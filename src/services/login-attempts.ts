import type { Config } from '../config';
import type { Db } from '../db/client';
import { AppError } from '../domain/errors';
import type { PasswordCheck } from '../generated/prisma/enums';
import { lockoutPrefix } from '../net/client-address';

/**
 * The sign-in lockout, shared by every check of a password or an invite link: a sign-in, the
 * current password of a password change, an invite link. Failures count per account (its email,
 * since its last success) and per address prefix (an IPv4 address, an IPv6 /64).
 */

export interface PasswordAttempt {
  kind: PasswordCheck;
  /** The account checked; null when none is named yet (an invite link). */
  email: string | null;
  /** The client's address as Express reads it (TRUST_PROXY). */
  address: string;
}

type LockoutDeps = { db: Db; config: Config };

const minutesText = (seconds: number) => {
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
};

/**
 * When the `limit`-th newest of these failures leaves the lockout window: from then on fewer
 * than `limit` count, and checks are let through again.
 */
async function unlockInSeconds(db: Db, where: object, limit: number, windowMs: number, now: Date): Promise<number> {
  const [oldest] = await db.loginAttempt.findMany({ where, orderBy: { id: 'desc' }, skip: limit - 1, take: 1, select: { at: true } });
  return Math.max(1, Math.ceil(((oldest?.at.getTime() ?? now.getTime()) + windowMs - now.getTime()) / 1000));
}

/**
 * Records an attempt as failed before anything is checked, and counts only the attempts before
 * it, so concurrent guesses count against each other. Once LOGIN_MAX_FAILURES_PER_ACCOUNT failures
 * of the account (since its last success) or LOGIN_MAX_FAILURES_PER_ADDRESS failures from the
 * address prefix fall within LOGIN_LOCKOUT_MINUTES, the attempt is refused with 429
 * SIGN_IN_LOCKED and Retry-After, without checking anything and without counting it (so the
 * lockout ends on time). Answers the attempt's id for attemptSucceeded or withdrawAttempt.
 */
export async function recordAttempt(deps: LockoutDeps, attempt: PasswordAttempt): Promise<bigint> {
  const { db, config } = deps;
  const now = new Date();
  const windowMs = config.LOGIN_LOCKOUT_MINUTES * 60_000;
  const since = new Date(now.getTime() - windowMs);
  const addressPrefix = lockoutPrefix(attempt.address);
  const { id } = await db.loginAttempt.create({ data: { ...attempt, addressPrefix, succeeded: false, at: now }, select: { id: true } });
  const addressFailures = { addressPrefix, succeeded: false, at: { gt: since }, id: { lt: id } };
  const lastSuccess = attempt.email === null ? null : await db.loginAttempt.findFirst({ where: { email: attempt.email, succeeded: true }, orderBy: { id: 'desc' }, select: { id: true } });
  const accountFailures = attempt.email === null ? undefined : { email: attempt.email, succeeded: false, at: { gt: since }, id: { lt: id, gt: lastSuccess?.id ?? 0n } };
  const [byAccount, byAddress] = await Promise.all([accountFailures ? db.loginAttempt.count({ where: accountFailures }) : 0, db.loginAttempt.count({ where: addressFailures })]);
  const locked =
    accountFailures && byAccount >= config.LOGIN_MAX_FAILURES_PER_ACCOUNT
      ? { who: 'this account', where: accountFailures, limit: config.LOGIN_MAX_FAILURES_PER_ACCOUNT }
      : byAddress >= config.LOGIN_MAX_FAILURES_PER_ADDRESS
        ? { who: 'your address', where: addressFailures, limit: config.LOGIN_MAX_FAILURES_PER_ADDRESS }
        : undefined;
  if (locked) {
    await withdrawAttempt(db, id);
    const retryAfterSeconds = await unlockInSeconds(db, locked.where, locked.limit, windowMs, now);
    throw new AppError('SIGN_IN_LOCKED', `Too many failed sign-ins for ${locked.who}. Try again in ${minutesText(retryAfterSeconds)}.`, { retryAfterSeconds });
  }
  return id;
}

/** The check passed: the account's failures before it no longer count. `email` names the account an invite link turned out to be for. */
export async function attemptSucceeded(db: Db, id: bigint, email: string | null): Promise<void> {
  await db.loginAttempt.update({ where: { id }, data: { succeeded: true, email } });
}

/** The check could not be made (no hashing slot was free): the attempt does not count. */
export async function withdrawAttempt(db: Db, id: bigint): Promise<void> {
  await db.loginAttempt.delete({ where: { id } });
}
