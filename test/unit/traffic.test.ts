/** The traffic counting rules: deltas across resets, hours, billing periods, what counts, the NIC rate of a throttle. */
import { describe, expect, it } from 'vitest';
import {
  billingPeriodAt,
  billingPeriodOfMonth,
  counterDelta,
  countedBytes,
  nicRateForMbps,
  nicRateOf,
  percentUsed,
  spreadOverHours,
  thresholdsReached,
  withNicRate,
  type CounterReading,
} from '../../src/domain/traffic';

const at = (iso: string) => new Date(iso);
const reading = (over: Partial<CounterReading>): CounterReading => ({ node: 'pve1', vmid: 100, netin: 1_000n, netout: 2_000n, uptime: 600, at: at('2026-03-01T10:00:00Z'), ...over });

describe('counter deltas', () => {
  it('counts what the counters grew by between two readings of one QEMU process', () => {
    const next = reading({ netin: 1_500n, netout: 2_700n, uptime: 900, at: at('2026-03-01T10:05:00Z') });
    expect(counterDelta(reading({}), next)).toEqual({ inBytes: 500n, outBytes: 700n, reset: false });
  });

  it('counts a reading equal to the previous one as nothing', () => {
    expect(counterDelta(reading({}), reading({}))).toEqual({ inBytes: 0n, outBytes: 0n, reset: false });
  });

  it('takes a counter going back, the uptime going back or falling behind the clock, or another node for a new process counted from zero', () => {
    const later = { at: at('2026-03-01T10:05:00Z') };
    for (const next of [
      reading({ ...later, netin: 10n, netout: 5_000n, uptime: 900 }),
      reading({ ...later, netin: 5_000n, netout: 5_000n, uptime: 100 }),
      reading({ ...later, netin: 5_000n, netout: 5_000n, uptime: 650 }),
      reading({ ...later, node: 'pve2', netin: 5_000n, netout: 5_000n, uptime: 900 }),
    ]) {
      expect(counterDelta(reading({}), next)).toEqual({ inBytes: next.netin, outBytes: next.netout, reset: true });
    }
  });

  it('counts a first reading whole and never a negative delta', () => {
    expect(counterDelta(null, reading({}))).toEqual({ inBytes: 1_000n, outBytes: 2_000n, reset: false });
    const stopped = reading({ netin: 0n, netout: 0n, uptime: 0, at: at('2026-03-01T10:05:00Z') });
    expect(counterDelta(reading({}), stopped)).toEqual({ inBytes: 0n, outBytes: 0n, reset: true });
  });
});

describe('hours', () => {
  it('spreads bytes over the hours they were moved in, every byte in exactly one hour', () => {
    const hours = spreadOverHours(at('2026-03-01T09:50:00Z'), at('2026-03-01T10:10:00Z'), 1_001n, 3n);
    expect(hours).toEqual([
      { hour: at('2026-03-01T09:00:00Z'), inBytes: 500n, outBytes: 1n },
      { hour: at('2026-03-01T10:00:00Z'), inBytes: 501n, outBytes: 2n },
    ]);
  });

  it('puts an interval ending on the hour into the hour it ends', () => {
    expect(spreadOverHours(at('2026-03-01T09:55:00Z'), at('2026-03-01T10:00:00Z'), 10n, 0n)).toEqual([{ hour: at('2026-03-01T09:00:00Z'), inBytes: 10n, outBytes: 0n }]);
  });
});

describe('billing periods', () => {
  it('is the calendar month in UTC', () => {
    expect(billingPeriodAt('calendar_month', at('2025-01-31T08:00:00Z'), at('2026-02-14T23:59:00Z'))).toEqual({ start: at('2026-02-01T00:00:00Z'), end: at('2026-03-01T00:00:00Z') });
    expect(billingPeriodOfMonth('calendar_month', at('2025-01-31T08:00:00Z'), '2026-12')).toEqual({ start: at('2026-12-01T00:00:00Z'), end: at('2027-01-01T00:00:00Z') });
  });

  it("is the server's own month from the hour it was created, on a shorter month's last day", () => {
    const created = at('2026-01-31T08:20:00Z');
    expect(billingPeriodAt('anniversary', created, at('2026-02-10T00:00:00Z'))).toEqual({ start: at('2026-01-31T08:00:00Z'), end: at('2026-02-28T08:00:00Z') });
    expect(billingPeriodAt('anniversary', created, at('2026-02-28T08:00:00Z'))).toEqual({ start: at('2026-02-28T08:00:00Z'), end: at('2026-03-31T08:00:00Z') });
    expect(billingPeriodOfMonth('anniversary', created, '2026-04')).toEqual({ start: at('2026-04-30T08:00:00Z'), end: at('2026-05-31T08:00:00Z') });
  });
});

describe('allowances', () => {
  it('counts out, in and out together, or the larger of the two', () => {
    expect([countedBytes('out', 5n, 3n), countedBytes('in_out', 5n, 3n), countedBytes('max', 5n, 3n)]).toEqual([3n, 8n, 5n]);
  });

  it('reaches 80% and 100% on the byte', () => {
    expect(thresholdsReached(79n, 100n)).toEqual([]);
    expect(thresholdsReached(80n, 100n)).toEqual([80]);
    expect(thresholdsReached(100n, 100n)).toEqual([80, 100]);
    expect([percentUsed(123n, 1_000n), percentUsed(5n, null)]).toEqual([12.3, null]);
  });
});

describe('the NIC rate of a throttle', () => {
  it('turns megabits into the megabytes Proxmox shapes at (rate × 1024 × 1024 bytes/s), never above the throttle', () => {
    expect(nicRateForMbps(10)).toBe(1.192);
    expect(nicRateForMbps(8)).toBe(0.953);
    expect(nicRateForMbps(10) * 1024 * 1024).toBeLessThanOrEqual(1_250_000);
  });

  it('sets and removes rate on a NIC line, keeping the rest', () => {
    expect(withNicRate('virtio=BC:24:11:00:00:01,bridge=vmbr0,firewall=1', 1.192)).toBe('virtio=BC:24:11:00:00:01,bridge=vmbr0,firewall=1,rate=1.192');
    expect(withNicRate('virtio=BC:24:11:00:00:01,rate=5,bridge=vmbr0', null)).toBe('virtio=BC:24:11:00:00:01,bridge=vmbr0');
    expect([nicRateOf('virtio=x,rate=1.5,bridge=vmbr0'), nicRateOf('virtio=x')]).toEqual([1.5, null]);
  });
});
