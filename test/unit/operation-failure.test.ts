import { ActivityFailure, ApplicationFailure, RetryState, TimeoutFailure, TimeoutType } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { operationOfTask, TASK_TYPES } from '../../src/db/lifecycle';
import { FailureType } from '../../src/domain/failure-types';
import type { Operation } from '../../src/domain/instance-status';
import { describeOperationFailure } from '../../src/workflows/operation-failure';

const PROVIDER_TEXT = "Configuration file 'nodes/pve2/qemu-server/1003.conf' does not exist";

const fromActivity = (cause: Error, retryState: RetryState = RetryState.NON_RETRYABLE_FAILURE) =>
  new ActivityFailure('Activity task failed', 'startGuest', '1', retryState, 'worker@host', cause);

describe('describing a failed lifecycle operation', () => {
  it('names a vanished guest GUEST_LOST, keeping the provider words for operators only', () => {
    const failure = describeOperationFailure(fromActivity(ApplicationFailure.create({ type: FailureType.GuestLost, message: PROVIDER_TEXT, nonRetryable: true })), 'stop');
    expect(failure.code).toBe('GUEST_LOST');
    expect(failure.message).not.toMatch(/pve2|1003|Configuration/);
    expect(failure.cause).toMatchObject({ operation: 'stop', type: FailureType.GuestLost, detail: PROVIDER_TEXT });
  });

  it('keeps, for operators, where it failed, in which activity, and the provider call Proxmox answered', () => {
    const refused = ApplicationFailure.create({
      type: FailureType.ProviderRejected,
      message: 'VM 1003 not running',
      nonRetryable: true,
      details: [{ kind: 'stop', node: 'pve2', vmid: 1003, status: 500 }],
    });
    const failure = describeOperationFailure(fromActivity(refused), 'stop');
    expect(failure.cause).toEqual({
      operation: 'stop',
      phase: 'stop',
      type: FailureType.ProviderRejected,
      detail: 'VM 1003 not running',
      activity: 'startGuest',
      call: { kind: 'stop', node: 'pve2', vmid: 1003, status: 500 },
    });
    expect(failure.message).not.toMatch(/pve2|1003|running/);
    const rebuild = describeOperationFailure(fromActivity(refused), 'rebuild', { phase: 'configure', guestRemoved: true });
    expect(rebuild.cause).toMatchObject({ operation: 'rebuild', phase: 'configure' });
  });

  it('says which operation failed, in customer words', () => {
    const cases: [Operation, string][] = [
      ['start', 'started'],
      ['shutdown', 'shut down'],
      ['reboot', 'restarted'],
      ['migrate', 'moved'],
    ];
    for (const [operation, words] of cases) {
      const failure = describeOperationFailure(fromActivity(ApplicationFailure.create({ type: FailureType.ProviderTaskFailed, message: 'exit code 1', nonRetryable: true })), operation);
      expect(failure.code).toBe('OPERATION_FAILED');
      expect(failure.message).toContain(`could not be ${words}`);
    }
  });

  it('tells a timeout apart, and a rebuild that lost its old disk apart from everything else', () => {
    const timeout = describeOperationFailure(fromActivity(new TimeoutFailure('timed out', undefined, TimeoutType.START_TO_CLOSE), RetryState.TIMEOUT), 'resize');
    expect(timeout.code).toBe('OPERATION_TIMEOUT');
    const rebuild = describeOperationFailure(fromActivity(ApplicationFailure.create({ type: FailureType.ProviderTaskFailed, message: 'clone failed' })), 'rebuild', { phase: 'clone', guestRemoved: true });
    expect(rebuild.code).toBe('REBUILD_FAILED');
    const lostDuringRebuild = describeOperationFailure(fromActivity(ApplicationFailure.create({ type: FailureType.GuestLost, message: 'gone' })), 'rebuild', { phase: 'clone', guestRemoved: true });
    expect(lostDuringRebuild.code).toBe('GUEST_LOST');
  });

  it('maps every operation to its task type and back', () => {
    for (const [operation, type] of Object.entries(TASK_TYPES)) expect(operationOfTask(type)).toBe(operation);
    expect(operationOfTask('INSTANCE_CREATE')).toBeUndefined();
  });
});
