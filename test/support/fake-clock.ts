import { afterEach, beforeEach, vi } from 'vitest';

/** A fixed "now" for tests of read pacing: every test of the file starts at this instant on fake timers. */
export const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);

export function useFakeClockFromT0(): void {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

/** The intervals between consecutive reads (ms). */
export const gaps = (reads: number[]) => reads.slice(1).map((t, i) => t - (reads[i] as number));
