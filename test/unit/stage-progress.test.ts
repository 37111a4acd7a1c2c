import { describe, expect, it } from 'vitest';
import { PROVISION_STAGES, stageProgress } from '../../src/domain/provisioning';

describe('PROVISION_STAGES', () => {
  it('runs clone, configure, cloud_init, network, boot, verify and finalize, in that order', () => {
    expect(PROVISION_STAGES).toEqual(['clone', 'configure', 'cloud_init', 'network', 'boot', 'verify', 'finalize']);
  });
});

describe('stageProgress', () => {
  const progress = PROVISION_STAGES.map((stage) => stageProgress(stage));

  it('starts at 5%, after the reservation work the API did', () => {
    expect(stageProgress('clone')).toBe(5);
  });

  it('strictly increases from one stage to the next', () => {
    for (let i = 1; i < progress.length; i++) {
      expect(progress[i], `${PROVISION_STAGES[i]} after ${PROVISION_STAGES[i - 1]}`).toBeGreaterThan(progress[i - 1] ?? Infinity);
    }
  });

  it('stays within 5..100 and below 100 until the task is done', () => {
    for (const [i, value] of progress.entries()) {
      expect(value, PROVISION_STAGES[i]).toBeGreaterThanOrEqual(5);
      expect(value, PROVISION_STAGES[i]).toBeLessThan(100);
    }
  });

  it('is a whole percentage', () => {
    for (const value of progress) expect(Number.isInteger(value)).toBe(true);
  });

  it('spreads the stages over the range rather than bunching them at the start', () => {
    expect(stageProgress('finalize')).toBeGreaterThanOrEqual(80);
  });
});
