import { parseCookie, stringifySetCookie } from 'cookie';
import type { Request, Response } from 'express';
import type { Config } from '../config';
import type { ServiceDeps } from '../services/deps';
import type { Principal } from '../services/principal';
import { CSRF_HEADER, sessionPrincipal } from '../services/sessions';

export const SESSION_COOKIE = 'pvecp_session';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function cookieOptions(config: Config) {
  // Secure outside development and tests, which run on plain http://127.0.0.1.
  return { httpOnly: true, sameSite: 'strict' as const, path: '/', secure: config.NODE_ENV === 'production' };
}

/** Sets the cookie of a new session on `res`. */
export function setSessionCookie(res: Response, config: Config, secret: string, expiresAt: Date): void {
  res.append('Set-Cookie', stringifySetCookie({ name: SESSION_COOKIE, value: secret, ...cookieOptions(config), expires: expiresAt }));
}

export function clearSessionCookie(res: Response, config: Config): void {
  res.append('Set-Cookie', stringifySetCookie({ name: SESSION_COOKIE, value: '', ...cookieOptions(config), expires: new Date(0) }));
}

export function sessionCookieOf(req: Request): string | undefined {
  const header = req.header('cookie');
  return header ? parseCookie(header)[SESSION_COOKIE] || undefined : undefined;
}

/**
 * The principal of a request signed in with a session cookie; every request but a read needs the
 * session's CSRF token in X-CSRF-Token (see sessionPrincipal).
 */
export function authenticateSession(deps: Pick<ServiceDeps, 'db' | 'config'>, secret: string, req: Request): Promise<Principal> {
  return sessionPrincipal(deps, secret, { changesState: !SAFE_METHODS.has(req.method), csrfToken: req.header(CSRF_HEADER) ?? '' });
}
