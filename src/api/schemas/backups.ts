import { z } from 'zod';
import { BackupStatus } from '../../generated/prisma/enums';

export const createBackupBody = z.strictObject({
  notes: z.string().max(1000).optional(),
  protected: z.boolean().optional().openapi({ description: 'A protected backup cannot be deleted by its customer (409 BACKUP_PROTECTED); an operator can.' }),
});

export const backupView = z
  .object({
    id: z.string(),
    instanceId: z.string(),
    status: z.enum(BackupStatus),
    notes: z.string().nullable(),
    protected: z.boolean(),
    external: z.boolean().openapi({ description: 'Made outside this service (the Proxmox VE UI or a Proxmox backup job) for this server; restorable like the others.' }),
    sizeBytes: z.number().int().nullable().openapi({ description: 'The archive\'s size on the backup storage, once written.' }),
    createdAt: z.iso.datetime(),
    completedAt: z.iso.datetime().nullable(),
    failure: z.object({ code: z.string(), message: z.string() }).nullable(),
  })
  .openapi('Backup');
