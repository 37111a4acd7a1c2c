import { randomBytes } from 'node:crypto';
import type { TestApi, TestResponse } from './api';

export interface TestSession {
  /** `pvecp_session=<secret>` (`__Host-pvecp_session` over https), as a browser would send it back. */
  cookie: string;
  csrfToken: string;
  sessionId: string;
  /** Request options that send the cookie and, unless `csrf` is false, the CSRF header. */
  headers(csrf?: boolean): Record<string, string>;
}

/** A password that passes the policy, different every call. */
export const newPassword = () => `pw-${randomBytes(12).toString('base64url')}`;

/** POST /v1/sessions from `address` (sent as X-Forwarded-For, which the API trusts from loopback). */
export function signInAnswer(api: TestApi, email: string, password: string, address = '203.0.113.1'): Promise<TestResponse> {
  return api.request('POST', '/v1/sessions', { body: { email, password }, headers: { 'x-forwarded-for': address } });
}

/** Signs in and throws unless it worked. */
export async function signIn(api: TestApi, email: string, password: string, address?: string): Promise<TestSession> {
  const res = await signInAnswer(api, email, password, address);
  if (res.status !== 201) throw new Error(`sign-in: ${res.status} ${res.text}`);
  const cookie = (res.headers.getSetCookie()[0] ?? '').split(';')[0] as string;
  const { csrfToken, session } = res.body.data;
  return {
    cookie,
    csrfToken,
    sessionId: session.id,
    headers: (csrf = true) => ({ cookie, ...(csrf ? { 'x-csrf-token': csrfToken } : {}) }),
  };
}

/** Sets a user's password through the admin API. */
export async function setPassword(api: TestApi, userId: string, password: string): Promise<void> {
  const res = await api.request('POST', `/v1/admin/users/${userId}/password`, { token: api.adminToken, body: { password } });
  if (res.status !== 204) throw new Error(`set password: ${res.status} ${res.text}`);
}

/** A new invite link's token for `userId` (the part after `#`), made through the admin API. */
export async function inviteToken(api: TestApi, userId: string): Promise<string> {
  const res = await api.request('POST', `/v1/admin/users/${userId}/invites`, { token: api.adminToken });
  if (res.status !== 201) throw new Error(`invite: ${res.status} ${res.text}`);
  return (res.body.data.url as string).split('#')[1] as string;
}

/** POST /v1/invites/accept from `address` (sent as X-Forwarded-For). */
export function acceptInviteAnswer(api: TestApi, token: string, password: string, address: string): Promise<TestResponse> {
  return api.request('POST', '/v1/invites/accept', { body: { token, password }, headers: { 'x-forwarded-for': address } });
}
