import { type Request, type Response, Router } from 'express';
import type { z } from 'zod';
import { AppError, notFound } from '../../domain/errors';
import { newId } from '../../security/ids';
import type { ApiToken, Tenant, User } from '../../generated/prisma/client';
import { generateApiToken, hashToken } from '../../security/secrets';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { conflictOnDuplicate } from '../errors';
import { listHandler, parseBody, pathParam, send } from '../http';
import {
  type apiTokenSchema,
  createTenantSchema,
  createTokenSchema,
  createUserSchema,
  listUsersQuerySchema,
  type tenantSchema,
  type userSchema,
} from '../schemas/identity';
import { recordAudit } from '../../db/audit';

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
  createdAt: user.createdAt.toISOString(),
  disabledAt: user.disabledAt?.toISOString() ?? null,
});

const iso = (at: Date | null) => at?.toISOString() ?? null;

export const apiTokenView = (token: ApiToken & { user: User }): z.infer<typeof apiTokenSchema> => ({
  id: token.id,
  userId: token.userId,
  name: token.name,
  bootstrap: token.bootstrap,
  active: !token.revokedAt && !token.user.disabledAt && !(token.expiresAt && token.expiresAt <= new Date()),
  createdAt: token.createdAt.toISOString(),
  lastUsedAt: iso(token.lastUsedAt),
  expiresAt: iso(token.expiresAt),
  revokedAt: iso(token.revokedAt),
});

const DAY_MS = 86_400_000;

