import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../security/user-passwords';
import { listQuerySchema, registerRoute } from '../openapi';
import { apiTokenSchema, createTokenSchema, issuedTokenSchema, tenantDetailSchema, userSchema } from './identity';

// ---------- requests ----------

/** A password someone chooses: long enough to resist guessing, short enough to bound the hashing work. */
export const newPasswordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `at most ${PASSWORD_MAX_LENGTH} characters`)
  .refine((password) => password.trim().length > 0, 'not only spaces');

export const signInSchema = z
  .strictObject({
    email: z.string().trim().min(1).max(254).transform((email) => email.toLowerCase()),
    // Any length is compared (after the cap): a sign-in never tells the password policy.
    password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  })
  .openapi('SignIn');

export const acceptInviteSchema = z
  .strictObject({
    token: z.string().min(16).max(256).openapi({ description: 'The part after `#` of the invite link.' }),
    password: newPasswordSchema,
  })
  .openapi('AcceptInvite');

export const setPasswordSchema = z.strictObject({ password: newPasswordSchema }).openapi('SetPassword');

export const changePasswordSchema = z
  .strictObject({
    currentPassword: z.string().min(1).max(PASSWORD_MAX_LENGTH),
    newPassword: newPasswordSchema,
  })
  .openapi('ChangePassword');

// ---------- responses ----------

export const sessionSchema = z
  .object({
    id: z.string(),
    current: z.boolean().openapi({ description: 'The session this request came with.' }),
    userAgent: z.string().nullable(),
    address: z.string().nullable().openapi({ description: 'The address it signed in from.' }),
    createdAt: z.iso.datetime(),
    lastSeenAt: z.iso.datetime().openapi({ description: 'Last request, to the minute.' }),
    expiresAt: z.iso.datetime(),
    active: z.boolean().openapi({ description: 'Neither signed out, revoked, idle too long nor past its expiry.' }),
  })
  .openapi('Session');

export const signedInSchema = z
  .object({
    session: sessionSchema,
    user: userSchema,
    csrfToken: z.string().openapi({ description: 'Send it back as `X-CSRF-Token` on every request that changes something.' }),
    temporalWorkflowsUrl: z
      .string()
      .nullable()
      .openapi({ description: "For administrators: the Temporal Web UI's workflow list of this namespace (TEMPORAL_UI_URL); append `/<workflowId>`. Null for customers." }),
  })
  .openapi('SignedIn');

export const inviteSchema = z
  .object({
    id: z.string(),
    userId: z.string(),
    url: z.string().openapi({ description: 'The one-time link (PUBLIC_URL), shown only in this answer; a newer invite replaces it.' }),
    expiresAt: z.iso.datetime(),
  })
  .openapi('Invite');

export const accountSchema = z
  .object({
    user: userSchema,
    tenant: tenantDetailSchema.nullable().openapi({ description: "A customer's tenant with its quota and what it holds now; null for administrators." }),
  })
  .openapi('Account');

export const acceptedInviteSchema = z.object({ email: z.string() }).openapi('AcceptedInvite');

// ---------- paths ----------

