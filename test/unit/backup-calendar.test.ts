/**
 * When a backup schedule runs on the days the clocks change: a skipped time of day runs at the
 * change itself, a repeated one at its first occurrence, and a schedule backs up at most once per
 * local day (week). The instants below are worked out by hand from each zone's rules.
 */
import { describe, expect, it } from 'vitest';
import { changeDayRuns, runOn, runPeriod, type BackupCalendar } from '../../src/domain/backup-calendar';
import { backupCalendar } from '../../src/temporal/schedules';

const daily = (time: string, timezone: string): BackupCalendar => ({ frequency: 'daily', time, timezone, weekday: null });
const weekly = (time: string, timezone: string, weekday: string): BackupCalendar => ({ frequency: 'weekly', time, timezone, weekday });
const at = (iso: string) => new Date(iso);
const runOnDay = (calendar: BackupCalendar, iso: string) => {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  return runOn(calendar, { year, month, day })?.toISOString();
};

describe('a backup schedule on the days the clocks change', () => {
  it('Europe/Berlin: a time the spring change skips runs at 03:00 CEST; a time the autumn change repeats runs at its first (CEST) occurrence', () => {
    // 28 March 2027: 02:00 CET becomes 03:00 CEST (01:00 UTC).
    for (const time of ['02:00', '02:30', '02:59', '03:00']) expect(runOnDay(daily(time, 'Europe/Berlin'), '2027-03-28'), time).toBe('2027-03-28T01:00:00.000Z');
    expect(runOnDay(daily('01:59', 'Europe/Berlin'), '2027-03-28')).toBe('2027-03-28T00:59:00.000Z');
    expect(runOnDay(daily('03:30', 'Europe/Berlin'), '2027-03-28')).toBe('2027-03-28T01:30:00.000Z');
    // 31 October 2027: 03:00 CEST becomes 02:00 CET (01:00 UTC); 02:30 comes at 00:30 and 01:30 UTC.
    expect(runOnDay(daily('02:30', 'Europe/Berlin'), '2027-10-31')).toBe('2027-10-31T00:30:00.000Z');
    expect(runOnDay(daily('03:00', 'Europe/Berlin'), '2027-10-31')).toBe('2027-10-31T02:00:00.000Z');
    // an ordinary day either side
    expect(runOnDay(daily('02:30', 'Europe/Berlin'), '2027-03-27')).toBe('2027-03-27T01:30:00.000Z');
    expect(runOnDay(daily('02:30', 'Europe/Berlin'), '2027-11-01')).toBe('2027-11-01T01:30:00.000Z');
  });

  it('America/New_York: 02:30 on the spring change runs at 03:00 EDT; 01:30 on the autumn change runs at 01:30 EDT', () => {
    // 14 March 2027: 02:00 EST becomes 03:00 EDT (07:00 UTC).
    expect(runOnDay(daily('02:30', 'America/New_York'), '2027-03-14')).toBe('2027-03-14T07:00:00.000Z');
    // 7 November 2027: 02:00 EDT becomes 01:00 EST (06:00 UTC); 01:30 comes at 05:30 and 06:30 UTC.
    expect(runOnDay(daily('01:30', 'America/New_York'), '2027-11-07')).toBe('2027-11-07T05:30:00.000Z');
  });

  it('Australia/Lord_Howe, with its half-hour change: 02:15 on the spring change runs at 02:30; 01:45 on the autumn change at its first (+11:00) occurrence', () => {
    // 3 October 2027: 02:00 +10:30 becomes 02:30 +11:00 (15:30 UTC the day before).
    expect(runOnDay(daily('02:15', 'Australia/Lord_Howe'), '2027-10-03')).toBe('2027-10-02T15:30:00.000Z');
    expect(runOnDay(daily('02:30', 'Australia/Lord_Howe'), '2027-10-03')).toBe('2027-10-02T15:30:00.000Z');
    // 4 April 2027: 02:00 +11:00 becomes 01:30 +10:30 (15:00 UTC the day before); 01:45 comes at 14:45 and 15:15 UTC.
    expect(runOnDay(daily('01:45', 'Australia/Lord_Howe'), '2027-04-04')).toBe('2027-04-03T14:45:00.000Z');
    expect(runOnDay(daily('01:15', 'Australia/Lord_Howe'), '2027-04-04')).toBe('2027-04-03T14:15:00.000Z');
  });

  it('runs a weekly schedule on its weekday only', () => {
    expect(runOnDay(weekly('02:30', 'Europe/Berlin', 'sunday'), '2027-03-28')).toBe('2027-03-28T01:00:00.000Z');
    expect(runOnDay(weekly('02:30', 'Europe/Berlin', 'monday'), '2027-03-28')).toBeUndefined();
    expect(runOnDay(weekly('02:30', 'Europe/Berlin', 'monday'), '2027-03-29')).toBe('2027-03-29T00:30:00.000Z');
  });

  it('lists the runs on change days, the ones a calendar of wall times cannot name, and no other', () => {
    const twoYears = [at('2027-01-01T00:00:00Z'), at('2029-01-01T00:00:00Z')] as const;
    expect(changeDayRuns(daily('02:30', 'Europe/Berlin'), ...twoYears).map((d) => d.toISOString())).toEqual([
      '2027-03-28T01:00:00.000Z',
      '2027-10-31T00:30:00.000Z',
      '2028-03-26T01:00:00.000Z',
      '2028-10-29T00:30:00.000Z',
    ]);
    // The changes fall on Sundays: a Sunday schedule has them, a Monday one none.
    expect(changeDayRuns(weekly('02:30', 'Europe/Berlin', 'sunday'), ...twoYears)).toHaveLength(4);
    expect(changeDayRuns(weekly('02:30', 'Europe/Berlin', 'monday'), ...twoYears)).toEqual([]);
    // Times the changes do not touch, and zones without them.
    expect(changeDayRuns(daily('03:30', 'Europe/Berlin'), ...twoYears)).toEqual([]);
    expect(changeDayRuns(daily('02:30', 'UTC'), ...twoYears)).toEqual([]);
    expect(changeDayRuns(daily('02:30', 'Asia/Tokyo'), ...twoYears)).toEqual([]);
    expect(changeDayRuns(daily('01:30', 'America/New_York'), at('2027-01-01T00:00:00Z'), at('2028-01-01T00:00:00Z')).map((d) => d.toISOString())).toEqual([
      '2027-11-07T05:30:00.000Z',
    ]);
    expect(changeDayRuns(daily('02:15', 'Australia/Lord_Howe'), at('2027-01-01T00:00:00Z'), at('2028-01-01T00:00:00Z')).map((d) => d.toISOString())).toEqual([
      '2027-10-02T15:30:00.000Z',
    ]);
    // only from `from` on
    expect(changeDayRuns(daily('02:30', 'Europe/Berlin'), at('2027-03-28T01:00:01Z'), at('2027-12-31T00:00:00Z')).map((d) => d.toISOString())).toEqual(['2027-10-31T00:30:00.000Z']);
  });

  it('counts both occurrences of a repeated time, and Temporal’s late reading of a skipped one, in the same local day', () => {
    const berlin = daily('02:30', 'Europe/Berlin');
    expect(runPeriod(berlin, at('2027-10-31T00:30:00Z'))).toBe('2027-10-31');
    expect(runPeriod(berlin, at('2027-10-31T01:30:00Z'))).toBe('2027-10-31');
    const newYork = daily('01:30', 'America/New_York');
    expect([runPeriod(newYork, at('2027-11-07T05:30:00Z')), runPeriod(newYork, at('2027-11-07T06:30:00Z'))]).toEqual(['2027-11-07', '2027-11-07']);
    // Temporal reads a skipped 02:15 on Lord Howe as 02:45, after the schedule's own run at 02:30.
    const lordHowe = daily('02:15', 'Australia/Lord_Howe');
    expect([runPeriod(lordHowe, at('2027-10-02T15:30:00Z')), runPeriod(lordHowe, at('2027-10-02T15:45:00Z'))]).toEqual(['2027-10-03', '2027-10-03']);
    // The local day, not UTC's.
    expect(runPeriod(daily('00:30', 'Europe/Berlin'), at('2027-06-01T22:30:00Z'))).toBe('2027-06-02');
  });

  it('counts a weekly schedule by the ISO week of its local date', () => {
    const sunday = weekly('02:30', 'Europe/Berlin', 'sunday');
    expect(runPeriod(sunday, at('2027-10-31T00:30:00Z'))).toBe('2027-W43');
    expect(runPeriod(sunday, at('2027-10-31T01:30:00Z'))).toBe('2027-W43');
    expect(runPeriod(sunday, at('2027-10-25T00:00:00Z'))).toBe('2027-W43');
    expect(runPeriod(sunday, at('2027-11-01T00:00:00Z'))).toBe('2027-W44');
    // Friday 1 January 2027 is in the last week of 2026 (which has 53); Monday 31 December 2029 in the first of 2030.
    expect(runPeriod(sunday, at('2027-01-01T12:00:00Z'))).toBe('2026-W53');
    expect(runPeriod(sunday, at('2029-12-31T12:00:00Z'))).toBe('2030-W01');
  });
});

