import { z } from 'zod';
import { sshKeyIdsSchema, sshPublicKeySchema } from './instances';

/** start, stop, shutdown, reboot and delete take no body (an empty object is fine). */
export const emptyBody = z.strictObject({});

export const deleteQuery = z.strictObject({
  keepBackups: z.enum(['true', 'false']).optional().openapi({ description: "Keep the server's backups (they stay listed and count against the tenant); by default they are deleted with it. Protected and external backups are always kept." }),
});

export const resizeBody = z.strictObject({ planId: z.string().min(1).max(64) });

export const rebuildBody = z.strictObject({
  imageId: z.string().min(1).max(64).optional(),
  sshKeys: z.array(sshPublicKeySchema).max(32).optional().openapi({ description: "The server's SSH keys from now on, with `sshKeyIds`; send neither to keep the keys it has." }),
  sshKeyIds: sshKeyIdsSchema,
});

export const migrateBody = z.strictObject({ node: z.string().min(1).max(63) });

export const mountIsoBody = z.strictObject({ isoId: z.string().min(1).max(64) });

export const bootOrderBody = z.strictObject({ first: z.enum(['disk', 'cdrom']).openapi({ description: 'What the server boots from first after its next start or reboot.' }) });

export const operationMeta = z.object({ taskId: z.string().nullable() });
