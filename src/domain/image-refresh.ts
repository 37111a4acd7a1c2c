/**
 * How often a URL image is refreshed from its checksum URL: `<n>h` (1–720) or `<n>d` (1–30), kept
 * as seconds (the interval of its Temporal Schedule).
 */

const REFRESH_EVERY_PATTERN = /^(?:([1-9]\d{0,2})h|([1-9]\d?)d)$/;

const HOUR = 3600;
const DAY = 24 * HOUR;

/** The seconds between refreshes that `every` names; undefined when it names none (past 720 hours or 30 days). */
export function refreshIntervalSeconds(every: string): number | undefined {
  const match = REFRESH_EVERY_PATTERN.exec(every);
  if (!match) return undefined;
  const seconds = match[1] ? Number(match[1]) * HOUR : Number(match[2]) * DAY;
  return seconds <= 30 * DAY ? seconds : undefined;
}

/** `every` from the seconds kept: whole days from two days on as `<n>d` (`7d`), else hours (`24h`, `36h`). */
export const refreshEvery = (seconds: number): string => (seconds >= 2 * DAY && seconds % DAY === 0 ? `${seconds / DAY}d` : `${Math.round(seconds / HOUR)}h`);
