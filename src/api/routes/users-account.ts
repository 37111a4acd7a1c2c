import { Router } from 'express';
import { recordAudit } from '../../db/audit';
import { hashPasswordBounded } from '../../security/password-hashing';
import { checkCurrentPassword } from '../../services/passwords';
import { apiTokenView, issueApiToken, revokeApiToken } from '../api-tokens';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { listHandler, parseBody, pathParam, send } from '../http';
import { createTokenSchema } from '../schemas/identity';
import { changePasswordSchema } from '../schemas/sessions';
import { endSessions } from '../session-auth';
import { tenantDetailView, userView } from './admin-identity';

/** What every signed-in user manages for themselves: their password and their API tokens. */
export function accountRouter(deps: ApiDeps): Router {
  const { db, config } = deps;
  const router = Router();

  router.get('/account', async (req, res) => {
    const user = await db.user.findUniqueOrThrow({ where: { id: principal(req).userId }, include: { tenant: true } });
    send(res, { user: userView(user), tenant: user.tenant ? await tenantDetailView(db, user.tenant) : null });
  });

  /** Every other session of the user ends: whoever knew the old password is signed out. */
  router.post('/account/password', async (req, res) => {
    const who = principal(req);
    const body = parseBody(changePasswordSchema, req);
    const user = await db.user.findUniqueOrThrow({ where: { id: who.userId } });
    await checkCurrentPassword(deps, user, body.currentPassword, req.ip ?? 'unknown');
    const passwordHash = await hashPasswordBounded(config, body.newPassword);
    await db.$transaction(async (tx) => {
      await tx.user.update({ where: { id: user.id }, data: { passwordHash, passwordChangedAt: new Date() } });
      await endSessions(tx, { userId: user.id, ...(who.sessionId ? { id: { not: who.sessionId } } : {}) });
      await recordAudit(tx, { action: 'user.password_changed', actorUserId: user.id, tenantId: user.tenantId, details: { userId: user.id } });
    });
    res.status(204).end();
  });

  router.post('/account/tokens', async (req, res) => {
    const who = principal(req);
    const body = parseBody(createTokenSchema, req);
    const user = await db.user.findUniqueOrThrow({ where: { id: who.userId } });
    send(res, await issueApiToken(db, who.userId, user, body), {}, 201);
  });

  router.get('/account/tokens', async (req, res) => {
    const { userId } = principal(req);
    await listHandler((page) => db.apiToken.findMany({ ...page, where: { ...page.where, userId }, include: { user: true } }), apiTokenView)(req, res);
  });

  router.post('/account/tokens/:id/revoke', async (req, res) => {
    const { userId } = principal(req);
    send(res, await revokeApiToken(db, userId, { id: pathParam(req, 'id'), userId }));
  });

  return router;
}
