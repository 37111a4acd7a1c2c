import { Router } from 'express';
import { inviteUser, setUserPassword } from '../../services/users';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { parseBody, pathParam, send } from '../http';
import { setPasswordSchema } from '../schemas/sessions';

/** Console access for users: invite links and passwords set by an administrator. Mounted under /v1/admin. */
export function usersAdminRouter(deps: ApiDeps): Router {
  const router = Router();

  /** A new invite replaces the user's unused ones; the link carries its token after `#`, so it never reaches a server log. */
  router.post('/users/:id/invites', async (req, res) => {
    const invite = await inviteUser(deps, principal(req), pathParam(req, 'id'));
    send(res, { id: invite.id, userId: invite.userId, url: invite.url, expiresAt: invite.expiresAt.toISOString() }, {}, 201);
  });

  router.post('/users/:id/password', async (req, res) => {
    const actor = principal(req);
    const body = parseBody(setPasswordSchema, req);
    await setUserPassword(deps, actor, pathParam(req, 'id'), body.password);
    res.status(204).end();
  });

  return router;
}
