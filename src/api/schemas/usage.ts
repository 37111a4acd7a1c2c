import { z } from 'zod';

export const METRICS_TIMEFRAMES = ['hour', 'day', 'week'] as const;

export const metricsQuery = z.strictObject({
  timeframe: z
    .enum(METRICS_TIMEFRAMES)
    .default('hour')
    .openapi({ description: "The last hour (a point a minute), day or week, in the steps the cluster's Proxmox VE release keeps (9.x: a minute and 30 minutes; 8.x: 30 minutes and 3 hours); `stepSeconds` says which." }),
});

/** A rate or amount Proxmox VE did not measure (the server was not running) is null. */
const measured = (description: string) => z.number().nonnegative().nullable().openapi({ description });

export const metricsPoint = z.object({
  time: z.iso.datetime().openapi({ description: 'End of the interval the point averages.' }),
  cpu: measured("Share of the server's vCPUs in use, 0 to 1."),
  memoryBytes: measured('Memory in use.'),
  memoryTotalBytes: measured('Memory the server has.'),
  netInBytesPerSecond: measured('Traffic received.'),
  netOutBytesPerSecond: measured('Traffic sent.'),
  diskReadBytesPerSecond: measured('Disk reads.'),
  diskWriteBytesPerSecond: measured('Disk writes.'),
});

export const metricsView = z
  .object({
    timeframe: z.enum(METRICS_TIMEFRAMES),
    stepSeconds: z.number().int().positive().openapi({ description: 'Seconds between two points.' }),
    points: z.array(metricsPoint).openapi({ description: 'Oldest first; empty while the server has no guest yet (being built) or any more (deleted). Points from before the server was created carry only their time.' }),
  })
  .openapi('InstanceMetrics');

