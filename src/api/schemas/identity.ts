import { z } from 'zod';
import { isSafeLine } from '../../domain/validation';
import { TENANT_ROLES, TOKEN_SCOPES } from '../../services/authorization';
import { listQuerySchema, registerCollection, registerRoute } from '../openapi';

// ---------- requests ----------

const count = (max: number) => z.number().int().min(0).max(max);

export const quotaSchema = z.strictObject({
  instances: count(100_000),
  vcpus: count(1_000_000),
  memoryMiB: count(2 ** 31 - 1),
  diskGiB: count(2 ** 31 - 1),
});

export const createTenantSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(128).refine(isSafeLine, 'one line of text'),
    quota: quotaSchema,
  })
  .openapi('CreateTenant');

export const emailSchema = z.email().max(254).transform((email) => email.toLowerCase());

export const tenantRoleSchema = z.enum(TENANT_ROLES).openapi({
  description: '`owner`: users, tokens, webhooks, usage and every server of the tenant; `member`: creates servers, acts on their own and on those shared with them; `viewer`: reads only.',
});

export const createUserSchema = z
  .strictObject({
    tenantId: z.string().min(1).max(64).nullish().openapi({ description: 'Required for customers; absent for admins.' }),
    email: emailSchema,
    role: z.enum(['owner', 'member', 'viewer', 'admin', 'customer']).openapi({
      description: 'A tenant role (`owner`, `member`, `viewer`) or `admin`, the operator. `customer` is kept for existing integrations and makes an `owner`.',
    }),
  })
  .superRefine((user, ctx) => {
    if (user.role !== 'admin' && !user.tenantId) {
      ctx.addIssue({ code: 'custom', path: ['tenantId'], message: 'required for customers' });
    }
    if (user.role === 'admin' && user.tenantId) {
      ctx.addIssue({ code: 'custom', path: ['tenantId'], message: 'administrators belong to no tenant' });
    }
  })
  .openapi('CreateUser');

export const createTenantUserSchema = z.strictObject({ email: emailSchema, role: tenantRoleSchema }).openapi('CreateTenantUser');

export const changeTenantUserSchema = z
  .strictObject({
    role: tenantRoleSchema.optional(),
    disabled: z.boolean().optional().openapi({ description: 'true: every session of the user ends and none of its tokens works until enabled again.' }),
  })
  .openapi('ChangeTenantUser');

/** The longest a token may live: ten years. */
const MAX_TOKEN_DAYS = 3650;

export const createTokenSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(128).optional().openapi({ description: 'What the token is for (shown in the token list).' }),
    expiresInDays: z.number().int().min(1).max(MAX_TOKEN_DAYS).optional().openapi({ description: 'The token stops working this many days from now.' }),
    expiresAt: z.iso
      .datetime({ offset: true })
      .refine((at) => Date.parse(at) > Date.now(), 'must be in the future')
      .refine((at) => Date.parse(at) <= Date.now() + MAX_TOKEN_DAYS * 86_400_000, 'at most 3650 days from now')
      .optional()
      .openapi({ description: 'The token stops working at this time. Give this or expiresInDays, not both; without either the token does not expire.' }),
    scopes: z
      .array(z.enum(TOKEN_SCOPES))
      .min(1)
      .max(TOKEN_SCOPES.length)
      .optional()
      .openapi({
        description:
          'What the token may do besides reading: `["read"]` keeps it to reads, a list of actions (`server.power`, `server.create`…) allows those too. Without scopes it may do all its user may; with them it never does more than its user, and never changes its own account (password, tokens).',
      }),
    projectId: z.string().min(1).max(64).optional().openapi({
      description:
        "Limits the token to one project its user may see: it reads, creates and acts on that project's servers only (never more than its user may there), and does nothing of the tenant as a whole nor of its own account. The token goes when the project is deleted.",
    }),
  })
  .refine((body) => body.expiresInDays === undefined || body.expiresAt === undefined, { path: ['expiresAt'], message: 'give expiresAt or expiresInDays, not both' })
  .openapi('CreateToken');

export const listUsersQuerySchema = listQuerySchema.extend({
  tenantId: z.string().min(1).max(64).optional(),
});

// ---------- responses ----------

export const quotaViewSchema = z.object({
  instances: z.number().int(),
  vcpus: z.number().int(),
  memoryMiB: z.number().int(),
  diskGiB: z.number().int(),
});

