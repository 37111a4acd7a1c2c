import { z } from 'zod';
import { registerRoute, sequenceSchema } from '../openapi';

export const auditEntryView = z
  .object({
    id: z.string(),
    at: z.iso.datetime(),
    actor: z
      .object({
        userId: z.string(),
        email: z.string().nullable(),
        via: z.enum(['token', 'session']).nullable().openapi({ description: 'How the actor signed the request: an API token or a console session; null when no request of theirs did it (an invitation accepted, a schedule, entries older than this field).' }),
        token: z.object({ id: z.string(), name: z.string().nullable() }).nullable().openapi({ description: 'The API token the request came with (its id and name, never its secret).' }),
        sessionId: z.string().nullable().openapi({ description: 'The console session the request came with.' }),
      })
      .nullable()
      .openapi({ description: 'Null when the system acted on its own (a workflow, the reconciler).' }),
    address: z.string().nullable().openapi({ description: 'The client address of the request that did it, as the API reads it behind TRUST_PROXY; null when no request did.' }),
    action: z.string().openapi({ description: 'What happened, its outcome in its name: `instance.reboot`, `instance.reboot.succeeded`, `grant.revoked`, `console.closed`…' }),
    instanceId: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).openapi({ description: 'Ids, roles, permissions, reasons and times: never a secret, nor where a server lives.' }),
  })
  .openapi('AuditEntry');

const at = z.iso.datetime({ offset: true });

export const auditQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: sequenceSchema.optional().openapi({ description: 'Opaque: `meta.nextCursor` of the previous page.' }),
  userId: z.string().min(1).max(64).optional().openapi({ description: 'Who acted.' }),
  instanceId: z.string().min(1).max(64).optional(),
  action: z.string().min(1).max(128).optional(),
  from: at.optional().openapi({ description: 'Entries at or after this time.' }),
  to: at.optional().openapi({ description: 'Entries before this time.' }),
  tenantId: z.string().min(1).max(64).optional().openapi({ description: 'Admins only: one tenant.' }),
});

registerRoute({
  method: 'get',
  path: '/v1/audit',
  summary: "Your tenant's audit trail, newest first (tenant owners; admins: every tenant's)",
  tags: ['audit'],
  request: { query: auditQuerySchema },
  response: auditEntryView,
  list: true,
  errors: ['FORBIDDEN'],
});
