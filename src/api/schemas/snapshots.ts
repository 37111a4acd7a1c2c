import { z } from 'zod';
import { SnapshotStatus } from '../../generated/prisma/enums';
import { isReservedSnapshotName, SNAPSHOT_NAME, SNAPSHOT_NAME_MAX } from '../../domain/snapshots';

export const snapshotNameSchema = z
  .string()
  .max(SNAPSHOT_NAME_MAX)
  .regex(SNAPSHOT_NAME, 'must start with a letter, then at least one of a-z A-Z 0-9 _ - (at most 40 characters)')
  .refine((name) => !isReservedSnapshotName(name), '`current` and `pending` are reserved');

export const createSnapshotBody = z.strictObject({
  name: snapshotNameSchema,
  description: z.string().max(1000).optional(),
  includeMemory: z.boolean().optional().openapi({ description: "Also save a running server's RAM: a rollback then resumes it where it was. Takes longer and more space." }),
});

export const snapshotView = z
  .object({
    name: z.string(),
    description: z.string(),
    includesMemory: z.boolean(),
    status: z.enum(SnapshotStatus),
    createdAt: z.iso.datetime(),
  })
  .openapi('Snapshot');

export const snapshotPathParams = z.object({ id: z.string(), name: snapshotNameSchema });
