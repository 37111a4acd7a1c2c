import { z } from 'zod';
import { SERVER_PERMISSIONS } from '../../services/authorization';
import { listQuerySchema, registerRoute } from '../openapi';
import { changeTenantUserSchema, createTenantUserSchema, userSchema } from './identity';

// ---------- requests ----------

export const serverPermissionSchema = z.enum(SERVER_PERMISSIONS);

export const createGrantSchema = z
  .strictObject({
    userId: z.string().min(1).max(64).openapi({ description: 'A user of the server’s tenant.' }),
    permissions: z
      .array(serverPermissionSchema)
      .max(SERVER_PERMISSIONS.length * 2)
      .openapi({ description: 'What the user may do to the server; `read` is always included. Giving a grant again replaces its permissions.' }),
  })
  .openapi('CreateGrant');

// ---------- responses ----------

export const grantView = z
  .object({
    userId: z.string(),
    email: z.string(),
    permissions: z.array(serverPermissionSchema),
    createdBy: z.string(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('Grant');

// ---------- paths ----------

const team = ['team'];
registerRoute({
  method: 'post',
  path: '/v1/users',
  summary: 'Add a user to your tenant (tenant owners)',
  description: 'The user has no password yet: an invite link (`POST /v1/admin/users/{id}/invites`) or an administrator sets one.',
  tags: team,
  request: { body: createTenantUserSchema },
  response: userSchema,
  status: 201,
  errors: ['CONFLICT', 'FORBIDDEN'],
});
registerRoute({
  method: 'get',
  path: '/v1/users',
  summary: 'The users of your tenant, newest first (owners and members)',
  tags: team,
  request: { query: listQuerySchema },
  response: userSchema,
  list: true,
  errors: ['FORBIDDEN'],
});
registerRoute({
  method: 'patch',
  path: '/v1/users/:id',
  summary: "Change a user's role, or disable or enable them (tenant owners; never themselves)",
  description: 'A user made a viewer keeps only `read` of the servers shared with them. Disabling ends their sessions and stops their tokens.',
  tags: team,
  request: { body: changeTenantUserSchema },
  response: userSchema,
  errors: ['NOT_FOUND', 'INVALID_STATE', 'FORBIDDEN'],
});
registerRoute({
  method: 'post',
  path: '/v1/instances/:id/grants',
  summary: 'Share a server with a user of its tenant',
  description: "Its creator or a tenant owner names what the user may do; a grant given again is replaced. Narrowing or revoking it ends what it no longer allows, including the user's open consoles and event streams of the server.",
  tags: team,
  request: { body: createGrantSchema },
  response: grantView,
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});
registerRoute({ method: 'get', path: '/v1/instances/:id/grants', summary: 'Who a server is shared with, and what they may do', tags: team, response: grantView, list: true, meta: z.object({}), errors: ['NOT_FOUND', 'FORBIDDEN'] });
registerRoute({
  method: 'delete',
  path: '/v1/instances/:id/grants/:userId',
  summary: "Stop sharing a server with a user: their open consoles and event streams of it end",
  tags: team,
  status: 204,
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});
