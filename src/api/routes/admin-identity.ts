import { type Request, type Response, Router } from 'express';
import type { z } from 'zod';
import { AppError, notFound } from '../../domain/errors';
import { newId } from '../../security/ids';
import type { Db } from '../../db/client';
import type { Tenant, User } from '../../generated/prisma/client';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { conflictOnDuplicate } from '../../db/errors';
import { listHandler, parseBody, pathParam, send } from '../http';
import { apiTokenView, issueApiToken, revokeApiToken } from '../api-tokens';
import {
  createTenantSchema,
  createTokenSchema,
  createUserSchema,
  listUsersQuerySchema,
  type tenantDetailSchema,
  type tenantSchema,
  type userSchema,
} from '../schemas/identity';
import { recordAudit } from '../../db/audit';
import { endSessions } from '../session-auth';

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


/** A tenant with what it holds now: instances whose quota is still charged. */
export async function tenantDetailView(db: Db, tenant: Tenant): Promise<z.infer<typeof tenantDetailSchema>> {
  const usage = await db.instance.aggregate({
    where: { tenantId: tenant.id, quotaReleasedAt: null },
    _count: { _all: true },
    _sum: { chargedVcpus: true, chargedMemoryMiB: true, chargedDiskGiB: true },
  });
  return {
    ...tenantView(tenant),
    usage: {
      instances: usage._count._all,
      vcpus: usage._sum.chargedVcpus ?? 0,
      memoryMiB: usage._sum.chargedMemoryMiB ?? 0,
      diskGiB: usage._sum.chargedDiskGiB ?? 0,
    },
  };
}

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
    send(res, await tenantDetailView(db, tenant));
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
    const user = await db.user.findUnique({ where: { id: pathParam(req, 'id') } });
    if (!user) throw notFound('user');
    send(res, await issueApiToken(db, principal(req).userId, user, body), {}, 201);
  });

  router.get('/users/:id/tokens', async (req, res) => {
    const userId = pathParam(req, 'id');
    if (!(await db.user.findUnique({ where: { id: userId }, select: { id: true } }))) throw notFound('user');
    await listHandler((page) => db.apiToken.findMany({ ...page, where: { ...page.where, userId }, include: { user: true } }), apiTokenView)(req, res);
  });

  router.post('/users/:id/tokens/:tokenId/revoke', async (req, res) => {
    send(res, await revokeApiToken(db, principal(req).userId, { id: pathParam(req, 'tokenId'), userId: pathParam(req, 'id') }));
  });

  /** Disabling takes effect on the next request of every token and session of the user; enabling gives back the tokens still valid. */
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
      // Sessions end for good (enabling again does not bring them back); tokens wait for the user to be enabled.
      if (disabled) await endSessions(tx, { userId });
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
