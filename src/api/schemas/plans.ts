import { z } from 'zod';
import { archivedAt, archivedField, nameSchema, timestamp, usernameSchema } from './catalog-fields';

/** A plan's traffic terms, as written (all optional; on create the defaults: unmetered, `out`, `none`, `calendar_month`). */
const trafficTerms = {
  trafficAllowanceGiB: z
    .number()
    .int()
    .min(0)
    .max(10_000_000)
    .nullable()
    .optional()
    .openapi({ description: 'Traffic a server may move per billing period, GiB (2^30 bytes); null (the default): unmetered.' }),
  trafficCounted: z.enum(['out', 'in+out', 'max']).optional().openapi({ description: 'What counts against the allowance: outbound only (the default), inbound and outbound together, or the larger of the two.' }),
  trafficOverage: z
    .enum(['throttle', 'none'])
    .optional()
    .openapi({ description: 'Past 100% of the allowance: `throttle` holds the server\'s NICs to `throttleMbps` until the next period; `none` (the default) counts and reports only.' }),
  throttleMbps: z
    .number()
    .int()
    .min(1)
    .max(100_000)
    .nullable()
    .optional()
    .openapi({ description: 'Megabits per second (10^6 bit/s) a throttled server may send and receive on each NIC. Proxmox VE sets NIC rates in megabytes per second: 10 Mbit/s becomes `rate=1.192`.' }),
  billingPeriod: z
    .enum(['calendar_month', 'anniversary'])
    .optional()
    .openapi({ description: "`calendar_month` (the default): the month in UTC; `anniversary`: each server's own month from the hour it was created." }),
};

export const createPlanSchema = z
  .strictObject({
    name: nameSchema,
    vcpus: z.number().int().min(1).max(512),
    memoryMiB: z.number().int().min(128).max(16 * 1024 * 1024),
    diskGiB: z.number().int().min(1).max(1024 * 1024),
    defaultUsername: usernameSchema.optional(),
    snapshotLimit: z.number().int().min(0).max(1000).optional().openapi({ description: 'Snapshots a server may hold at once; 0 (the default): none.' }),
    backupLimit: z.number().int().min(0).max(1000).optional().openapi({ description: 'Backups a server may hold at once; 0 (the default): none.' }),
    ...trafficTerms,
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
    ...trafficTerms,
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
  trafficAllowanceGiB: z.number().int().nullable().openapi({ description: 'Traffic a server may move per billing period, GiB (2^30 bytes); null: unmetered.' }),
  trafficCounted: z.enum(['out', 'in+out', 'max']),
  trafficOverage: z.enum(['throttle', 'none']),
  throttleMbps: z.number().int().nullable().openapi({ description: 'Megabits per second a throttled server is held to.' }),
  billingPeriod: z.enum(['calendar_month', 'anniversary']),
};

/** What a customer sees. */
export const planSchema = z.object(planFields).openapi('Plan');

/** What an administrator sees. */
export const adminPlanSchema = z.object({ ...planFields, defaultUsername: z.string().nullable(), createdAt: timestamp, archivedAt }).openapi('AdminPlan');
