import { parseCookie, stringifySetCookie } from 'cookie';
import type { Request, Response } from 'express';
import type { Config } from '../config';
import type { ServiceDeps } from '../services/deps';
import type { Principal } from '../services/principal';
import { CSRF_HEADER, sessionPrincipal } from '../services/sessions';

const SESSION_COOKIE = 'pvecp_session';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

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

/** Sets the cookie of a new session on `res`. */
export function setSessionCookie(res: Response, config: Config, secret: string, expiresAt: Date): void {
  res.append('Set-Cookie', stringifySetCookie({ name: sessionCookieName(config), value: secret, ...cookieOptions(config), expires: expiresAt }));
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
 * The principal of a request signed in with a session cookie; every request but a read needs the
 * session's CSRF token in X-CSRF-Token (see sessionPrincipal).
 */
export function authenticateSession(deps: Pick<ServiceDeps, 'db' | 'config'>, secret: string, req: Request): Promise<Principal> {
  return sessionPrincipal(deps, secret, { changesState: !SAFE_METHODS.has(req.method), csrfToken: req.header(CSRF_HEADER) ?? '' });
}
