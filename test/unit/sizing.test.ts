import { describe, expect, it } from 'vitest';
import { growth, judgeResize, peak } from '../../src/domain/sizing';

const small = { vcpus: 1, memoryMiB: 1024, diskGiB: 10 };
const large = { vcpus: 4, memoryMiB: 8192, diskGiB: 40 };
const slim = { vcpus: 1, memoryMiB: 512, diskGiB: 40 };

describe('resize sizing rules', () => {
  it('charges only growth, never a negative amount', () => {
    expect(growth(small, large)).toEqual({ vcpus: 3, memoryMiB: 7168, diskGiB: 30 });
    expect(growth(large, slim)).toEqual({ vcpus: 0, memoryMiB: 0, diskGiB: 0 });
    expect(growth(small, slim)).toEqual({ vcpus: 0, memoryMiB: 0, diskGiB: 30 });
    expect(growth(small, small)).toEqual({ vcpus: 0, memoryMiB: 0, diskGiB: 0 });
  });

  it('holds the larger of both sizes while the resize runs', () => {
    expect(peak(small, large)).toEqual(large);
    expect(peak(large, slim)).toEqual(large);
    expect(peak(small, slim)).toEqual({ vcpus: 1, memoryMiB: 1024, diskGiB: 40 });
  });

  it('lets disks grow or stay, never shrink', () => {
    expect(judgeResize(10, large)).toEqual({ ok: true });
    expect(judgeResize(40, slim)).toEqual({ ok: true });
    expect(judgeResize(40, small)).toEqual({ ok: false, reason: 'disk_shrink' });
  });
});
