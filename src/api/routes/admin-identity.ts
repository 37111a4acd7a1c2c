import { Router } from 'express';
import type { z } from 'zod';
import type { Tenant, User } from '../../generated/prisma/client';
import { issueApiToken, listApiTokens, revokeApiToken, type TokenRow } from '../../services/api-tokens';
import { createTenant, listTenants, readTenant, type TenantWithUsage } from '../../services/tenants';
import { createUser, findUser, listUsers, setUserDisabled } from '../../services/users';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { conflictOnDuplicate } from '../../db/errors';
import { listHandler, parseBody, pathParam, send } from '../http';
import {
  type apiTokenSchema,
  createTenantSchema,
  createTokenSchema,
  createUserSchema,
  listUsersQuerySchema,
  type tenantDetailSchema,
  type tenantSchema,
  type userSchema,
} from '../schemas/identity';

const quotaOf = (tenant: Tenant) => ({
  instances: tenant.quotaInstances,
  vcpus: tenant.quotaVcpus,
  memoryMiB: tenant.quotaMemoryMiB,
  diskGiB: tenant.quotaDiskGiB,
});

export const tenantView = (tenant: Tenant): z.infer<typeof tenantSchema> => ({
  id: tenant.id,
  name: tenant.name,
  quota: quotaOf(tenant),
  createdAt: tenant.createdAt.toISOString(),
});

export const userView = (user: User): z.infer<typeof userSchema> => ({
  id: user.id,
  tenantId: user.tenantId,
  email: user.email,
  role: user.role,
  tenantRole: user.tenantRole,
  createdAt: user.createdAt.toISOString(),
  disabledAt: user.disabledAt?.toISOString() ?? null,
});

/** A tenant with what it holds now: instances whose quota is still charged. */
export const tenantDetailView = ({ tenant, usage }: TenantWithUsage): z.infer<typeof tenantDetailSchema> => ({ ...tenantView(tenant), usage });

const iso = (at: Date | null) => at?.toISOString() ?? null;

export const apiTokenView = (token: TokenRow): z.infer<typeof apiTokenSchema> => ({
  id: token.id,
  userId: token.userId,
  name: token.name,
  bootstrap: token.bootstrap,
  scopes: token.scopes,
  projectId: token.projectId,
  active: !token.revokedAt && !token.user.disabledAt && !(token.expiresAt && token.expiresAt <= new Date()),
  createdAt: token.createdAt.toISOString(),
  lastUsedAt: iso(token.lastUsedAt),
  expiresAt: iso(token.expiresAt),
  revokedAt: iso(token.revokedAt),
});

/** Tenants, users and their API tokens. Mounted under /v1/admin (the operator's: route-actions.ts). */
export function adminIdentityRouter(deps: ApiDeps): Router {
  const router = Router();

  router.post('/tenants', async (req, res) => {
    const body = parseBody(createTenantSchema, req);
    send(res, tenantView(await createTenant(deps, principal(req), body)), {}, 201);
  });

  router.get('/tenants', listHandler((page) => listTenants(deps, page), tenantView));

  router.get('/tenants/:id', async (req, res) => {
    send(res, tenantDetailView(await readTenant(deps, pathParam(req, 'id'))));
  });

  router.post('/users', async (req, res) => {
    const body = parseBody(createUserSchema, req);
    const user = await createUser(deps, principal(req), body).catch(conflictOnDuplicate('user', 'email'));
    send(res, userView(user), {}, 201);
  });

  router.get('/users', listHandler((page, query) => listUsers(deps, page, query), userView, listUsersQuerySchema));

  router.get('/users/:id', async (req, res) => {
    send(res, userView(await findUser(deps, pathParam(req, 'id'))));
  });

  /** The plaintext token is in this response only; the database keeps its SHA-256 digest. */
  router.post('/users/:id/tokens', async (req, res) => {
    const body = parseBody(createTokenSchema, req);
    send(res, await issueApiToken(deps, principal(req).userId, pathParam(req, 'id'), body), {}, 201);
  });

  router.get('/users/:id/tokens', async (req, res) => {
    const { id: userId } = await findUser(deps, pathParam(req, 'id'));
    await listHandler((page) => listApiTokens(deps, userId, page), apiTokenView)(req, res);
  });

  router.post('/users/:id/tokens/:tokenId/revoke', async (req, res) => {
    send(res, apiTokenView(await revokeApiToken(deps, principal(req).userId, { id: pathParam(req, 'tokenId'), userId: pathParam(req, 'id') })));
  });

  router.post('/users/:id/disable', async (req, res) => {
    send(res, userView(await setUserDisabled(deps, principal(req), pathParam(req, 'id'), true)));
  });
  router.post('/users/:id/enable', async (req, res) => {
    send(res, userView(await setUserDisabled(deps, principal(req), pathParam(req, 'id'), false)));
  });

  return router;
}
