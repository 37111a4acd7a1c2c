import { Router } from 'express';
import type { z } from 'zod';
import { conflictOnDuplicate } from '../../db/errors';
import { listGrants, revokeGrant, shareServer, type GrantRow } from '../../services/grants';
import { changeTenantUser, createTenantUser, listUsers } from '../../services/users';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { listHandler, parseBody, pathParam, send } from '../http';
import { changeTenantUserSchema, createTenantUserSchema } from '../schemas/identity';
import { createGrantSchema, type grantView } from '../schemas/team';
import { userView } from './admin-identity';

const toGrantView = (grant: GrantRow): z.infer<typeof grantView> => ({
  userId: grant.userId,
  email: grant.user.email,
  permissions: grant.permissions as z.infer<typeof grantView>['permissions'],
  createdBy: grant.createdBy,
  createdAt: grant.createdAt.toISOString(),
  updatedAt: grant.updatedAt.toISOString(),
});

/** A tenant's own users, and the sharing of its servers. */
export function teamRouter(deps: ApiDeps): Router {
  const router = Router();

  router.post('/users', async (req, res) => {
    const body = parseBody(createTenantUserSchema, req);
    send(res, userView(await createTenantUser(deps, principal(req), body).catch(conflictOnDuplicate('user', 'email'))), {}, 201);
  });

  router.get('/users', (req, res) => listHandler((page) => listUsers(deps, page, { tenantId: principal(req).tenantId ?? '-' }), userView)(req, res));

  router.patch('/users/:id', async (req, res) => {
    send(res, userView(await changeTenantUser(deps, principal(req), pathParam(req, 'id'), parseBody(changeTenantUserSchema, req))));
  });

  router.post('/instances/:id/grants', async (req, res) => {
    const body = parseBody(createGrantSchema, req);
    send(res, toGrantView(await shareServer(deps, principal(req), pathParam(req, 'id'), body)));
  });

  router.get('/instances/:id/grants', async (req, res) => {
    send(res, (await listGrants(deps, principal(req), pathParam(req, 'id'))).map(toGrantView));
  });

  router.delete('/instances/:id/grants/:userId', async (req, res) => {
    await revokeGrant(deps, principal(req), pathParam(req, 'id'), pathParam(req, 'userId'));
    res.status(204).end();
  });

  return router;
}
