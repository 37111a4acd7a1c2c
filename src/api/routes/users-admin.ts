import { Router } from 'express';
import { recordAudit } from '../../db/audit';
import { notFound } from '../../domain/errors';
import { newId } from '../../security/ids';
import { hashPasswordBounded } from '../../security/password-hashing';
import { generateApiToken, hashToken } from '../../security/secrets';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { parseBody, pathParam, send } from '../http';
import { setPasswordSchema } from '../schemas/sessions';
import { endSessions } from '../session-auth';

/** Console access for users: invite links and passwords set by an administrator. Mounted under /v1/admin. */
export function usersAdminRouter(deps: ApiDeps): Router {
  const { db, config } = deps;
  const router = Router();

  /** A new invite replaces the user's unused ones; the link carries its token after `#`, so it never reaches a server log. */
  router.post('/users/:id/invites', async (req, res) => {
    const actor = principal(req);
    const user = await db.user.findUnique({ where: { id: pathParam(req, 'id') } });
    if (!user) throw notFound('user');
    const token = generateApiToken();
    const id = newId('inv');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + config.INVITE_TTL_HOURS * 3_600_000);
    await db.$transaction(async (tx) => {
      await tx.userInvite.updateMany({ where: { userId: user.id, usedAt: null, expiresAt: { gt: now } }, data: { expiresAt: now } });
      await tx.userInvite.create({ data: { id, userId: user.id, tokenHash: hashToken(token), createdBy: actor.userId, expiresAt } });
      await recordAudit(tx, { action: 'user.invited', actorUserId: actor.userId, tenantId: user.tenantId, details: { userId: user.id, inviteId: id, expiresAt: expiresAt.toISOString() } });
    });
    send(res, { id, userId: user.id, url: `${config.PUBLIC_URL}/invite#${token}`, expiresAt: expiresAt.toISOString() }, {}, 201);
  });

  router.post('/users/:id/password', async (req, res) => {
    const actor = principal(req);
    const body = parseBody(setPasswordSchema, req);
    const user = await db.user.findUnique({ where: { id: pathParam(req, 'id') } });
    if (!user) throw notFound('user');
    const passwordHash = await hashPasswordBounded(config, body.password);
    await db.$transaction(async (tx) => {
      await tx.user.update({ where: { id: user.id }, data: { passwordHash, passwordChangedAt: new Date() } });
      await endSessions(tx, { userId: user.id });
      await recordAudit(tx, { action: 'user.password_set', actorUserId: actor.userId, tenantId: user.tenantId, details: { userId: user.id } });
    });
    res.status(204).end();
  });

  return router;
}
