import { Router } from 'express';
import { issueApiToken, listApiTokens, revokeApiToken } from '../../services/api-tokens';
import { changeOwnPassword, readAccount } from '../../services/users';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { listHandler, parseBody, pathParam, send } from '../http';
import { createTokenSchema } from '../schemas/identity';
import { changePasswordSchema } from '../schemas/sessions';
import { apiTokenView, tenantDetailView, userView } from './admin-identity';

/** What every signed-in user manages for themselves: their password and their API tokens. */
export function accountRouter(deps: ApiDeps): Router {
  const router = Router();

  router.get('/account', async (req, res) => {
    const { user, tenant } = await readAccount(deps, principal(req));
    send(res, { user: userView(user), tenant: tenant ? tenantDetailView(tenant) : null });
  });

  /** Every other session of the user ends: whoever knew the old password is signed out. */
  router.post('/account/password', async (req, res) => {
    const who = principal(req);
    await changeOwnPassword(deps, who, parseBody(changePasswordSchema, req), req.ip ?? 'unknown');
    res.status(204).end();
  });

  router.post('/account/tokens', async (req, res) => {
    const who = principal(req);
    const body = parseBody(createTokenSchema, req);
    send(res, await issueApiToken(deps, who.userId, who.userId, body), {}, 201);
  });

  router.get('/account/tokens', async (req, res) => {
    const { userId } = principal(req);
    await listHandler((page) => listApiTokens(deps, userId, page), apiTokenView)(req, res);
  });

  router.post('/account/tokens/:id/revoke', async (req, res) => {
    const { userId } = principal(req);
    send(res, apiTokenView(await revokeApiToken(deps, userId, { id: pathParam(req, 'id'), userId })));
  });

  return router;
}
