import { Router } from 'express';
import type { z } from 'zod';
import { recordAudit } from '../../db/audit';
import { AppError, notFound } from '../../domain/errors';
import type { Session, User } from '../../generated/prisma/client';
import { acceptInvite, signIn } from '../../services/passwords';
import type { ApiDeps } from '../deps';
import { principal, type Principal } from '../auth';
import { listHandler, parseBody, pathParam, send } from '../http';
import { clearSessionCookie, endSessions, sessionIsActive, startSession } from '../session-auth';
import { acceptInviteSchema, type sessionSchema, signInSchema, type signedInSchema } from '../schemas/sessions';
import { userView } from './admin-identity';

export const sessionView = (session: Session, deps: Pick<ApiDeps, 'config'>, who?: Principal): z.infer<typeof sessionSchema> => ({
  id: session.id,
  current: session.id === who?.sessionId,
  userAgent: session.userAgent,
  address: session.address,
  createdAt: session.createdAt.toISOString(),
  lastSeenAt: session.lastSeenAt.toISOString(),
  expiresAt: session.expiresAt.toISOString(),
  active: sessionIsActive(session, deps.config),
});

const signedInView = (deps: ApiDeps, session: Session, user: User, who?: Principal): z.infer<typeof signedInSchema> => ({
  session: sessionView(session, deps, who ?? { ...principalOf(user), sessionId: session.id }),
  user: userView(user),
  csrfToken: session.csrfToken,
  temporalWorkflowsUrl: user.role === 'admin' ? `${deps.config.TEMPORAL_UI_URL}/namespaces/${encodeURIComponent(deps.config.TEMPORAL_NAMESPACE)}/workflows` : null,
});

const principalOf = (user: User): Principal => ({ userId: user.id, tokenId: '', role: user.role, tenantId: user.tenantId });

/** Signing in and inviting: the routes that need no session or token. Mounted before authentication. */
export function publicSessionRouter(deps: ApiDeps): Router {
  const { db, config } = deps;
  const router = Router();

  router.post('/sessions', async (req, res) => {
    const body = parseBody(signInSchema, req);
    const user = await signIn(deps, body.email, body.password, req.ip ?? 'unknown');
    const { session } = await startSession(db, config, user, req, res);
    await recordAudit(db, { action: 'session.started', actorUserId: user.id, tenantId: user.tenantId, details: { userId: user.id, sessionId: session.id } });
    send(res, signedInView(deps, session, user), {}, 201);
  });

  router.post('/invites/accept', async (req, res) => {
    const body = parseBody(acceptInviteSchema, req);
    const user = await acceptInvite(deps, body.token, body.password, req.ip ?? 'unknown');
    send(res, { email: user.email });
  });

  return router;
}

/** The caller's own sessions: who am I, sign out, list, revoke. */
export function sessionsRouter(deps: ApiDeps): Router {
  const { db, config } = deps;
  const router = Router();

  const currentSession = async (who: Principal) => {
    if (!who.sessionId) throw new AppError('INVALID_STATE', 'This request came with an API token, not a session.');
    return db.session.findUniqueOrThrow({ where: { id: who.sessionId }, include: { user: true } });
  };

  router.get('/sessions/current', async (req, res) => {
    const who = principal(req);
    const session = await currentSession(who);
    send(res, signedInView(deps, session, session.user, who));
  });

  router.delete('/sessions/current', async (req, res) => {
    const who = principal(req);
    const session = await currentSession(who);
    await endSessions(db, { userId: who.userId, id: session.id });
    await recordAudit(db, { action: 'session.revoked', actorUserId: who.userId, tenantId: who.tenantId, details: { userId: who.userId, sessionId: session.id, reason: 'signed_out' } });
    clearSessionCookie(res, config);
    res.status(204).end();
  });

  router.get('/sessions', async (req, res) => {
    const who = principal(req);
    await listHandler((page) => db.session.findMany({ ...page, where: { ...page.where, userId: who.userId } }), (session) => sessionView(session, deps, who))(req, res);
  });

  router.delete('/sessions/:id', async (req, res) => {
    const who = principal(req);
    const id = pathParam(req, 'id');
    const ended = await endSessions(db, { userId: who.userId, id });
    const session = await db.session.findFirst({ where: { id, userId: who.userId } });
    if (!session) throw notFound('session');
    if (ended > 0) await recordAudit(db, { action: 'session.revoked', actorUserId: who.userId, tenantId: who.tenantId, details: { userId: who.userId, sessionId: id, reason: 'revoked' } });
    send(res, sessionView(session, deps, who));
  });

  return router;
}
