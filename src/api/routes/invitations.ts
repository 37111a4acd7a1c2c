import { Router } from 'express';
import type { z } from 'zod';
import type { UserInvite } from '../../generated/prisma/client';
import { createInvitation, invitationStatus, listInvitations, revokeInvitation } from '../../services/invitations';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { listHandler, parseBody, pathParam, send } from '../http';
import { createInvitationSchema, type invitationSchema } from '../schemas/invitations';

const invitationView = (invite: UserInvite): z.infer<typeof invitationSchema> => ({
  id: invite.id,
  email: invite.email,
  role: invite.tenantRole,
  status: invitationStatus(invite),
  userId: invite.userId,
  createdBy: invite.createdBy,
  createdAt: invite.createdAt.toISOString(),
  expiresAt: invite.expiresAt.toISOString(),
  acceptedAt: invite.usedAt?.toISOString() ?? null,
  revokedAt: invite.revokedAt?.toISOString() ?? null,
});

/** A tenant owner's invitations: make one (its link in this answer only), list, revoke. Accepting one is public (sessions.ts). */
export function invitationsRouter(deps: ApiDeps): Router {
  const router = Router();

  router.post('/invitations', async (req, res) => {
    const { invite, url } = await createInvitation(deps, principal(req), parseBody(createInvitationSchema, req));
    send(res, { ...invitationView(invite), url }, {}, 201);
  });

  router.get('/invitations', (req, res) => listHandler((page) => listInvitations(deps, principal(req), page), invitationView)(req, res));

  router.delete('/invitations/:id', async (req, res) => {
    send(res, invitationView(await revokeInvitation(deps, principal(req), pathParam(req, 'id'))));
  });

  return router;
}
