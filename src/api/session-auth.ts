import { randomBytes } from 'node:crypto';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { Request, Response } from 'express';
import type { Config } from '../config';
import type { Db, Tx } from '../db/client';
import { AppError } from '../domain/errors';
import type { Session, User } from '../generated/prisma/client';
import { newId } from '../security/ids';
import { constantTimeEqual, hashToken } from '../security/secrets';
import type { Principal } from './auth';

const SESSION_COOKIE = 'pvecp_session';
/** The header a signed-in page sends its session's CSRF token in. */
export const CSRF_HEADER = 'X-CSRF-Token';

/** lastSeenAt is written at most this often per session, so a busy page does not write on every request. */
const LAST_SEEN_RESOLUTION_MS = 60_000;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const ended = () => new AppError('UNAUTHENTICATED', 'Your session has ended. Please sign in again.');

/** Whether a session still signs its requests in at `now`. */
export function sessionIsActive(session: Session, config: Config, now = new Date()): boolean {
  return !session.revokedAt && session.expiresAt > now && now.getTime() - session.lastSeenAt.getTime() < config.SESSION_IDLE_MINUTES * 60_000;
}

/** Whether people reach the console over https (PUBLIC_URL), wherever TLS ends in front of the API. */
const servedOverHttps = (config: Config) => new URL(config.PUBLIC_URL).protocol === 'https:';

/**
 * The session cookie's name: over https `__Host-pvecp_session`, which a browser accepts only when
 * Secure, for Path=/ and with no Domain, so no other host of the domain (nor a plain-http answer)
 * can set or shadow it.
 */
const sessionCookieName = (config: Config) => (servedOverHttps(config) ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE);

function cookieOptions(config: Config) {
  // Secure whenever the console is served over https; a plain-http console (development, tests) could not send it back.
  return { httpOnly: true, sameSite: 'strict' as const, path: '/', secure: servedOverHttps(config) };
}

/** A new session for `user`: its cookie is set on `res`; the secret itself is never stored. */
export async function startSession(db: Db, config: Config, user: User, req: Request, res: Response): Promise<{ session: Session; csrfToken: string }> {
  const secret = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(32).toString('base64url');
  const session = await db.session.create({
    data: {
      id: newId('ses'),
      userId: user.id,
      secretHash: hashToken(secret),
      csrfToken,
      userAgent: req.header('user-agent')?.slice(0, 256) ?? null,
      address: req.ip ?? null,
      expiresAt: new Date(Date.now() + config.SESSION_TTL_HOURS * 3_600_000),
    },
  });
  res.append('Set-Cookie', stringifySetCookie({ name: sessionCookieName(config), value: secret, ...cookieOptions(config), expires: session.expiresAt }));
  return { session, csrfToken };
}

export function clearSessionCookie(res: Response, config: Config): void {
  res.append('Set-Cookie', stringifySetCookie({ name: sessionCookieName(config), value: '', ...cookieOptions(config), expires: new Date(0) }));
}

/** The session secret the request carries under this configuration's cookie name (any other name is ignored). */
export function sessionCookieOf(req: Request, config: Config): string | undefined {
  const header = req.header('cookie');
  return header ? parseCookie(header)[sessionCookieName(config)] || undefined : undefined;
}

/**
 * The principal of a request signed in with a session cookie. A session that was revoked,
 * expired, idle too long, or whose user is disabled answers 401; a state-changing request
 * without the session's CSRF token in X-CSRF-Token answers 403 CSRF_TOKEN_INVALID.
 */
export async function authenticateSession(deps: { db: Db; config: Config }, secret: string, req: Request): Promise<Principal> {
  const { db, config } = deps;
  const session = await db.session.findUnique({ where: { secretHash: hashToken(secret) }, include: { user: true } });
  const now = new Date();
  if (!session || !sessionIsActive(session, config, now) || session.user.disabledAt) throw ended();
  if (!SAFE_METHODS.has(req.method) && !constantTimeEqual(req.header(CSRF_HEADER) ?? '', session.csrfToken)) {
    throw new AppError('CSRF_TOKEN_INVALID', `This request needs the session's CSRF token in the ${CSRF_HEADER} header; reload the page and try again.`);
  }
  if (now.getTime() - session.lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS) {
    await db.session.updateMany({ where: { id: session.id, lastSeenAt: { lte: new Date(now.getTime() - LAST_SEEN_RESOLUTION_MS) } }, data: { lastSeenAt: now } });
  }
  // Rate limits and event streams count per session as they count per API token.
  return { userId: session.userId, tokenId: session.id, sessionId: session.id, role: session.user.role, tenantId: session.user.tenantId };
}

/**
 * Ends sessions (all of a user's, or one) that are still going; the count ended. Used on sign-out,
 * revocation, a password change and when a user is disabled.
 */
export async function endSessions(db: Db | Tx, where: { userId: string; id?: string | { not: string } }): Promise<number> {
  const { count } = await db.session.updateMany({ where: { ...where, revokedAt: null }, data: { revokedAt: new Date() } });
  return count;
}
