/**
 * Backup schedules end to end: a server's schedule is a Temporal Schedule with the calendar asked
 * for; each run asks for a backup like the API does, records a refusal instead of failing, and
 * after a successful backup prunes the oldest scheduled ones past keepLast (manual ones never);
 * removing the schedule, or deleting the server, removes it from Temporal.
 */
import { ScheduleNotFoundError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import type { ScheduledBackupOutcome } from '../../src/activities/backup-schedules';
import { backupScheduleId } from '../../src/temporal/workflow-ids';
import { guestOf, operate, runningServer, suiteStack, taskEnd } from '../support/lifecycle';
import { seededId, type Stack } from '../support/stack';

const schedulePath = (id: string) => `/v1/instances/${id}/backup-schedule`;
const putSchedule = (stack: Stack, id: string, body: unknown) => stack.api.request('PUT', schedulePath(id), { token: stack.customer.token, body });
const weekly = { frequency: 'weekly', time: '03:30', timezone: 'Europe/Berlin', weekday: 'sunday', keepLast: 2 };

/** Fires the schedule now (as its calendar would) and waits for the run and for the backup it asked for. */
async function fire(stack: Stack, instanceId: string): Promise<ScheduledBackupOutcome> {
  const handle = stack.api.temporal.schedule.getHandle(backupScheduleId(instanceId));
  const before = (await handle.describe()).info.recentActions.length;
  await handle.trigger();
  let run: string | undefined;
  while (!run) {
    const actions = (await handle.describe()).info.recentActions;
    if (actions.length > before) run = actions.at(-1)!.action.workflow.workflowId;
    else await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const outcome = await stack.api.temporal.workflow.getHandle<() => Promise<ScheduledBackupOutcome>>(run).result();
  if (outcome.backupId) {
    const backup = await stack.api.db.backup.findUniqueOrThrow({ where: { id: outcome.backupId } });
    expect((await taskEnd(stack, backup.taskId!)).status).toBe('succeeded');
  }
  return outcome;
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

    const runs = [await fire(stack, id), await fire(stack, id), await fire(stack, id)];
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
      expect(await fire(stack, id)).toEqual({ backupId: null, refusal: 'BACKUP_LIMIT_REACHED' });
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

  it('takes concurrent changes one at a time: PUTs racing DELETEs answer only 200, 204 (a DELETE finding none) or 409 CONFLICT, and PostgreSQL and Temporal agree', async () => {
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
    const allowed = ['PUT 200', 'PUT 409 CONFLICT', 'DELETE 200', 'DELETE 204', 'DELETE 409 CONFLICT'];
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
