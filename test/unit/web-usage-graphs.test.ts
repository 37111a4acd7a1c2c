import { describe, expect, it } from 'vitest';
import { bytes, describeSeries, linePath, percent, perSecond, scaleTop } from '../../web/src/lib/chart';

describe('the scale of a usage graph', () => {
  it('tops out at the largest value rounded up to 1, 2 or 5 times a power of ten', () => {
    expect(scaleTop([{ name: 'In', values: [120, 430, null] }])).toBe(500);
    expect(scaleTop([{ name: 'In', values: [1_100] }, { name: 'Out', values: [1_900] }])).toBe(2_000);
    expect(scaleTop([{ name: 'In', values: [0.3] }])).toBe(0.5);
    expect(scaleTop([{ name: 'In', values: [1_000] }])).toBe(1_000);
  });

  it('is 1 when nothing was measured or everything was zero, so nothing divides by zero', () => {
    expect(scaleTop([{ name: 'In', values: [null, null] }])).toBe(1);
    expect(scaleTop([{ name: 'In', values: [0, 0] }])).toBe(1);
  });
});

describe('the line of a usage graph', () => {
  it('spreads the points across the width and puts the top of the scale at the top', () => {
    expect(linePath([0, 50, 100], 300, 100, 100)).toBe('M0 100 L150 50 L300 0');
  });

  it('breaks where nothing was measured, and draws a lone point as a dot', () => {
    expect(linePath([10, null, 30, 40], 300, 100, 100)).toBe('M0 90 h0.1 M200 70 L300 60');
    expect(linePath([null, null], 300, 100, 100)).toBe('');
    expect(linePath([25], 300, 100, 100)).toBe('M0 75 h0.1');
  });

  it('keeps a value above the top of the scale inside the graph', () => {
    expect(linePath([0, 150], 100, 100, 100)).toBe('M0 100 L100 0');
  });
});

describe('the words a usage graph stands for', () => {
  it('names the latest and the highest value of each line, or that nothing was measured', () => {
    expect(describeSeries([{ name: 'CPU', values: [0.1, 0.42, 0.25, null] }], percent)).toBe('CPU: now 25%, highest 42%.');
    expect(describeSeries([{ name: 'In', values: [2048] }, { name: 'Out', values: [null] }], perSecond)).toBe('In: now 2 KiB/s, highest 2 KiB/s; Out: nothing measured.');
  });

  it('reads bytes in the largest unit that keeps the number at 1 or more', () => {
    expect(bytes(512)).toBe('512 B');
    expect(bytes(1536)).toBe('1.5 KiB');
    expect(bytes(1024 ** 3)).toBe('1 GiB');
    expect(bytes(15.25 * 1024 ** 2)).toBe('15.3 MiB');
    expect(bytes(734 * 1024 ** 2)).toBe('734 MiB');
    expect(bytes(2.345 * 1024 ** 2)).toBe('2.35 MiB');
  });
});