describe("a backup schedule's Temporal spec", () => {
  it('fires on its calendar in its time zone, and once at each change-day run', () => {
    const runs = changeDayRuns(daily('02:30', 'Europe/Berlin'), at('2027-01-01T00:00:00Z'), at('2029-01-01T00:00:00Z'));
    const spec = backupCalendar({ instanceId: 'ins_x', ...daily('02:30', 'Europe/Berlin'), changeDayRuns: runs });
    expect(spec.timezone).toBe('Europe/Berlin');
    expect(spec.calendars).toEqual([{ hour: 2, minute: 30 }]);
    expect(spec.intervals).toHaveLength(runs.length);
    const fiftyYears = 50 * 365 * 86_400_000;
    for (const [i, interval] of (spec.intervals ?? []).entries()) {
      const run = runs[i]!.getTime();
      // Temporal fires an interval at epoch + n × every + offset (n ≥ 1 for its arithmetic to hold): at the run, and not again for fifty years.
      expect(interval.every).toBe(fiftyYears);
      expect(Number(interval.offset)).toBeLessThan(fiftyYears);
      expect((run - Number(interval.offset)) / fiftyYears).toBe(1);
    }
    expect(backupCalendar({ instanceId: 'ins_x', ...weekly('03:30', 'UTC', 'sunday'), changeDayRuns: [] })).toEqual({
      calendars: [{ hour: 3, minute: 30, dayOfWeek: 'SUNDAY' }],
      intervals: [],
      timezone: 'UTC',
    });
  });
});
