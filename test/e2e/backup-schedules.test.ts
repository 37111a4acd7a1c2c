/**
 * Backup schedules end to end: a server's schedule is a Temporal Schedule with the calendar asked
 * for; each run asks for a backup like the API does, at most once per local day (week), records a
 * refusal instead of failing, and after a successful backup prunes the oldest scheduled ones past
 * keepLast (manual ones never); on the days the clocks change it runs once, as docs/api.md says;
 * removing the schedule, or deleting the server, removes it from Temporal.
 */
import { ScheduleNotFoundError } from '@temporalio/client';
import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import { createRequestScheduledBackupActivity } from '../../src/activities/backup-schedules';
import { changeDayRuns } from '../../src/domain/backup-calendar';
import { backupScheduleId } from '../../src/temporal/workflow-ids';
import { backfillRuns, triggerRun, type ScheduleRun } from '../support/backup-schedules';
import { guestOf, operate, runningServer, suiteStack, taskEnd } from '../support/lifecycle';
import { seededId, type Stack } from '../support/stack';

const schedulePath = (id: string) => `/v1/instances/${id}/backup-schedule`;
const putSchedule = (stack: Stack, id: string, body: unknown) => stack.api.request('PUT', schedulePath(id), { token: stack.customer.token, body });
const weekly = { frequency: 'weekly', time: '03:30', timezone: 'Europe/Berlin', weekday: 'sunday', keepLast: 2 };
const HOUR_MS = 3_600_000;

type ScheduledBackupOutcome = ScheduleRun['outcome'];

/** The run a daily 01:05 UTC schedule was due `daysAgo` days ago, made now by a backfill of that time. */
async function runDueDaysAgo(stack: Stack, instanceId: string, daysAgo: number): Promise<ScheduledBackupOutcome> {
  const today = new Date();
  const due = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - daysAgo, 1, 5);
  const [run] = await backfillRuns(stack, instanceId, new Date(due - 60_000), new Date(due + 60_000), 1);
  return run!.outcome;
}

/** A run's time of day and UTC offset in a zone: `03:00 GMT+2`. */
const wallClock = (at: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'shortOffset' }).format(at);

/** An `Etc/GMT±N` zone in which it is past noon and before 13:00 now, so runs a few seconds apart share its local day. */
function zoneAtMidday(): string {
  const hoursAhead = ((12 - new Date().getUTCHours() + 36) % 24) - 12;
  // Etc/GMT-2 is two hours ahead of UTC: the sign is POSIX's, the opposite of ISO's.
  return hoursAhead === 0 ? 'UTC' : `Etc/GMT${hoursAhead > 0 ? '-' : '+'}${Math.abs(hoursAhead)}`;
}

async function scheduleGone(stack: Stack, instanceId: string): Promise<boolean> {
  return stack.api.temporal.schedule
    .getHandle(backupScheduleId(instanceId))
    .describe()
    .then(
      () => false,
      (error: unknown) => error instanceof ScheduleNotFoundError,
    );
}

