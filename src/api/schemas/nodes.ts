import { z } from 'zod';
import { nodeNameSchema } from './catalog-fields';

/** A node of a connection and the share of it we may allocate. */
export const nodeSpecSchema = z
  .strictObject({
    name: nodeNameSchema,
    vcpus: z.number().int().min(1).max(100_000),
    memoryMiB: z.number().int().min(128).max(2 ** 31 - 1),
    diskGiB: z.number().int().min(1).max(2 ** 31 - 1),
  })
  .openapi('NodeSpec');

export const updateNodeSchema = z
  .strictObject({
    vcpus: z.number().int().min(1).max(100_000).optional(),
    memoryMiB: z.number().int().min(128).max(2 ** 31 - 1).optional(),
    diskGiB: z.number().int().min(1).max(2 ** 31 - 1).optional(),
    enabled: z.boolean().optional().openapi({ description: 'false: no new placements, and no resize or migration to it.' }),
    draining: z.boolean().optional().openapi({ description: 'true: no new servers are placed here (creates, migrations to it); the servers on it keep working.' }),
  })
  .openapi('UpdateNode', { description: 'Capacity below what servers hold on the node is refused (409, with the numbers).' });

export const nodeSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    vcpus: z.number().int(),
    memoryMiB: z.number().int(),
    diskGiB: z.number().int(),
    enabled: z.boolean(),
    draining: z.boolean(),
  })
  .openapi('Node');