export const usageViewSchema = quotaViewSchema
  .extend({
    backups: z.number().int().openapi({ description: "Backups written or being written: its servers' own, and those kept after their server was deleted, until they are deleted." }),
    backupBytes: z.number().int().openapi({ description: 'The size of those backups, as their storages list them.' }),
  })
  .openapi({ description: 'What the tenant holds now: instances whose quota is still charged, and its backups.' });

export const tenantSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    quota: quotaViewSchema,
    createdAt: z.iso.datetime(),
  })
  .openapi('Tenant');

export const tenantDetailSchema = tenantSchema
  .extend({ usage: usageViewSchema })
  .openapi('TenantDetail');

export const userSchema = z
  .object({
    id: z.string(),
    tenantId: z.string().nullable(),
    email: z.string(),
    role: z.enum(['customer', 'admin']).openapi({ description: '`customer`: a user of a tenant, whose `tenantRole` says what they may do; `admin`: the operator.' }),
    tenantRole: tenantRoleSchema.nullable(),
    createdAt: z.iso.datetime(),
    disabledAt: z.iso.datetime().nullable().openapi({ description: 'Set while the user is disabled: none of its tokens work.' }),
  })
  .openapi('User');

export const apiTokenSchema = z
  .object({
    id: z.string(),
    userId: z.string(),
    name: z.string().nullable(),
    bootstrap: z.boolean().openapi({ description: 'Made from BOOTSTRAP_ADMIN_TOKEN; a start with another value revokes it.' }),
    scopes: z.array(z.string()).openapi({ description: 'What it may do besides reading; empty: all its user may.' }),
    projectId: z.string().nullable().openapi({ description: "Set: the token acts on this project's servers only." }),
    active: z.boolean().openapi({ description: 'Whether the token authenticates now: not revoked, not expired, its user not disabled.' }),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable().openapi({ description: 'Last successful authentication, to the minute.' }),
    expiresAt: z.iso.datetime().nullable(),
    revokedAt: z.iso.datetime().nullable(),
  })
  .openapi('ApiToken');

export const issuedTokenSchema = z
  .object({
    id: z.string(),
    token: z.string().openapi({ description: 'The bearer token. Shown only in this response; only its digest is stored.' }),
    name: z.string().nullable(),
    scopes: z.array(z.string()),
    projectId: z.string().nullable(),
    expiresAt: z.iso.datetime().nullable(),
  })
  .openapi('IssuedToken');

// ---------- paths ----------

const admin = { tags: ['admin: identity'], admin: true } as const;

registerCollection({ ...admin, path: '/v1/admin/tenants', noun: 'tenant', body: createTenantSchema, view: tenantSchema });
registerRoute({ ...admin, method: 'get', path: '/v1/admin/tenants/:id', summary: 'A tenant with its quota usage', response: tenantDetailSchema, errors: ['NOT_FOUND'] });
registerCollection({ ...admin, path: '/v1/admin/users', noun: 'user', body: createUserSchema, view: userSchema, query: listUsersQuerySchema, errors: ['CONFLICT'] });
registerRoute({ ...admin, method: 'get', path: '/v1/admin/users/:id', summary: 'A user', response: userSchema, errors: ['NOT_FOUND'] });
registerRoute({
  ...admin,
  method: 'post',
  path: '/v1/admin/users/:id/tokens',
  summary: 'Issue an API token for a user (shown once)',
  request: { body: createTokenSchema },
  response: issuedTokenSchema,
  status: 201,
  errors: ['NOT_FOUND'],
});
registerRoute({
  ...admin,
  method: 'get',
  path: '/v1/admin/users/:id/tokens',
  summary: "A user's API tokens, newest first (never their secrets)",
  request: { query: listQuerySchema },
  response: apiTokenSchema,
  list: true,
  errors: ['NOT_FOUND'],
});
registerRoute({
  ...admin,
  method: 'post',
  path: '/v1/admin/users/:id/tokens/:tokenId/revoke',
  summary: 'Revoke an API token (it answers 401 from now on; revoking again changes nothing)',
  response: apiTokenSchema,
  errors: ['NOT_FOUND'],
});
registerRoute({
  ...admin,
  method: 'post',
  path: '/v1/admin/users/:id/disable',
  summary: 'Disable a user: every token of theirs answers 401 at once (administrators cannot disable themselves)',
  response: userSchema,
  errors: ['NOT_FOUND', 'INVALID_STATE'],
});
registerRoute({
  ...admin,
  method: 'post',
  path: '/v1/admin/users/:id/enable',
  summary: "Enable a disabled user: their tokens that are neither revoked nor expired work again",
  response: userSchema,
  errors: ['NOT_FOUND'],
});