describe('backup schedules end to end', () => {
  const stack = suiteStack();

  it('refuses a schedule that is not well formed, or keeps more than the plan allows', async () => {
    const id = await runningServer(stack, { hostname: 'sched-bad' });
    const cases: [unknown, string][] = [
      [{ ...weekly, weekday: undefined }, 'weekday'],
      [{ ...weekly, frequency: 'daily' }, 'weekday'],
      [{ ...weekly, time: '24:00' }, 'time'],
      [{ ...weekly, timezone: 'Mars/Olympus_Mons' }, 'timezone'],
      [{ ...weekly, timezone: 'europe/berlin' }, 'timezone'],
      [{ ...weekly, keepLast: 0 }, 'keepLast'],
    ];
    for (const [body, field] of cases) {
      const refused = await putSchedule(stack, id, body);
      expect(refused.status, field).toBe(400);
      expect(refused.body.error.code).toBe('INVALID_INPUT');
      expect(Object.keys(refused.body.error.details.fields), field).toContain(field);
    }
    // Names Node.js knows (ICU's old abbreviations and retired names) but the Temporal server's
    // zone database does not: refused as a mistake at the field, not answered 500.
    for (const timezone of ['PST', 'IST', 'AET', 'SystemV/EST5EDT', 'US/Pacific-New', 'Canada/East-Saskatchewan']) {
      expect(() => new Intl.DateTimeFormat('en', { timeZone: timezone }), timezone).not.toThrow();
      const refused = await putSchedule(stack, id, { ...weekly, timezone });
      expect(refused.status, timezone).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'INVALID_INPUT', details: { fields: { timezone: expect.stringContaining('IANA') } } });
    }
    // the small plan holds 3 backups
    const tooMany = await putSchedule(stack, id, { ...weekly, keepLast: 4 });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.code).toBe('BACKUP_LIMIT_REACHED');
    expect(await scheduleGone(stack, id)).toBe(true);
    expect((await stack.api.request('GET', schedulePath(id), { token: stack.customer.token })).status).toBe(404);
  });

  it('is a Temporal Schedule on the calendar asked for; its runs back up, prune the oldest scheduled backups and record refusals', async () => {
    const id = await runningServer(stack, { hostname: 'sched-1' });
    const manual = await stack.api.request('POST', `/v1/instances/${id}/backups`, { token: stack.customer.token, body: { notes: 'by hand' } });
    await taskEnd(stack, manual.body.meta.taskId);

    const put = await putSchedule(stack, id, weekly);
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ instanceId: id, frequency: 'weekly', time: '03:30', timezone: 'Europe/Berlin', weekday: 'sunday', keepLast: 2, lastRunAt: null });
    const described = await stack.api.temporal.schedule.getHandle(backupScheduleId(id)).describe();
    expect(described.spec.timezone).toBe('Europe/Berlin');
    expect(described.spec.calendars).toEqual([expect.objectContaining({ hour: [{ start: 3, end: 3, step: 1 }], minute: [{ start: 30, end: 30, step: 1 }], dayOfWeek: [{ start: 'SUNDAY', end: 'SUNDAY', step: 1 }] })]);
    expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'ScheduledBackup', args: [{ instanceId: id }] });
    expect(described.policies.overlap).toBe('SKIP');
    // Setting it again changes the calendar in place.
    expect((await putSchedule(stack, id, { frequency: 'daily', time: '01:05', timezone: 'UTC', keepLast: 2 })).status).toBe(200);
    const daily = await stack.api.temporal.schedule.getHandle(backupScheduleId(id)).describe();
    expect(daily.spec.calendars).toEqual([expect.objectContaining({ hour: [{ start: 1, end: 1, step: 1 }], minute: [{ start: 5, end: 5, step: 1 }] })]);
    expect(daily.spec.timezone).toBe('UTC');

    // One run on each of three days (a day has one run, however often the schedule fires in it).
    const runs = [await runDueDaysAgo(stack, id, 3), await runDueDaysAgo(stack, id, 2), await runDueDaysAgo(stack, id, 1)];
    expect(runs.map((r) => r.refusal)).toEqual([null, null, null]);
    const [first, second, third] = runs.map((r) => r.backupId!);
    const shown = (await stack.client.GET('/v1/instances/{id}/backups', { params: { path: { id } } })).data!.data;
    // the oldest scheduled backup went; the manual one stays
    expect(shown.map((b) => b.id).sort()).toEqual([manual.body.data.id, second, third].sort());
    expect(await stack.api.db.backup.findUniqueOrThrow({ where: { id: first } })).toMatchObject({ status: 'deleted', scheduled: true });
    const guest = (await guestOf(stack, id))!;
    const archives = (await stack.sim.state()).backups.filter((b) => b.vmid === guest.vmid);
    expect(archives).toHaveLength(3);
    const retention = await taskEnd(stack, (await stack.api.db.backup.findUniqueOrThrow({ where: { id: third } })).taskId!);
    expect(retention.steps.map((s) => `${s.step}: ${s.status}`)).toContain('backup > retention: success');
    const deletedEvents = await stack.api.db.instanceEvent.findMany({ where: { instanceId: id, type: 'backup.deleted' } });
    expect(deletedEvents.map((e) => (e.data as { backupId: string }).backupId)).toEqual([first]);

    // A run the plan's limit refuses is recorded, and nothing is asked of Proxmox.
    const vzdumps = (await stack.sim.state()).tasks.filter((t) => t.type === 'vzdump').length;
    await stack.api.db.plan.update({ where: { id: seededId(stack.seed.plans, 'small') }, data: { backupLimit: 2 } });
    try {
      expect((await triggerRun(stack, id)).outcome).toEqual({ backupId: null, refusal: 'BACKUP_LIMIT_REACHED' });
    } finally {
      await stack.api.db.plan.update({ where: { id: seededId(stack.seed.plans, 'small') }, data: { backupLimit: 3 } });
    }
    expect((await stack.sim.state()).tasks.filter((t) => t.type === 'vzdump')).toHaveLength(vzdumps);
    const got = await stack.api.request('GET', schedulePath(id), { token: stack.customer.token });
    expect(got.body.data).toMatchObject({ lastRunAt: expect.any(String), lastBackupId: null, lastRefusal: 'BACKUP_LIMIT_REACHED' });

    const removed = await stack.api.request('DELETE', schedulePath(id), { token: stack.customer.token });
    expect(removed.status).toBe(200);
    expect(await scheduleGone(stack, id)).toBe(true);
    expect((await stack.api.request('GET', schedulePath(id), { token: stack.customer.token })).status).toBe(404);
    // A delete once it is gone is done already: 204, not an error.
    expect((await stack.api.request('DELETE', schedulePath(id), { token: stack.customer.token })).status).toBe(204);
    // its backups stay
    expect((await stack.client.GET('/v1/instances/{id}/backups', { params: { path: { id } } })).data!.data).toHaveLength(3);
  });

  it('makes one backup a local day however often the schedule fires in it: a second trigger the same day makes none, and a retried run carries on', async () => {
    const id = await runningServer(stack, { hostname: 'sched-once' });
    const timezone = zoneAtMidday();
    expect((await putSchedule(stack, id, { frequency: 'daily', time: '03:00', timezone, keepLast: 3 })).status).toBe(200);
    const first = await triggerRun(stack, id);
    expect(first.outcome).toEqual({ backupId: expect.any(String), refusal: null });
    const second = await triggerRun(stack, id);
    expect(second.outcome).toEqual({ backupId: null, refusal: 'ALREADY_RAN' });
    expect(await stack.api.db.backup.count({ where: { instanceId: id, scheduled: true } })).toBe(1);
    // The schedule shows the run that counted.
    const shown = await stack.api.request('GET', schedulePath(id), { token: stack.customer.token });
    expect(shown.body.data).toMatchObject({ lastBackupId: first.outcome.backupId, lastRefusal: null });

    // The first run's activity attempted again (a retry after its answer was lost) counts again and finds its backup: no other is made.
    const requestScheduledBackup = createRequestScheduledBackupActivity(stack.api.deps);
    const attempt = { instanceId: id, backupId: first.outcome.backupId!, scheduledAt: first.dueAt.toISOString() };
    expect(await new MockActivityEnvironment(undefined, { client: stack.api.temporal }).run(requestScheduledBackup, attempt)).toEqual(first.outcome);
    expect(await stack.api.db.backup.count({ where: { instanceId: id, scheduled: true } })).toBe(1);
    expect(await stack.api.db.backupSchedule.findUniqueOrThrow({ where: { instanceId: id } })).toMatchObject({ countedRunId: first.outcome.backupId, lastBackupId: first.outcome.backupId });
  });

  it('runs once on each day the clocks change, on the real Temporal server: a skipped time at the change, a repeated one at its first occurrence', async () => {
    const id = await runningServer(stack, { hostname: 'sched-dst' });
    /** The schedule's runs from three hours before to three hours after its change-day run, as Temporal fires them when backfilled. */
    const aroundChangeDay = async (calendar: { time: string; timezone: string }, which: 'spring' | 'autumn', count: number) => {
      expect((await putSchedule(stack, id, { frequency: 'daily', ...calendar, keepLast: 3 })).status).toBe(200);
      const now = new Date();
      const runs = changeDayRuns({ frequency: 'daily', weekday: null, ...calendar }, now, new Date(now.getTime() + 2 * 365 * 24 * HOUR_MS));
      // Temporal lists them as intervals beside the calendar.
      expect((await stack.api.temporal.schedule.getHandle(backupScheduleId(id)).describe()).spec.intervals).toHaveLength(runs.length);
      // A repeated time runs at its own time of day; a skipped one at the change, another time (03:00 for 02:30).
      const changeDay = runs.find((run) => wallClock(run, calendar.timezone).startsWith(calendar.time) === (which === 'autumn'))!;
      const fired = await backfillRuns(stack, id, new Date(changeDay.getTime() - 3 * HOUR_MS), new Date(changeDay.getTime() + 3 * HOUR_MS), count);
      return { changeDay, fired: fired.map((run) => ({ dueAt: run.dueAt.toISOString(), made: run.outcome.backupId ? 'backup' : run.outcome.refusal })) };
    };
    // Europe/Berlin at 02:30. Spring skips it: Temporal's calendar alone would not fire that day.
    const berlinSpring = await aroundChangeDay({ time: '02:30', timezone: 'Europe/Berlin' }, 'spring', 1);
    expect(berlinSpring.fired).toEqual([{ dueAt: berlinSpring.changeDay.toISOString(), made: 'backup' }]);
    expect(wallClock(berlinSpring.changeDay, 'Europe/Berlin')).toBe('03:00 GMT+2');
    // Autumn repeats it: Temporal's calendar alone fires only the second (CET) one; the run at the first takes the day.
    const berlinAutumn = await aroundChangeDay({ time: '02:30', timezone: 'Europe/Berlin' }, 'autumn', 1);
    expect(berlinAutumn.fired).toEqual([{ dueAt: berlinAutumn.changeDay.toISOString(), made: 'backup' }]);
    expect(wallClock(berlinAutumn.changeDay, 'Europe/Berlin')).toBe('02:30 GMT+2');
    // America/New_York at 01:30 in autumn: Temporal's calendar fires it twice; the second makes no backup.
    const newYork = await aroundChangeDay({ time: '01:30', timezone: 'America/New_York' }, 'autumn', 2);
    expect(newYork.fired).toEqual([
      { dueAt: newYork.changeDay.toISOString(), made: 'backup' },
      { dueAt: new Date(newYork.changeDay.getTime() + HOUR_MS).toISOString(), made: 'ALREADY_RAN' },
    ]);
    expect(wallClock(newYork.changeDay, 'America/New_York')).toBe('01:30 GMT-4');
    // Australia/Lord_Howe at 02:15 in spring (02:00 becomes 02:30): runs at 02:30, where Temporal's calendar alone would read it as 02:45.
    const lordHowe = await aroundChangeDay({ time: '02:15', timezone: 'Australia/Lord_Howe' }, 'spring', 1);
    expect(lordHowe.fired).toEqual([{ dueAt: lordHowe.changeDay.toISOString(), made: 'backup' }]);
    expect(wallClock(lordHowe.changeDay, 'Australia/Lord_Howe')).toBe('02:30 GMT+11');
  });

  it('lists the coming change days anew at its next run when they moved on (a schedule set before they were listed, or two years ago)', async () => {
    const id = await runningServer(stack, { hostname: 'sched-horizon' });
    expect((await putSchedule(stack, id, { frequency: 'daily', time: '02:30', timezone: 'Europe/Berlin', keepLast: 3 })).status).toBe(200);
    const handle = stack.api.temporal.schedule.getHandle(backupScheduleId(id));
    const listed = (await handle.describe()).spec.intervals;
    expect(listed?.length).toBeGreaterThanOrEqual(3);
    // As a schedule written before change days were listed: none in Temporal, none on its row.
    await handle.update((previous) => ({ ...previous, spec: { ...previous.spec, intervals: [] } }));
    await stack.api.db.backupSchedule.update({ where: { instanceId: id }, data: { changeDayRunsAt: [] } });
    await triggerRun(stack, id);
    expect((await handle.describe()).spec.intervals).toEqual(listed);
    expect((await stack.api.db.backupSchedule.findUniqueOrThrow({ where: { instanceId: id } })).changeDayRunsAt).toHaveLength(listed!.length);
  });

  it('takes concurrent changes one at a time: PUTs racing DELETEs answer only 200, 204 (a DELETE finding none), 409 CONFLICT or, under load, 503 SERVICE_BUSY, and PostgreSQL and Temporal agree', async () => {
    const id = await runningServer(stack, { hostname: 'sched-race' });
    const daily = { frequency: 'daily', time: '01:05', timezone: 'UTC', keepLast: 2 };
    const remove = () => stack.api.request('DELETE', schedulePath(id), { token: stack.customer.token });
    expect((await putSchedule(stack, id, weekly)).status).toBe(200);
    // 80 PUTs of two calendars with a DELETE after every second, all at once, on a schedule in place.
    const requests = Array.from({ length: 80 }, (_, i) => [
      putSchedule(stack, id, i % 2 ? weekly : daily).then((res) => ({ method: 'PUT', res })),
      ...(i % 2 === 1 ? [remove().then((res) => ({ method: 'DELETE', res }))] : []),
    ]).flat();
    const answers = await Promise.all(requests);
    const seen = answers.map(({ method, res }) => `${method} ${res.status} ${res.status < 300 ? '' : res.body.error.code}`.trim());
    // A loaded machine may also answer 503 SERVICE_BUSY (nothing changed, retry): never a 500, never a change half made.
    const allowed = ['PUT 200', 'PUT 409 CONFLICT', 'PUT 503 SERVICE_BUSY', 'DELETE 200', 'DELETE 204', 'DELETE 409 CONFLICT', 'DELETE 503 SERVICE_BUSY'];
    expect(seen.filter((answer) => !allowed.includes(answer))).toEqual([]);
    expect(seen).toContain('PUT 200');
    // They met each other: the lock, not luck, kept them apart.
    expect(seen).toContain('PUT 409 CONFLICT');

    // One schedule or none, the same in both; when one, Temporal's calendar is the row's.
    const row = await stack.api.db.backupSchedule.findUnique({ where: { instanceId: id } });
    const described = await stack.api.temporal.schedule
      .getHandle(backupScheduleId(id))
      .describe()
      .catch((error: unknown) => (error instanceof ScheduleNotFoundError ? null : Promise.reject(error)));
    expect(described === null).toBe(row === null);
    if (row && described) {
      expect(described.spec.timezone).toBe(row.timezone);
      expect(described.spec.calendars?.[0]?.hour).toEqual([{ start: Number(row.time.slice(0, 2)), end: Number(row.time.slice(0, 2)), step: 1 }]);
    }
    // Nothing is left locked: the next change goes through.
    expect((await putSchedule(stack, id, weekly)).status).toBe(200);
    expect((await remove()).status).toBe(200);
    expect(await scheduleGone(stack, id)).toBe(true);
  });

  it("deleting the server removes its schedule from Temporal and from the database", async () => {
    const id = await runningServer(stack, { hostname: 'sched-gone' });
    expect((await putSchedule(stack, id, weekly)).status).toBe(200);
    const deleted = await operate(stack, id, 'delete');
    expect((await taskEnd(stack, deleted.body.meta.taskId)).status).toBe('succeeded');
    expect(await scheduleGone(stack, id)).toBe(true);
    expect(await stack.api.db.backupSchedule.findUnique({ where: { instanceId: id } })).toBeNull();
  });
});
