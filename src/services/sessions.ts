/**
 * Console sessions: signing in (passwords.ts checks the password and counts the attempt), the session a cookie names,
 * signing out, and the caller's own sessions. The cookie itself is the HTTP layer's
 * (src/api/session-auth.ts); here is the row behind it.
 */
import { randomBytes } from 'node:crypto';
import type { Config } from '../config';
import { recordAudit } from '../db/audit';
import { endSessions } from '../db/sessions';
import { AppError, notFound } from '../domain/errors';
import type { Session, User } from '../generated/prisma/client';
import { newId } from '../security/ids';
import { constantTimeEqual, hashToken } from '../security/secrets';
import type { ServiceDeps } from './deps';
import type { PageArgs } from '../db/pages';
import type { Principal } from './principal';
import { acceptInvite as acceptInviteChecked, signIn as checkSignIn } from './passwords';

type Deps = Pick<ServiceDeps, 'db' | 'config'>;

/** The header a signed-in page sends its session's CSRF token in. */
export const CSRF_HEADER = 'X-CSRF-Token';

/** lastSeenAt is written at most this often per session, so a busy page does not write on every request. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

const ended = () => new AppError('UNAUTHENTICATED', 'Your session has ended. Please sign in again.');

/** Whether a session still signs its requests in at `now`. */
export function sessionIsActive(session: Session, config: Pick<Config, 'SESSION_IDLE_MINUTES'>, now = new Date()): boolean {
  return !session.revokedAt && session.expiresAt > now && now.getTime() - session.lastSeenAt.getTime() < config.SESSION_IDLE_MINUTES * 60_000;
}

/** Where a sign-in came from, as the session lists it. */
export interface SignInOrigin {
  userAgent: string | null;
  address: string | null;
}

export interface SignedIn {
  session: Session;
  user: User;
  /** The cookie's value: never stored (the row keeps its digest). */
  secret: string;
}

/** Checks the email and password (counted against lockouts) and starts a session for the user. */
export async function signIn(deps: Deps, body: { email: string; password: string }, origin: SignInOrigin): Promise<SignedIn> {
  const user = await checkSignIn(deps, body.email, body.password, origin.address ?? 'unknown');
  const secret = randomBytes(32).toString('base64url');
  const session = await deps.db.session.create({
    data: {
      id: newId('ses'),
      userId: user.id,
      secretHash: hashToken(secret),
      csrfToken: randomBytes(32).toString('base64url'),
      userAgent: origin.userAgent?.slice(0, 256) ?? null,
      address: origin.address,
      expiresAt: new Date(Date.now() + deps.config.SESSION_TTL_HOURS * 3_600_000),
    },
  });
  await recordAudit(deps.db, { action: 'session.started', actorUserId: user.id, tenantId: user.tenantId, details: { userId: user.id, sessionId: session.id } });
  return { session, user, secret };
}

/**
 * The principal of a request signed in with a session cookie. A session that was revoked,
 * expired, idle too long, or whose user is disabled answers 401; a request that changes something
 * without the session's CSRF token answers 403 CSRF_TOKEN_INVALID.
 */
export async function sessionPrincipal(deps: Deps, secret: string, request: { changesState: boolean; csrfToken: string }): Promise<Principal> {
  const { db, config } = deps;
  const session = await db.session.findUnique({ where: { secretHash: hashToken(secret) }, include: { user: true } });
  const now = new Date();
  if (!session || !sessionIsActive(session, config, now) || session.user.disabledAt) throw ended();
  if (request.changesState && !constantTimeEqual(request.csrfToken, session.csrfToken)) {
    throw new AppError('CSRF_TOKEN_INVALID', `This request needs the session's CSRF token in the ${CSRF_HEADER} header; reload the page and try again.`);
  }
  if (now.getTime() - session.lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS) {
    await db.session.updateMany({ where: { id: session.id, lastSeenAt: { lte: new Date(now.getTime() - LAST_SEEN_RESOLUTION_MS) } }, data: { lastSeenAt: now } });
  }
  // Rate limits and event streams count per session as they count per API token.
  return { userId: session.userId, tokenId: session.id, sessionId: session.id, role: session.user.role, tenantId: session.user.tenantId, tenantRole: session.user.tenantRole };
}

/** Sets the password an invite link was sent for; the link works once (checked before any hashing, see passwords.ts). */
export function acceptInvite(deps: Deps, body: { token: string; password: string }, origin: SignInOrigin): Promise<User> {
  return acceptInviteChecked(deps, body.token, body.password, origin.address ?? 'unknown');
}

/** The session the request was signed in with (a request with an API token has none: INVALID_STATE). */
export async function currentSession(deps: Pick<ServiceDeps, 'db'>, who: Principal): Promise<Session & { user: User }> {
  if (!who.sessionId) throw new AppError('INVALID_STATE', 'This request came with an API token, not a session.');
  return deps.db.session.findUniqueOrThrow({ where: { id: who.sessionId }, include: { user: true } });
}

/** Ends the session the request was signed in with. */
export async function signOut(deps: Pick<ServiceDeps, 'db'>, who: Principal): Promise<void> {
  const session = await currentSession(deps, who);
  await endSessions(deps.db, { userId: who.userId, id: session.id });
  await recordAudit(deps.db, { action: 'session.revoked', actorUserId: who.userId, tenantId: who.tenantId, details: { userId: who.userId, sessionId: session.id, reason: 'signed_out' } });
}

export function listSessions(deps: Pick<ServiceDeps, 'db'>, who: Principal, page: PageArgs): Promise<Session[]> {
  return deps.db.session.findMany({ ...page, where: { ...page.where, userId: who.userId } });
}

/** Ends one of the caller's sessions; idempotent (audited once). */
export async function revokeSession(deps: Pick<ServiceDeps, 'db'>, who: Principal, id: string): Promise<Session> {
  const count = await endSessions(deps.db, { userId: who.userId, id });
  const session = await deps.db.session.findFirst({ where: { id, userId: who.userId } });
  if (!session) throw notFound('session');
  if (count > 0) await recordAudit(deps.db, { action: 'session.revoked', actorUserId: who.userId, tenantId: who.tenantId, details: { userId: who.userId, sessionId: id, reason: 'revoked' } });
  return session;
}
