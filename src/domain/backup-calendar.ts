/**
 * When a backup schedule runs, in its owner's time zone, including the days the clocks change.
 *
 * A schedule runs at its time of day (`HH:MM`) in its IANA time zone, every day or on one weekday,
 * and makes at most one backup per local day (daily) or local week (weekly, Monday to Sunday):
 *
 * - on the day the clocks go forward, a time the change skips (02:30 in Europe/Berlin) runs at the
 *   first time that exists after it, which is the moment of the change (03:00 in Berlin, 02:30 in
 *   Australia/Lord_Howe with its half-hour change);
 * - on the day they go back, a time that happens twice (01:30 in America/New_York) runs once, at
 *   its first occurrence.
 *
 * Temporal matches calendar times literally (it skips a missing 02:30, and it fires a repeated
 * 01:30 once or twice by the zone's side of Greenwich), so the schedule also lists each change
 * day's run as an instant (`changeDayRuns`) and a run counts only as the first of its day or week
 * (`runPeriod`). The zones' rules are the runtime's (ICU's time zone data).
 */

export interface BackupCalendar {
  frequency: 'daily' | 'weekly';
  /** `HH:MM` in `timezone`. */
  time: string;
  /** An IANA time zone name. */
  timezone: string;
  /** `monday` … `sunday`, weekly only. */
  weekday: string | null;
}

/** A date on the wall calendar of a zone (month 1 to 12). */
export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

const SECOND_MS = 1_000;
const DAY_MS = 86_400_000;
/** `Date.getUTCDay()` numbering: Sunday is 0. */
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of `timeZone` at an instant, as milliseconds of a UTC date with the same fields. */
function wallClockMs(instantMs: number, timeZone: string): number {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    const fields = { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' } as const;
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', ...fields });
    formatters.set(timeZone, formatter);
  }
  const parts = Object.fromEntries(formatter.formatToParts(instantMs).map((part) => [part.type, Number(part.value)]));
  return Date.UTC(parts.year ?? 0, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
}

/** How far the zone's wall clock is ahead of UTC at an instant (whole seconds). */
function offsetMs(instantMs: number, timeZone: string): number {
  const whole = Math.floor(instantMs / SECOND_MS) * SECOND_MS;
  return wallClockMs(whole, timeZone) - whole;
}

const dateOfWall = (wallMs: number): LocalDate => {
  const d = new Date(wallMs);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
};

/** The local date of an instant in the zone. */
export function localDate(at: Date, timeZone: string): LocalDate {
  return dateOfWall(wallClockMs(at.getTime(), timeZone));
}

/** The instants at which the zone's wall clock shows `wallMs`: none (skipped), one, or two (repeated), earliest first. */
function instantsOfWall(wallMs: number, timeZone: string): number[] {
  // No zone changes its offset twice within two days, so the offsets a day either side are the only candidates.
  const offsets = new Set([offsetMs(wallMs - DAY_MS, timeZone), offsetMs(wallMs + DAY_MS, timeZone)]);
  return [...offsets]
    .map((offset) => wallMs - offset)
    .filter((instant) => wallClockMs(instant, timeZone) === wallMs)
    .sort((a, b) => a - b);
}

/** The first instant after a skipped wall time that exists: the change itself, found to the second between the instants the offsets either side would give. */
function changeAfterSkipped(wallMs: number, timeZone: string): number {
  const before = offsetMs(wallMs - DAY_MS, timeZone);
  // Before the change the wall clock is behind the skipped time; from the change on, past it.
  let behind = wallMs - Math.max(before, offsetMs(wallMs + DAY_MS, timeZone));
  let past = wallMs - Math.min(before, offsetMs(wallMs + DAY_MS, timeZone));
  while (past - behind > SECOND_MS) {
    const middle = behind + Math.floor((past - behind) / 2 / SECOND_MS) * SECOND_MS;
    if (wallClockMs(middle, timeZone) < wallMs) behind = middle;
    else past = middle;
  }
  return past;
}

const wallOf = (calendar: BackupCalendar, date: LocalDate): number => {
  const [hour, minute] = calendar.time.split(':').map(Number) as [number, number];
  return Date.UTC(date.year, date.month - 1, date.day, hour, minute);
};

const runsOn = (calendar: BackupCalendar, date: LocalDate): boolean =>
  calendar.frequency === 'daily' || WEEKDAYS[new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay()] === calendar.weekday;

/**
 * When the schedule runs on a local date: at its time of day; at the first occurrence of a time
 * the clocks repeat; at the change itself for a time they skip. Null on a weekly schedule's other days.
 */
export function runOn(calendar: BackupCalendar, date: LocalDate): Date | null {
  if (!runsOn(calendar, date)) return null;
  const wall = wallOf(calendar, date);
  const [first] = instantsOfWall(wall, calendar.timezone);
  return new Date(first ?? changeAfterSkipped(wall, calendar.timezone));
}

/**
 * The schedule's runs from `from` until `until` on days its time of day is skipped or repeated,
 * oldest first: the runs Temporal's calendar would miss or fire at the wrong occurrence.
 */
export function changeDayRuns(calendar: BackupCalendar, from: Date, until: Date): Date[] {
  const runs: Date[] = [];
  const last = localDate(until, calendar.timezone);
  const lastDay = Date.UTC(last.year, last.month - 1, last.day);
  const first = localDate(from, calendar.timezone);
  for (let day = Date.UTC(first.year, first.month - 1, first.day); day <= lastDay; day += DAY_MS) {
    const date = dateOfWall(day);
    if (!runsOn(calendar, date)) continue;
    const wall = wallOf(calendar, date);
    if (offsetMs(wall - DAY_MS, calendar.timezone) === offsetMs(wall + DAY_MS, calendar.timezone)) continue;
    const instants = instantsOfWall(wall, calendar.timezone);
    if (instants.length === 1) continue;
    const run = runOn(calendar, date) as Date;
    if (run >= from && run < until) runs.push(run);
  }
  return runs;
}

/**
 * The local day (`2027-03-28`, daily) or ISO week (`2027-W12`, weekly) a run at `at` belongs to:
 * the schedule makes at most one backup in each.
 */
export function runPeriod(calendar: BackupCalendar, at: Date): string {
  const { year, month, day } = localDate(at, calendar.timezone);
  const pad = (n: number) => String(n).padStart(2, '0');
  if (calendar.frequency === 'daily') return `${year}-${pad(month)}-${pad(day)}`;
  // ISO 8601: a week belongs to the year of its Thursday.
  const date = Date.UTC(year, month - 1, day);
  const thursday = date + (3 - ((new Date(date).getUTCDay() + 6) % 7)) * DAY_MS;
  const weekYear = new Date(thursday).getUTCFullYear();
  return `${weekYear}-W${pad(1 + Math.floor((thursday - Date.UTC(weekYear, 0, 1)) / (7 * DAY_MS)))}`;
}
