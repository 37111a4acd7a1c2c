import { z } from 'zod';
import { INSTANCE_EVENT_TYPES } from '../../domain/events';
import { sequenceSchema } from '../openapi';

export const instanceEventSchema = z
  .object({
    id: z.string(),
    type: z.enum(INSTANCE_EVENT_TYPES),
    instanceId: z.string(),
    tenantId: z.string(),
    data: z.object({
      status: z.string(),
      hostname: z.string().optional(),
      code: z.string().optional(),
      operation: z.string().optional(),
      previousStatus: z.string().optional(),
      traffic: z
        .object({
          threshold: z.number().int().optional(),
          periodStart: z.string(),
          periodEnd: z.string(),
          countedBytes: z.number().int(),
          allowanceBytes: z.number().int().nullable(),
          percent: z.number().nullable(),
          throttleMbps: z.number().int().optional(),
        })
        .optional()
        .openapi({ description: 'Traffic events: the billing period\'s figures (bytes are exact integers).' }),
    }),
    createdAt: z.string(),
  })
  .openapi('InstanceEvent');

export const eventListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: sequenceSchema
    .optional()
    .openapi({ description: 'Opaque: `meta.nextCursor` of the previous page.' }),
  type: z.enum(INSTANCE_EVENT_TYPES).optional(),
  instanceId: z.string().min(1).max(64).optional(),
  tenantId: z.string().min(1).max(64).optional().openapi({ description: 'Admins only: one tenant.' }),
});
