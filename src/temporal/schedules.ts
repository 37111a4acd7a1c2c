import { ScheduleAlreadyRunning, ScheduleNotFoundError, type Client, type DayOfWeek, type IntervalSpec, type ScheduleOptionsStartWorkflowAction, type ScheduleSpec } from '@temporalio/client';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { RefreshImage } from '../workflows/image-refresh';
import type { Reconcile } from '../workflows/reconcile';
import type { SampleTraffic } from '../workflows/traffic';
import type { ScheduledBackup } from '../workflows/scheduled-backup';
import { backupScheduleId, imageRefreshScheduleId, reconcileScheduleId, scheduledBackupWorkflowId, trafficScheduleId } from './workflow-ids';

type ScheduleConfig = Pick<Config, 'RECONCILE_INTERVAL_SECONDS' | 'TRAFFIC_SAMPLE_SECONDS' | 'TEMPORAL_TASK_QUEUE'>;

/**
 * Creates an interval schedule (a connection's, an image's), or brings an existing one to the
 * current spec and action while keeping its state: a schedule an operator paused stays paused.
 * Overlap SKIP: a run still going when the next is due makes that one skip.
 */
async function upsertIntervalSchedule(
  client: Client,
  scheduleId: string,
  spec: ScheduleSpec,
  action: ScheduleOptionsStartWorkflowAction<typeof Reconcile | typeof SampleTraffic | typeof RefreshImage>,
  note: string,
): Promise<'created' | 'updated'> {
  try {
    await client.schedule.create({ scheduleId, spec, action, policies: { overlap: 'SKIP', catchupWindow: '1 minute' }, state: { note } });
    return 'created';
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  }
  await client.schedule.getHandle(scheduleId).update((previous) => ({ ...previous, spec, action, policies: { ...previous.policies, overlap: 'SKIP' } }));
  return 'updated';
}

/** The schedule that runs Reconcile for a connection every RECONCILE_INTERVAL_SECONDS. */
export function upsertReconcileSchedule(client: Client, config: ScheduleConfig, connectionId: string): Promise<'created' | 'updated'> {
  return upsertIntervalSchedule(
    client,
    reconcileScheduleId(connectionId),
    { intervals: [{ every: `${config.RECONCILE_INTERVAL_SECONDS}s` }] },
    {
      type: 'startWorkflow',
      workflowType: 'Reconcile',
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      args: [{ connectionId }],
      // A run that no worker picks up must not hold the schedule (overlap SKIP) for ever.
      workflowRunTimeout: `${Math.max(300, config.RECONCILE_INTERVAL_SECONDS * 10)}s`,
    },
    `Reconciles Proxmox connection ${connectionId} with the database.`,
  );
}

/**
 * The schedule that samples a connection's traffic counters (SampleTraffic) every
 * TRAFFIC_SAMPLE_SECONDS; a skipped pass loses nothing, the next counts from the previous one's state.
 */
export async function upsertTrafficSchedule(client: Client, config: ScheduleConfig, connectionId: string): Promise<void> {
  await upsertIntervalSchedule(
    client,
    trafficScheduleId(connectionId),
    { intervals: [{ every: `${config.TRAFFIC_SAMPLE_SECONDS}s` }] },
    {
      type: 'startWorkflow',
      workflowType: 'SampleTraffic',
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      args: [{ connectionId }],
      workflowRunTimeout: `${Math.max(600, config.TRAFFIC_SAMPLE_SECONDS * 4)}s`,
    },
    `Samples the traffic counters of Proxmox connection ${connectionId}.`,
  );
}

/** A connection's schedules: its reconciler and its traffic sampler. */
export async function upsertConnectionSchedules(client: Client, config: ScheduleConfig, connectionId: string): Promise<void> {
  await upsertReconcileSchedule(client, config, connectionId);
  await upsertTrafficSchedule(client, config, connectionId);
}

/** The schedules of every connection (at worker start: connections added while no worker ran get theirs too). */
export async function upsertReconcileSchedules(client: Client, db: Db, config: ScheduleConfig): Promise<number> {
  const connections = await db.proxmoxConnection.findMany({ select: { id: true } });
  for (const { id } of connections) await upsertConnectionSchedules(client, config, id);
  return connections.length;
}

/** The schedule that refreshes a URL image from its checksum URL (RefreshImage) every `intervalSeconds`. */
export async function upsertImageRefreshSchedule(client: Client, config: Pick<Config, 'TEMPORAL_TASK_QUEUE'>, imageId: string, intervalSeconds: number): Promise<void> {
  await upsertIntervalSchedule(
    client,
    imageRefreshScheduleId(imageId),
    { intervals: [{ every: `${intervalSeconds}s` }] },
    { type: 'startWorkflow', workflowType: 'RefreshImage', taskQueue: config.TEMPORAL_TASK_QUEUE, args: [{ imageId }], workflowRunTimeout: '1 hour' },
    `Refreshes image ${imageId} from its checksum URL.`,
  );
}

/** The refresh schedules of every current image that has one (at worker start: one lost from Temporal is made again). */
export async function upsertImageRefreshSchedules(client: Client, db: Db, config: Pick<Config, 'TEMPORAL_TASK_QUEUE'>): Promise<number> {
  const images = await db.image.findMany({ where: { archivedAt: null, refreshIntervalSeconds: { not: null } }, select: { id: true, refreshIntervalSeconds: true } });
  for (const image of images) await upsertImageRefreshSchedule(client, config, image.id, image.refreshIntervalSeconds as number);
  return images.length;
}

