import { z } from 'zod';
import { archivedAt, archivedField, nameSchema, timestamp, usernameSchema } from './catalog-fields';

export const createPlanSchema = z
  .strictObject({
    name: nameSchema,
    vcpus: z.number().int().min(1).max(512),
    memoryMiB: z.number().int().min(128).max(16 * 1024 * 1024),
    diskGiB: z.number().int().min(1).max(1024 * 1024),
    defaultUsername: usernameSchema.optional(),
    snapshotLimit: z.number().int().min(0).max(1000).optional().openapi({ description: 'Snapshots a server may hold at once; 0 (the default): none.' }),
    backupLimit: z.number().int().min(0).max(1000).optional().openapi({ description: 'Backups a server may hold at once; 0 (the default): none.' }),
  })
  .openapi('CreatePlan');

export const updatePlanSchema = z
  .strictObject({
    name: nameSchema.optional(),
    vcpus: z.number().int().min(1).max(512).optional(),
    memoryMiB: z.number().int().min(128).max(16 * 1024 * 1024).optional(),
    diskGiB: z.number().int().min(1).max(1024 * 1024).optional(),
    defaultUsername: usernameSchema.nullable().optional(),
    snapshotLimit: z.number().int().min(0).max(1000).optional().openapi({ description: 'Snapshots a server may hold at once; 0 (the default): none.' }),
    backupLimit: z.number().int().min(0).max(1000).optional().openapi({ description: 'Backups a server may hold at once; 0 (the default): none.' }),
    archived: archivedField,
  })
  .openapi('UpdatePlan', { description: 'Sizes cannot change while servers use the plan (409): make a new plan and archive this one.' });

const planFields = {
  id: z.string(),
  name: z.string(),
  vcpus: z.number().int(),
  memoryMiB: z.number().int(),
  diskGiB: z.number().int(),
  snapshotLimit: z.number().int().openapi({ description: 'Snapshots a server may hold at once (0: none).' }),
  backupLimit: z.number().int().openapi({ description: 'Backups a server may hold at once (0: none).' }),
};

/** What a customer sees. */
export const planSchema = z.object(planFields).openapi('Plan');

/** What an administrator sees. */
export const adminPlanSchema = z.object({ ...planFields, defaultUsername: z.string().nullable(), createdAt: timestamp, archivedAt }).openapi('AdminPlan');
