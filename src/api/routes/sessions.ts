import { Router } from 'express';
import type { z } from 'zod';
import type { Session, User } from '../../generated/prisma/client';
import type { Principal } from '../../services/principal';
import { acceptInvite, currentSession, listSessions, revokeSession, sessionIsActive, signIn, signOut } from '../../services/sessions';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { listHandler, parseBody, pathParam, send } from '../http';
import { clearSessionCookie, setSessionCookie } from '../session-auth';
import { acceptInviteSchema, type sessionSchema, signInSchema, type signedInSchema } from '../schemas/sessions';
import { userView } from './admin-identity';

const sessionView = (session: Session, deps: Pick<ApiDeps, 'config'>, who?: Principal): z.infer<typeof sessionSchema> => ({
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

const principalOf = (user: User): Principal => ({ userId: user.id, tokenId: '', role: user.role, tenantId: user.tenantId, tenantRole: user.tenantRole });

/** Signing in and inviting: the routes that need no session or token. Mounted before authentication. */
export function publicSessionRouter(deps: ApiDeps): Router {
  const router = Router();

  router.post('/sessions', async (req, res) => {
    const body = parseBody(signInSchema, req);
    const { session, user, secret } = await signIn(deps, body, { userAgent: req.header('user-agent') ?? null, address: req.ip ?? null });
    setSessionCookie(res, deps.config, secret, session.expiresAt);
    send(res, signedInView(deps, session, user), {}, 201);
  });

  // `/invites/accept` is the path earlier invite pages call.
  router.post(['/invitations/accept', '/invites/accept'], async (req, res) => {
    const user = await acceptInvite(deps, parseBody(acceptInviteSchema, req), { userAgent: req.header('user-agent') ?? null, address: req.ip ?? null });
    send(res, { email: user.email });
  });

  return router;
}

/** The caller's own sessions: who am I, sign out, list, revoke. */
export function sessionsRouter(deps: ApiDeps): Router {
  const router = Router();

  router.get('/sessions/current', async (req, res) => {
    const who = principal(req);
    const session = await currentSession(deps, who);
    send(res, signedInView(deps, session, session.user, who));
  });

  router.delete('/sessions/current', async (req, res) => {
    await signOut(deps, principal(req));
    clearSessionCookie(res, deps.config);
    res.status(204).end();
  });

  router.get('/sessions', async (req, res) => {
    const who = principal(req);
    await listHandler((page) => listSessions(deps, who, page), (session) => sessionView(session, deps, who))(req, res);
  });

  router.delete('/sessions/:id', async (req, res) => {
    const who = principal(req);
    send(res, sessionView(await revokeSession(deps, who, pathParam(req, 'id')), deps, who));
  });

  return router;
}
