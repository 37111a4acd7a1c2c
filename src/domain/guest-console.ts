/**
 * Guest consoles as customers see them: the two kinds, which server states allow one, and why a
 * console ends (the reason of its WebSocket close, each with its own close code).
 */
import type { InstanceStatus } from '../generated/prisma/enums';

export const CONSOLE_TYPES = ['vnc', 'serial'] as const;
export type ConsoleType = (typeof CONSOLE_TYPES)[number];

/** States whose guest keeps running where it runs: a console may open (and stay open), also to watch it boot into or out of rescue. */
export const CONSOLE_STATES: ReadonlySet<InstanceStatus> = new Set<InstanceStatus>(['running', 'rebooting', 'snapshotting', 'backing_up', 'rescue', 'entering_rescue', 'leaving_rescue', 'configuring_boot']);
/** States of an operation that replaces, moves or destroys the guest: INSTANCE_BUSY rather than "not running". */
export const CONSOLE_BUSY_STATES: ReadonlySet<InstanceStatus> = new Set<InstanceStatus>(['pending', 'scheduling', 'provisioning', 'rebuilding', 'migrating', 'restoring', 'rolling_back', 'deleting']);

/** Every reason a console ends, with the WebSocket close code it is sent with. */
export const CONSOLE_CLOSE_CODES = {
  client_closed: 1000,
  shutting_down: 1001,
  ticket_invalid: 4001,
  instance_stopped: 4002,
  instance_deleted: 4003,
  instance_rebuilt: 4004,
  instance_migrated: 4005,
  max_duration: 4006,
  idle_timeout: 4007,
  console_unavailable: 4008,
  protocol_error: 4009,
  signed_out: 4010,
  credentials_changed: 4011,
  user_disabled: 4012,
  token_revoked: 4013,
  access_lost: 4014,
} as const;
export type ConsoleCloseReason = keyof typeof CONSOLE_CLOSE_CODES;

/** Why a console of a server in this state (or gone, or moved) must end; undefined while it may go on. */
export function consoleEndReason(now: { status: InstanceStatus; node: string | null; vmid: number | null; deletedAt: Date | null } | null, opened: { node: string; vmid: number }): ConsoleCloseReason | undefined {
  if (!now || now.deletedAt || now.status === 'deleting' || now.status === 'deleted') return 'instance_deleted';
  if (now.status === 'rebuilding' || now.status === 'rebuild_failed' || now.status === 'restoring' || now.status === 'rolling_back') return 'instance_rebuilt';
  if (now.status === 'migrating' || now.node !== opened.node || now.vmid !== opened.vmid) return 'instance_migrated';
  if (!CONSOLE_STATES.has(now.status)) return 'instance_stopped';
  return undefined;
}

/** Whether the one who opened a console may still hold it, as the relay's watch reads it. */
export interface ConsoleOpenerNow {
  userDisabled: boolean;
  /** The session that opened it was signed out, revoked or expired; null when a token opened it. */
  sessionEnded: boolean | null;
  /** The token that opened it was revoked or expired; null when a session opened it. */
  tokenEnded: boolean | null;
  /** The user's password was changed (by them or an administrator) after the console opened. */
  passwordChangedSinceOpened: boolean;
  /** They may still open the server's console (src/services/authorization.ts): a lost grant or role ends it. */
  mayAccessServer: boolean;
}

/**
 * Why a console must end because its opener lost the right to it; undefined while it may go on.
 * A session ended by a password change (every session but the one that made the change) ends its
 * consoles as `credentials_changed`; API tokens outlive password changes, and so do their consoles.
 */
export function consoleOpenerEndReason(opener: ConsoleOpenerNow): ConsoleCloseReason | undefined {
  if (opener.userDisabled) return 'user_disabled';
  if (opener.sessionEnded) return opener.passwordChangedSinceOpened ? 'credentials_changed' : 'signed_out';
  if (opener.tokenEnded) return 'token_revoked';
  if (!opener.mayAccessServer) return 'access_lost';
  return undefined;
}