/** Deletes an image's refresh schedule from Temporal; one already gone (or never made) counts as deleted. */
export async function deleteImageRefreshSchedule(client: Client, imageId: string): Promise<void> {
  try {
    await client.schedule.getHandle(imageRefreshScheduleId(imageId)).delete();
  } catch (error) {
    if (!(error instanceof ScheduleNotFoundError)) throw error;
  }
}

/** What a backup schedule's Temporal Schedule is made of (the `backup_schedules` row). */
export interface BackupScheduleSpec {
  instanceId: string;
  frequency: 'daily' | 'weekly';
  /** `HH:MM` in `timezone`. */
  time: string;
  timezone: string;
  /** `monday` … `sunday`, weekly only. */
  weekday: string | null;
  /** Its coming runs on days the clocks change under its time of day (`changeDayRuns` in src/domain/backup-calendar.ts). */
  changeDayRuns: Date[];
}

/** Fifty years, in seconds: an interval this long fires once in any schedule's life. */
const ONCE_EVERY_SECONDS = 50 * 365 * 86_400;

/**
 * An interval spec whose only firing in fifty years is `at`. A calendar in a time zone names wall
 * times, and the first 01:30 of the night the clocks go back is no wall time of its own; an
 * interval counts seconds from the epoch. (Temporal divides `now - offset` by `every`, truncating
 * towards zero, so the run must lie at least one interval after the epoch: any from 2020 on.)
 */
function onceAt(at: Date): IntervalSpec {
  const seconds = Math.floor(at.getTime() / 1000);
  return { every: ONCE_EVERY_SECONDS * 1000, offset: (seconds % ONCE_EVERY_SECONDS) * 1000 };
}

/**
 * The calendar a backup schedule fires on, in the server owner's time zone, and its runs on the
 * days the clocks change as instants. On those days the calendar may fire too (a repeated time,
 * or Temporal's own reading of a skipped one): the run finds its day taken and makes no backup.
 */
export function backupCalendar(schedule: BackupScheduleSpec): ScheduleSpec {
  const [hour, minute] = schedule.time.split(':').map(Number) as [number, number];
  const dayOfWeek = schedule.frequency === 'weekly' && schedule.weekday ? { dayOfWeek: schedule.weekday.toUpperCase() as DayOfWeek } : {};
  return { calendars: [{ hour, minute, ...dayOfWeek }], intervals: schedule.changeDayRuns.map(onceAt), timezone: schedule.timezone };
}

/** The Temporal server does not know the schedule's time zone (its zone database has no such name). */
export class UnknownTimeZoneError extends Error {
  override name = 'UnknownTimeZoneError';
}

/** Temporal's refusal of a spec naming a time zone it does not know, as the SDK raises it (Go's `time.LoadLocation` wording). */
function asUnknownTimeZone(error: unknown): unknown {
  return error instanceof TypeError && error.message.startsWith('unknown time zone ') ? new UnknownTimeZoneError(error.message) : error;
}

/**
 * Creates or updates the Temporal Schedule that backs a server up (ScheduledBackup), keeping its
 * state (an operator's pause stays). Overlap SKIP and a short catch-up window: a backup missed
 * while Temporal was down is not made hours late, the next one comes on time. A schedule removed
 * between the create and the update (by its own run finding no row, or by an operator) is made
 * again: Temporal answers the update of a removed one not-found ("workflow execution already
 * completed"). A time zone the Temporal server does not know is an UnknownTimeZoneError.
 */
export async function upsertBackupSchedule(client: Client, config: Pick<Config, 'TEMPORAL_TASK_QUEUE'>, schedule: BackupScheduleSpec): Promise<void> {
  const scheduleId = backupScheduleId(schedule.instanceId);
  const spec = backupCalendar(schedule);
  const action: ScheduleOptionsStartWorkflowAction<typeof ScheduledBackup> = {
    type: 'startWorkflow',
    workflowType: 'ScheduledBackup',
    workflowId: scheduledBackupWorkflowId(schedule.instanceId),
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    args: [{ instanceId: schedule.instanceId }],
    // Its one activity only asks for the backup: a run no worker picks up must not hold the schedule.
    workflowRunTimeout: '1 hour',
  };
  for (let attempt = 1; ; attempt++) {
    try {
      await client.schedule.create({
        scheduleId,
        spec,
        action,
        policies: { overlap: 'SKIP', catchupWindow: '10 minutes' },
        state: { note: `Backs server ${schedule.instanceId} up (${schedule.frequency} at ${schedule.time} ${schedule.timezone}).` },
      });
      return;
    } catch (error) {
      if (!(error instanceof ScheduleAlreadyRunning)) throw asUnknownTimeZone(error);
    }
    try {
      await client.schedule.getHandle(scheduleId).update((previous) => ({ ...previous, spec, action }));
      return;
    } catch (error) {
      if (!(error instanceof ScheduleNotFoundError) || attempt === 3) throw asUnknownTimeZone(error);
    }
  }
}

/** Deletes a server's backup schedule from Temporal; one already gone counts as deleted. */
export async function deleteTemporalBackupSchedule(client: Client, instanceId: string): Promise<void> {
  try {
    await client.schedule.getHandle(backupScheduleId(instanceId)).delete();
  } catch (error) {
    if (!(error instanceof ScheduleNotFoundError)) throw error;
  }
}
