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

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

/**
 * An IANA time zone name the runtime knows, spelled as the database spells it (Temporal's Go
 * time zone database is case-sensitive, ICU is not).
 */
function isTimeZoneName(name: string): boolean {
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return false;
  }
  return resolved === name || resolved.toLowerCase() !== name.toLowerCase();
}

export const putBackupScheduleBody = z
  .strictObject({
    frequency: z.enum(['daily', 'weekly']),
    time: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time of day as HH:MM (00:00 to 23:59)')
      .openapi({ description: 'The time of day the backup starts, `HH:MM` in `timezone`.', example: '03:30' }),
    timezone: z
      .string()
      .max(64)
      .refine(isTimeZoneName, 'an IANA time zone name, such as Europe/Berlin or UTC')
      .openapi({
        description:
          'A name of the IANA time zone database (abbreviations such as PST are refused); daylight saving time is followed: a time the change skips runs at the change, a time that happens twice runs once, at its first occurrence.',
        example: 'Europe/Berlin',
      }),
    weekday: z.enum(WEEKDAYS).optional().openapi({ description: 'The day of a weekly backup; required for `weekly`, refused for `daily`.' }),
    keepLast: z
      .number()
      .int()
      .min(1)
      .openapi({ description: "Scheduled backups kept: after a successful one, the oldest beyond this are deleted (protected and manual backups never). At most the plan's `backupLimit`." }),
  })
  .superRefine((body, ctx) => {
    if (body.frequency === 'weekly' && !body.weekday) ctx.addIssue({ code: 'custom', path: ['weekday'], message: 'required for a weekly schedule' });
    if (body.frequency === 'daily' && body.weekday) ctx.addIssue({ code: 'custom', path: ['weekday'], message: 'only for a weekly schedule' });
  });

export type BackupScheduleBody = z.infer<typeof putBackupScheduleBody>;

export const backupScheduleView = z
  .object({
    instanceId: z.string(),
    frequency: z.enum(['daily', 'weekly']),
    time: z.string(),
    timezone: z.string(),
    weekday: z.enum(WEEKDAYS).nullable(),
    keepLast: z.number().int(),
    lastRunAt: z.iso.datetime().nullable().openapi({ description: 'When the schedule last fired.' }),
    lastBackupId: z.string().nullable().openapi({ description: 'The backup the last run made.' }),
    lastRefusal: z.string().nullable().openapi({ description: 'The error code the last run was refused with (such as BACKUP_LIMIT_REACHED or OPERATION_IN_PROGRESS); null when it made a backup.' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('BackupSchedule');
