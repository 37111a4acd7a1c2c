import { z } from 'zod';

export const trafficQuery = z.strictObject({
  period: z
    .union([z.literal('current'), z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'current or YYYY-MM').openapi({ example: '2026-11' })])
    .default('current')
    .openapi({ description: "`current`, or the billing period that begins in the month `YYYY-MM` (for a calendar-month plan: that month in UTC; for an anniversary plan: the server's period starting in it)." }),
});

const bytes = (description: string) => z.number().int().nonnegative().openapi({ description: `${description} Bytes, an exact integer.` });

export const trafficView = z
  .object({
    period: z.object({
      start: z.iso.datetime(),
      end: z.iso.datetime().openapi({ description: 'Exclusive.' }),
      current: z.boolean(),
    }),
    inBytes: bytes('Received in the period.'),
    outBytes: bytes('Sent in the period.'),
    counted: z.enum(['out', 'in+out', 'max']).openapi({ description: "What counts against the allowance (the plan's `trafficCounted`)." }),
    countedBytes: bytes('What counts against the allowance.'),
    allowanceBytes: z.number().int().nullable().openapi({ description: "The plan's allowance plus what an operator added for this period; null: unmetered." }),
    extraAllowanceGiB: z.number().int().openapi({ description: 'Added by an operator for this period.' }),
    percent: z.number().nullable().openapi({ description: 'Percent of the allowance used, one decimal; null: unmetered.' }),
    overage: z.enum(['throttle', 'none']),
    throttle: z
      .object({ since: z.iso.datetime(), mbps: z.number().int(), until: z.iso.datetime().nullable().openapi({ description: 'The end of the period: the throttle is removed then.' }) })
      .nullable()
      .openapi({ description: 'Set while the server is throttled.' }),
    liftedAt: z.iso.datetime().nullable().openapi({ description: 'When an operator lifted the throttle for the rest of the period.' }),
    sampledAt: z.iso.datetime().nullable().openapi({ description: 'When the counters were last read: traffic since then is not counted yet.' }),
    daily: z
      .array(z.object({ date: z.iso.date(), inBytes: bytes('Received that UTC day.'), outBytes: bytes('Sent that UTC day.') }))
      .openapi({ description: 'One entry per UTC day of the period so far, oldest first.' }),
  })
  .openapi('InstanceTraffic');

export const addAllowanceBody = z.strictObject({ addGiB: z.number().int().min(1).max(10_000_000).openapi({ description: 'GiB added to the current period only.' }) }).openapi('AddTrafficAllowance');