const sessions = { tags: ['sessions'] } as const;
registerRoute({
  ...sessions,
  method: 'post',
  path: '/v1/sessions',
  summary: 'Sign in with email and password',
  description:
    'Sets the HttpOnly, SameSite=Strict session cookie (over an https PUBLIC_URL `Secure` and named `__Host-pvecp_session`) and answers the CSRF token. ' +
    'Failed sign-ins lock the account (LOGIN_MAX_FAILURES_PER_ACCOUNT) and the address, an IPv4 address or an IPv6 /64 (LOGIN_MAX_FAILURES_PER_ADDRESS), for LOGIN_LOCKOUT_MINUTES: 429 SIGN_IN_LOCKED with Retry-After. ' +
    'Wrong current passwords of a password change and wrong invite links count as failed sign-ins. ' +
    'When every password hashing slot is taken, 503 SERVICE_BUSY with Retry-After.',
  public: true,
  request: { body: signInSchema },
  response: signedInSchema,
  status: 201,
  errors: ['UNAUTHENTICATED', 'FORBIDDEN', 'SIGN_IN_LOCKED', 'SERVICE_UNAVAILABLE', 'SERVICE_BUSY'],
});
registerRoute({ ...sessions, method: 'get', path: '/v1/sessions/current', summary: 'The signed-in user, this session and its CSRF token', response: signedInSchema });
registerRoute({ ...sessions, method: 'delete', path: '/v1/sessions/current', summary: 'Sign out: the session ends and its cookie is cleared', status: 204, errors: ['CSRF_TOKEN_INVALID'] });
registerRoute({ ...sessions, method: 'get', path: '/v1/sessions', summary: "The caller's sessions, newest first", request: { query: listQuerySchema }, response: sessionSchema, list: true });
registerRoute({
  ...sessions,
  method: 'delete',
  path: '/v1/sessions/:id',
  summary: "End one of the caller's sessions (its next request answers 401; ending it again changes nothing)",
  response: sessionSchema,
  errors: ['NOT_FOUND', 'CSRF_TOKEN_INVALID'],
});
for (const path of ['/v1/invitations/accept', '/v1/invites/accept']) {
  registerRoute({
    ...sessions,
    method: 'post',
    path,
    summary: path === '/v1/invites/accept' ? 'The same as `POST /v1/invitations/accept` (kept for earlier invite pages)' : 'Accept an invitation: set your password (the link works once)',
    description:
      'A tenant owner’s invitation makes the user, in its tenant with its role; an administrator’s invite sets an existing user’s first password. ' +
      'Then sign in with `POST /v1/sessions`. An unknown, used, expired or revoked link is one answer, 410 INVITE_INVALID. ' +
      'The link is checked before the password is hashed. A wrong link counts as a failed sign-in of the address (an IPv4 address or an IPv6 /64): ' +
      'once LOGIN_MAX_FAILURES_PER_ADDRESS fall within LOGIN_LOCKOUT_MINUTES, 429 SIGN_IN_LOCKED with Retry-After.',
    public: true,
    request: { body: acceptInviteSchema },
    response: acceptedInviteSchema,
    errors: ['INVITE_INVALID', 'CONFLICT', 'SIGN_IN_LOCKED', 'SERVICE_UNAVAILABLE', 'SERVICE_BUSY'],
  });
}

const account = { tags: ['account'] } as const;
registerRoute({ ...account, method: 'get', path: '/v1/account', summary: 'Who you are, and your tenant’s quota and usage', response: accountSchema });
registerRoute({
  ...account,
  method: 'post',
  path: '/v1/account/password',
  summary: 'Change your own password (your other sessions end)',
  description:
    'A wrong `currentPassword` (400, `details.fields.currentPassword`) counts as a failed sign-in of the account and the address: ' +
    'once the lockout holds, 429 SIGN_IN_LOCKED with Retry-After, without checking the password.',
  request: { body: changePasswordSchema },
  errors: ['UNAUTHENTICATED', 'CSRF_TOKEN_INVALID', 'SIGN_IN_LOCKED', 'SERVICE_BUSY'],
  status: 204,
});
registerRoute({
  ...account,
  method: 'post',
  path: '/v1/account/tokens',
  summary: 'Issue yourself an API token (shown once)',
  request: { body: createTokenSchema },
  response: issuedTokenSchema,
  status: 201,
  errors: ['CSRF_TOKEN_INVALID'],
});
registerRoute({ ...account, method: 'get', path: '/v1/account/tokens', summary: 'Your API tokens, newest first (never their secrets)', request: { query: listQuerySchema }, response: apiTokenSchema, list: true });
registerRoute({
  ...account,
  method: 'post',
  path: '/v1/account/tokens/:id/revoke',
  summary: 'Revoke one of your API tokens (revoking again changes nothing)',
  response: apiTokenSchema,
  errors: ['NOT_FOUND', 'CSRF_TOKEN_INVALID'],
});

const admin = { tags: ['admin: identity'], admin: true } as const;
registerRoute({
  ...admin,
  method: 'post',
  path: '/v1/admin/users/:id/invites',
  summary: 'Invite a user: a one-time link that sets their first password (INVITE_TTL_HOURS)',
  response: inviteSchema,
  status: 201,
  errors: ['NOT_FOUND'],
});
registerRoute({
  ...admin,
  method: 'post',
  path: '/v1/admin/users/:id/password',
  summary: "Set a user's password (for scripted setups); their sessions end",
  request: { body: setPasswordSchema },
  errors: ['NOT_FOUND', 'SERVICE_BUSY'],
  status: 204,
});
