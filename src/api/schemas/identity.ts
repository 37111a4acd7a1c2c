import { z } from 'zod';
import { isSafeLine } from '../../domain/validation';
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

export const createUserSchema = z
  .strictObject({
    tenantId: z.string().min(1).max(64).nullish().openapi({ description: 'Required for customers; absent for admins.' }),
    email: z.email().max(254).transform((email) => email.toLowerCase()),
    role: z.enum(['customer', 'admin']),
  })
  .superRefine((user, ctx) => {
    if (user.role === 'customer' && !user.tenantId) {
      ctx.addIssue({ code: 'custom', path: ['tenantId'], message: 'required for customers' });
    }
    if (user.role === 'admin' && user.tenantId) {
      ctx.addIssue({ code: 'custom', path: ['tenantId'], message: 'administrators belong to no tenant' });
    }
  })
  .openapi('CreateUser');

export const createTokenSchema = z.strictObject({}).openapi('CreateToken');

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

export const tenantSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    quota: quotaViewSchema,
    createdAt: z.iso.datetime(),
  })
  .openapi('Tenant');

export const tenantDetailSchema = tenantSchema
  .extend({ usage: quotaViewSchema.openapi({ description: 'What the tenant holds now: instances whose quota is still charged.' }) })
  .openapi('TenantDetail');

export const userSchema = z
  .object({
    id: z.string(),
    tenantId: z.string().nullable(),
    email: z.string(),
    role: z.enum(['customer', 'admin']),
    createdAt: z.iso.datetime(),
  })
  .openapi('User');

export const issuedTokenSchema = z
  .object({
    id: z.string(),
    token: z.string().openapi({ description: 'The bearer token. Shown only in this response; only its digest is stored.' }),
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
