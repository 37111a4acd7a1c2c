import { useEffect, useState } from 'preact/hooks';
import type { components, Instance } from '../../../clients/typescript/index';
import { api, outcome } from '../api';
import { Alert, described, Field } from '../components/ui';
import { when } from '../lib/format';
import { placeProblem, type Problem } from '../lib/problems';

type Schedule = components['schemas']['BackupSchedule'];
type Weekday = NonNullable<Schedule['weekday']>;

const WEEKDAYS: Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const FIELDS = ['frequency', 'time', 'timezone', 'weekday', 'keepLast'] as const;

interface Draft {
  frequency: Schedule['frequency'];
  time: string;
  timezone: string;
  weekday: Weekday;
  keepLast: string;
}

/** The browser's own time zone is the likeliest one the customer means. */
const localTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const draftOf = (schedule: Schedule | null): Draft => ({
  frequency: schedule?.frequency ?? 'daily',
  time: schedule?.time ?? '03:00',
  timezone: schedule?.timezone ?? localTimeZone(),
  weekday: schedule?.weekday ?? 'sunday',
  keepLast: String(schedule?.keepLast ?? 7),
});

/** Says in words when a schedule runs, e.g. "Weekly on sunday at 03:00 (Europe/Berlin), keeping the last 4". */
export function describeSchedule(schedule: Pick<Schedule, 'frequency' | 'time' | 'timezone' | 'weekday' | 'keepLast'>): string {
  const day = schedule.frequency === 'weekly' ? `Weekly on ${schedule.weekday}` : 'Daily';
  return `${day} at ${schedule.time} (${schedule.timezone}), keeping the last ${schedule.keepLast}`;
}

/** A server's backup schedule: set or changed (each refusal at its field), and removed. */
export function BackupScheduleForm({ server }: { server: Instance }) {
  const [schedule, setSchedule] = useState<Schedule | null>(null);
  const [draft, setDraft] = useState<Draft>(draftOf(null));
  const [fields, setFields] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<Problem>();
  const path = { params: { path: { id: server.id } } };
  const reload = () =>
    void outcome(api.GET('/v1/instances/{id}/backup-schedule', path)).then((answer) => {
      const current = answer.ok ? answer.data : null;
      setSchedule(current);
      setDraft(draftOf(current));
    });
  useEffect(reload, [server.id]);
  const set = (change: Partial<Draft>) => setDraft((previous) => ({ ...previous, ...change }));

  const save = async (event: Event) => {
    event.preventDefault();
    setFields({});
    setProblem(undefined);
    const body = {
      frequency: draft.frequency,
      time: draft.time,
      timezone: draft.timezone,
      keepLast: Number(draft.keepLast),
      ...(draft.frequency === 'weekly' ? { weekday: draft.weekday } : {}),
    };
    const answer = await outcome(api.PUT('/v1/instances/{id}/backup-schedule', { ...path, body }));
    if (answer.ok) {
      setSchedule(answer.data);
      return;
    }
    // The plan's backup limit bounds how many scheduled backups are kept.
    const placed = answer.problem.code === 'BACKUP_LIMIT_REACHED' ? { fields: { keepLast: answer.problem.message } } : placeProblem(answer.problem, FIELDS);
    setFields(placed.fields);
    if (Object.keys(placed.fields).length === 0) setProblem(answer.problem);
  };
  const remove = async () => {
    setProblem(undefined);
    const answer = await outcome(api.DELETE('/v1/instances/{id}/backup-schedule', path));
    if (!answer.ok && answer.status !== 204) setProblem(answer.problem);
    reload();
  };

  return (
    <section aria-labelledby="backup-schedule-title" id="backup-schedule">
      <h3 id="backup-schedule-title">Schedule</h3>
      {schedule ? (
        <p>
          {describeSchedule(schedule)}.{' '}
          {schedule.lastRunAt && <span class="muted">Last run {when(schedule.lastRunAt)}{schedule.lastRefusal ? `, refused: ${schedule.lastRefusal}` : ''}.</span>}
        </p>
      ) : (
        <p class="muted">No schedule: backups are made only when you ask.</p>
      )}
      <form class="narrow" onSubmit={save} noValidate>
        <Field id="schedule-frequency" label="Frequency" error={fields.frequency}>
          <select {...described('schedule-frequency', fields.frequency)} value={draft.frequency} onChange={(e) => set({ frequency: e.currentTarget.value as Draft['frequency'] })}>
            <option value="daily">Daily</option>
            <option value="weekly">Weekly</option>
          </select>
        </Field>
        {draft.frequency === 'weekly' && (
          <Field id="schedule-weekday" label="Day" error={fields.weekday}>
            <select {...described('schedule-weekday', fields.weekday)} value={draft.weekday} onChange={(e) => set({ weekday: e.currentTarget.value as Weekday })}>
              {WEEKDAYS.map((day) => (
                <option value={day}>{day}</option>
              ))}
            </select>
          </Field>
        )}
        <Field id="schedule-time" label="Time (HH:MM)" error={fields.time}>
          <input {...described('schedule-time', fields.time)} value={draft.time} required onInput={(e) => set({ time: e.currentTarget.value })} />
        </Field>
        <Field id="schedule-timezone" label="Time zone" error={fields.timezone} hint="An IANA name, such as Europe/Berlin or UTC.">
          <input {...described('schedule-timezone', fields.timezone, 'hint')} value={draft.timezone} required onInput={(e) => set({ timezone: e.currentTarget.value })} />
        </Field>
        <Field id="schedule-keep" label="Keep the last" error={fields.keepLast}>
          <input {...described('schedule-keep', fields.keepLast)} type="number" min={1} value={draft.keepLast} required onInput={(e) => set({ keepLast: e.currentTarget.value })} />
        </Field>
        <div class="actions">
          <button type="submit">{schedule ? 'Save schedule' : 'Set schedule'}</button>
          {schedule && (
            <button type="button" class="secondary" onClick={() => void remove()}>
              Remove schedule
            </button>
          )}
        </div>
      </form>
      <Alert problem={problem} />
    </section>
  );
}
