import { z } from 'zod';

/** The columns of a usage record, in CSV order: JSON records carry the same names. */
export const USAGE_RECORD_COLUMNS = [
  'hour',
  'part',
  'instanceId',
  'tenantId',
  'hostname',
  'planId',
  'planName',
  'seconds',
  'state',
  'addresses',
  'inBytes',
  'outBytes',
  'backupBytes',
  'snapshotCount',
  'open',
] as const;

const wholeHour = (what: string) =>
  z.iso.datetime().openapi({ description: `${what}: a whole UTC hour, e.g. \`2026-11-01T00:00:00Z\`.` });

export const usageRecordsQuery = z.strictObject({
  from: wholeHour('The first hour (inclusive)'),
  to: wholeHour('The end (exclusive); at most 366 days after `from`'),
  tenantId: z.string().min(1).max(64).optional().openapi({ description: 'Admins only: one tenant.' }),
  limit: z.coerce.number().int().min(1).max(5_000).default(1_000),
  cursor: z.string().max(200).optional().openapi({ description: 'Opaque: `meta.nextCursor` of the previous page.' }),
  format: z.enum(['json', 'csv']).optional().openapi({ description: '`csv`: every record of the range as `text/csv` (as `Accept: text/csv` asks), not paginated.' }),
});

export const usageRecordView = z
  .object({
    hour: z.iso.datetime().openapi({ description: 'The UTC hour the record is of (its start).' }),
    part: z.number().int().openapi({ description: '0; 1 for the part of an hour after a resize within it.' }),
    instanceId: z.string(),
    tenantId: z.string(),
    hostname: z.string(),
    planId: z.string(),
    planName: z.string(),
    seconds: z.number().int().openapi({ description: 'Seconds of the hour the server existed under this plan; the records of a server add up to its life.' }),
    state: z.enum(['running', 'stopped', 'exists']).openapi({ description: 'running: seen running in the hour; stopped: its guest seen, never running; exists: no sample of a guest in the hour (being built, or the sampler did not run).' }),
    addresses: z.number().int().openapi({ description: "IP addresses held at the hour's last sample." }),
    inBytes: z.number().int().openapi({ description: 'Received in the hour (split by seconds between the parts of a resized hour).' }),
    outBytes: z.number().int().openapi({ description: 'Sent in the hour.' }),
    backupBytes: z.number().int().openapi({ description: "Backups stored at the hour's last sample." }),
    snapshotCount: z.number().int().openapi({ description: "Snapshots held at the hour's last sample." }),
    open: z.boolean().openapi({ description: 'true until the sample after the hour was taken (or the server is gone); a record no longer open never changes.' }),
  })
  .openapi('UsageRecord');
