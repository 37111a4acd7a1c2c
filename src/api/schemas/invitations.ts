import { z } from 'zod';
import { MAX_INVITATION_HOURS } from '../../services/invitations';
import { listQuerySchema, registerRoute } from '../openapi';
import { emailSchema, tenantRoleSchema } from './identity';

// ---------- requests ----------

export const createInvitationSchema = z
  .strictObject({
    email: emailSchema.openapi({ description: 'Who the link is for: the user made on acceptance signs in with it.' }),
    role: tenantRoleSchema,
    expiresInHours: z
      .number()
      .int()
      .min(1)
      .max(MAX_INVITATION_HOURS)
      .optional()
      .openapi({ description: `How long the link works, at most ${MAX_INVITATION_HOURS} hours (30 days); INVITE_TTL_HOURS when left out.` }),
  })
  .openapi('CreateInvitation');

// ---------- responses ----------

export const invitationSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    role: tenantRoleSchema.nullable().openapi({ description: 'The role the new user gets; null for an administrator’s invite of an existing user.' }),
    status: z.enum(['pending', 'accepted', 'expired', 'revoked']),
    userId: z.string().nullable().openapi({ description: 'The user it made (or was for); null until accepted.' }),
    createdBy: z.string(),
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime(),
    acceptedAt: z.iso.datetime().nullable(),
    revokedAt: z.iso.datetime().nullable(),
  })
  .openapi('Invitation');

export const issuedInvitationSchema = invitationSchema
  .extend({
    url: z.string().openapi({ description: 'The one-time link (PUBLIC_URL, its token after `#`): in this answer only, never again. An invitation for the same email made later revokes this one.' }),
  })
  .openapi('IssuedInvitation');

// ---------- paths ----------

const team = ['team'];
registerRoute({
  method: 'post',
  path: '/v1/invitations',
  summary: 'Invite someone into your tenant with a role (tenant owners): a one-time link, shown once',
  description:
    'The link opens the console’s page that sets a password (`POST /v1/invitations/accept`), which makes the user. No mail is sent: a `user.invited` webhook (see the webhook events) carries the link to whatever mails it.',
  tags: team,
  request: { body: createInvitationSchema },
  response: issuedInvitationSchema,
  status: 201,
  errors: ['CONFLICT', 'FORBIDDEN'],
});
registerRoute({
  method: 'get',
  path: '/v1/invitations',
  summary: "Your tenant's invitations, newest first, with their status (never their links)",
  tags: team,
  request: { query: listQuerySchema },
  response: invitationSchema,
  list: true,
  errors: ['FORBIDDEN'],
});
registerRoute({
  method: 'delete',
  path: '/v1/invitations/:id',
  summary: 'Revoke a pending invitation: its link stops working',
  tags: team,
  response: invitationSchema,
  errors: ['NOT_FOUND', 'INVALID_STATE', 'FORBIDDEN'],
});