/** Tenants, users and their API tokens. Mounted under /v1/admin behind requireAdmin. */
export function adminIdentityRouter(deps: ApiDeps): Router {
  const { db } = deps;
  const router = Router();

  router.post('/tenants', async (req, res) => {
    const body = parseBody(createTenantSchema, req);
    const actor = principal(req);
    const tenant = await db.$transaction(async (tx) => {
      const created = await tx.tenant.create({
        data: {
          id: newId('ten'),
          name: body.name,
          quotaInstances: body.quota.instances,
          quotaVcpus: body.quota.vcpus,
          quotaMemoryMiB: body.quota.memoryMiB,
          quotaDiskGiB: body.quota.diskGiB,
        },
      });
      await recordAudit(tx, { action: 'tenant.created', actorUserId: actor.userId, tenantId: created.id, details: { name: created.name } });
      return created;
    });
    send(res, tenantView(tenant), {}, 201);
  });

  router.get('/tenants', listHandler((page) => db.tenant.findMany(page), tenantView));

  router.get('/tenants/:id', async (req, res) => {
    const tenant = await db.tenant.findUnique({ where: { id: pathParam(req, 'id') } });
    if (!tenant) throw notFound('tenant');
    const usage = await db.instance.aggregate({
      where: { tenantId: tenant.id, quotaReleasedAt: null },
      _count: { _all: true },
      _sum: { chargedVcpus: true, chargedMemoryMiB: true, chargedDiskGiB: true },
    });
    send(res, {
      ...tenantView(tenant),
      usage: {
        instances: usage._count._all,
        vcpus: usage._sum.chargedVcpus ?? 0,
        memoryMiB: usage._sum.chargedMemoryMiB ?? 0,
        diskGiB: usage._sum.chargedDiskGiB ?? 0,
      },
    });
  });

  router.post('/users', async (req, res) => {
    const body = parseBody(createUserSchema, req);
    const actor = principal(req);
    const tenantId = body.role === 'customer' ? (body.tenantId ?? null) : null;
    const user = await db
      .$transaction(async (tx) => {
        if (tenantId && !(await tx.tenant.findUnique({ where: { id: tenantId }, select: { id: true } }))) {
          throw new AppError('INVALID_INPUT', 'The request body is invalid.', { fields: { tenantId: 'no such tenant' } });
        }
        const created = await tx.user.create({ data: { id: newId('usr'), tenantId, email: body.email, role: body.role } });
        await recordAudit(tx, { action: 'user.created', actorUserId: actor.userId, tenantId, details: { userId: created.id, role: created.role } });
        return created;
      })
      .catch(conflictOnDuplicate('user', 'email'));
    send(res, userView(user), {}, 201);
  });

  router.get(
    '/users',
    listHandler(
      (page, query) => db.user.findMany({ ...page, where: { ...page.where, ...(query.tenantId ? { tenantId: query.tenantId } : {}) } }),
      userView,
      listUsersQuerySchema,
    ),
  );

  router.get('/users/:id', async (req, res) => {
    const user = await db.user.findUnique({ where: { id: pathParam(req, 'id') } });
    if (!user) throw notFound('user');
    send(res, userView(user));
  });

  /** The plaintext token is in this response only; the database keeps its SHA-256 digest. */
  router.post('/users/:id/tokens', async (req, res) => {
    const body = parseBody(createTokenSchema, req);
    const actor = principal(req);
    const user = await db.user.findUnique({ where: { id: pathParam(req, 'id') } });
    if (!user) throw notFound('user');
    const token = generateApiToken();
    const id = newId('tok');
    const name = body.name ?? null;
    const expiresAt = body.expiresAt ? new Date(body.expiresAt) : body.expiresInDays ? new Date(Date.now() + body.expiresInDays * DAY_MS) : null;
    await db.$transaction([
      db.apiToken.create({ data: { id, userId: user.id, tokenHash: hashToken(token), name, expiresAt } }),
      recordAudit(db, { action: 'token.issued', actorUserId: actor.userId, tenantId: user.tenantId, details: { userId: user.id, tokenId: id, expiresAt: iso(expiresAt) } }),
    ]);
    res.setHeader('Cache-Control', 'no-store');
    send(res, { id, token, name, expiresAt: iso(expiresAt) }, {}, 201);
  });

  router.get('/users/:id/tokens', async (req, res) => {
    const userId = pathParam(req, 'id');
    if (!(await db.user.findUnique({ where: { id: userId }, select: { id: true } }))) throw notFound('user');
    await listHandler((page) => db.apiToken.findMany({ ...page, where: { ...page.where, userId }, include: { user: true } }), apiTokenView)(req, res);
  });

  /** Idempotent: a token revoked earlier is answered as it is, with no second audit row. */
  router.post('/users/:id/tokens/:tokenId/revoke', async (req, res) => {
    const actor = principal(req);
    const where = { id: pathParam(req, 'tokenId'), userId: pathParam(req, 'id') };
    const token = await db.$transaction(async (tx) => {
      const { count } = await tx.apiToken.updateMany({ where: { ...where, revokedAt: null }, data: { revokedAt: new Date() } });
      const row = await tx.apiToken.findFirst({ where, include: { user: true } });
      if (!row) throw notFound('token');
      if (count > 0) {
        await recordAudit(tx, { action: 'token.revoked', actorUserId: actor.userId, tenantId: row.user.tenantId, details: { userId: row.userId, tokenId: row.id } });
      }
      return row;
    });
    send(res, apiTokenView(token));
  });

  /** Disabling takes effect on the next request of every token of the user; enabling gives back the tokens still valid. */
  const setDisabled = (disabled: boolean) => async (req: Request, res: Response) => {
    const actor = principal(req);
    const userId = pathParam(req, 'id');
    if (disabled && userId === actor.userId) {
      throw new AppError('INVALID_STATE', 'Administrators cannot disable themselves: another administrator must do it.');
    }
    const user = await db.$transaction(async (tx) => {
      const { count } = await tx.user.updateMany({
        where: { id: userId, disabledAt: disabled ? null : { not: null } },
        data: { disabledAt: disabled ? new Date() : null },
      });
      const row = await tx.user.findUnique({ where: { id: userId } });
      if (!row) throw notFound('user');
      if (count > 0) {
        await recordAudit(tx, { action: disabled ? 'user.disabled' : 'user.enabled', actorUserId: actor.userId, tenantId: row.tenantId, details: { userId } });
      }
      return row;
    });
    send(res, userView(user));
  };
  router.post('/users/:id/disable', setDisabled(true));
  router.post('/users/:id/enable', setDisabled(false));

  return router;
}
