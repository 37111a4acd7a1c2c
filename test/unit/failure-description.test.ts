import { ActivityFailure, ApplicationFailure, CancelledFailure, TimeoutFailure, type RetryState } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { FailureType } from '../../src/domain/failure-types';
import { describeFailure, operatorReason } from '../../src/workflows/failure';

const PROVIDER_TEXT = 'VM 101 qmp command failed - unable to open /dev/zvol/rpool/data/vm-101-disk-0 on pve-node-3';

function activityFailure(retryState: RetryState, cause?: Error, activityType = 'cloneGuest'): ActivityFailure {
  return new ActivityFailure('Activity task failed', activityType, '7', retryState, 'worker@host', cause);
}

function application(type: string, nonRetryable: boolean, message = PROVIDER_TEXT): ApplicationFailure {
  return ApplicationFailure.create({ type, message, nonRetryable });
}

/** Every customer-facing message is fixed text: no provider words, node names, paths or VMIDs. */
function expectCustomerSafe(message: string) {
  expect(message).not.toContain(PROVIDER_TEXT);
  expect(message).not.toMatch(/qmp|zvol|pve-node|rpool|VM 101|\/dev\//);
}

describe('describeFailure', () => {
  it('reports a definitive rejection by the provider as PROVISIONING_FAILED', () => {
    const error = activityFailure('NON_RETRYABLE_FAILURE', application(FailureType.ProviderRejected, true));
    const described = describeFailure(error, 'clone');
    expect(described.code).toBe('PROVISIONING_FAILED');
    expect(described.message).toMatch(/could not be created/);
    expectCustomerSafe(described.message);
  });

  it('reports each of our non-retryable verdicts as PROVISIONING_FAILED', () => {
    for (const type of [FailureType.ProviderTaskFailed, FailureType.GuestConflict, FailureType.GuestLocked, FailureType.GuestLost, FailureType.InconsistentState]) {
      expect(describeFailure(activityFailure('NON_RETRYABLE_FAILURE', application(type, true)), 'boot').code, type).toBe('PROVISIONING_FAILED');
    }
  });

  it('reports a provider that kept failing until the stage ran out of time as PROVIDER_UNAVAILABLE', () => {
    const error = activityFailure('TIMEOUT', application('ProxmoxError', false, '596 Connection timed out'));
    const described = describeFailure(error, 'clone');
    expect(described.code).toBe('PROVIDER_UNAVAILABLE');
    expect(described.message).toMatch(/did not respond in time/);
    expect(described.message).not.toContain('596');
  });

  it('reports a provider that kept failing until the attempts ran out as PROVIDER_UNAVAILABLE', () => {
    expect(describeFailure(activityFailure('MAXIMUM_ATTEMPTS_REACHED', application('ProxmoxError', false)), 'configure').code).toBe('PROVIDER_UNAVAILABLE');
  });

  it('sees the provider error behind a schedule-to-close timeout', () => {
    const timeout = new TimeoutFailure('activity ScheduleToClose timeout', undefined, 'SCHEDULE_TO_CLOSE');
    Object.defineProperty(timeout, 'cause', { value: application('ProxmoxError', false) });
    expect(describeFailure(activityFailure('TIMEOUT', timeout), 'clone').code).toBe('PROVIDER_UNAVAILABLE');
  });

  it('reports our own retryable verdict running out of time as PROVISIONING_TIMEOUT, not as the provider’s fault', () => {
    const error = activityFailure('TIMEOUT', application(FailureType.GuestNotRunning, false, 'guest 101 is still stopped'));
    const described = describeFailure(error, 'boot');
    expect(described.code).toBe('PROVISIONING_TIMEOUT');
    expect(described.message).toMatch(/took too long/);
    expect(described.message).not.toContain('guest 101');
  });

  it('reports a bare timeout, with no error behind it, as PROVISIONING_TIMEOUT', () => {
    expect(describeFailure(activityFailure('TIMEOUT', new TimeoutFailure('start-to-close', undefined, 'START_TO_CLOSE')), 'verify').code).toBe(
      'PROVISIONING_TIMEOUT',
    );
    expect(describeFailure(new TimeoutFailure('heartbeat', undefined, 'HEARTBEAT'), 'clone').code).toBe('PROVISIONING_TIMEOUT');
    expect(describeFailure(activityFailure('TIMEOUT'), 'verify').code).toBe('PROVISIONING_TIMEOUT');
  });

  it('does not blame the provider for a non-retryable failure that arrived at the deadline', () => {
    expect(describeFailure(activityFailure('TIMEOUT', application('ProxmoxError', true)), 'clone').code).toBe('PROVISIONING_TIMEOUT');
  });

  it('reports cancellation as CANCELLED, whether bare or wrapped in an activity failure', () => {
    for (const error of [new CancelledFailure('cancelled'), activityFailure('CANCEL_REQUESTED', new CancelledFailure('cancelled'))]) {
      const described = describeFailure(error, 'network');
      expect(described.code).toBe('CANCELLED');
      expect(described.message).toMatch(/cancelled/);
    }
  });

  it('reports cancellation as CANCELLED even when a timeout is also in the chain', () => {
    const error = new CancelledFailure('cancelled', [], new TimeoutFailure('late', undefined, 'START_TO_CLOSE'));
    expect(describeFailure(error, 'boot').code).toBe('CANCELLED');
  });

  it('reports anything unrecognised as PROVISIONING_FAILED', () => {
    expect(describeFailure(new Error(PROVIDER_TEXT), 'finalize').code).toBe('PROVISIONING_FAILED');
    expect(describeFailure('a string was thrown', null).code).toBe('PROVISIONING_FAILED');
    expect(describeFailure(undefined, null).code).toBe('PROVISIONING_FAILED');
  });

  it('keeps the provider text, its type and the stage for operators in `cause`, and out of the message', () => {
    const cases = [
      activityFailure('NON_RETRYABLE_FAILURE', application(FailureType.ProviderRejected, true)),
      activityFailure('TIMEOUT', application('ProxmoxError', false)),
      activityFailure('MAXIMUM_ATTEMPTS_REACHED', application('ProxmoxError', false)),
      activityFailure('TIMEOUT', application(FailureType.GuestNotRunning, false)),
    ];
    for (const error of cases) {
      const described = describeFailure(error, 'cloud_init');
      expectCustomerSafe(described.message);
      expect(described.cause).toMatchObject({ stage: 'cloud_init', detail: PROVIDER_TEXT });
      expect(described.cause.type).toEqual(expect.any(String));
      expect(JSON.stringify(described)).toContain(PROVIDER_TEXT);
    }
  });

  it('names the failure type in `cause`', () => {
    expect(describeFailure(activityFailure('NON_RETRYABLE_FAILURE', application(FailureType.GuestConflict, true)), 'clone').cause.type).toBe('GUEST_CONFLICT');
    expect(describeFailure(activityFailure('TIMEOUT', application('ProxmoxError', false)), 'clone').cause.type).toBe('ProxmoxError');
  });

  it('uses the error itself in `cause` when no application failure is in the chain', () => {
    const described = describeFailure(new Error('socket hang up'), null);
    expect(described.cause).toEqual({ stage: null, type: 'Error', detail: 'socket hang up' });
    expectCustomerSafe(described.message);
    expect(described.message).not.toContain('socket');
    expect(describeFailure('boom', 'clone').cause).toMatchObject({ stage: 'clone', detail: 'boom' });
  });

  it('gives one fixed message per code, whatever the provider said', () => {
    const a = describeFailure(activityFailure('NON_RETRYABLE_FAILURE', application(FailureType.ProviderRejected, true, 'first reason')), 'clone');
    const b = describeFailure(activityFailure('NON_RETRYABLE_FAILURE', application(FailureType.ProviderRejected, true, 'second reason')), 'boot');
    expect(a.message).toBe(b.message);
  });

  it('stops following an endless cause chain', () => {
    const loop = new Error('loop') as Error & { cause?: unknown };
    loop.cause = loop;
    expect(describeFailure(loop, 'clone').code).toBe('PROVISIONING_FAILED');
  });
});

describe('operatorReason', () => {
  it('is the message of the application failure behind the activity failure', () => {
    expect(operatorReason(activityFailure('NON_RETRYABLE_FAILURE', application(FailureType.GuestLocked, true, 'VM 101 is locked (clone)')))).toBe(
      'VM 101 is locked (clone)',
    );
  });

  it('finds the application failure under a timeout', () => {
    const timeout = new TimeoutFailure('activity ScheduleToClose timeout', undefined, 'SCHEDULE_TO_CLOSE');
    Object.defineProperty(timeout, 'cause', { value: application('ProxmoxError', false, '500 proxy loop detected') });
    expect(operatorReason(activityFailure('TIMEOUT', timeout, 'destroyGuest'))).toBe('500 proxy loop detected');
  });

  it('falls back to the message of the error itself', () => {
    expect(operatorReason(activityFailure('TIMEOUT', new TimeoutFailure('activity StartToClose timeout', undefined, 'START_TO_CLOSE')))).toBe(
      'Activity task failed',
    );
    expect(operatorReason(new Error('connection refused'))).toBe('connection refused');
  });

  it('turns anything that is not an error into text', () => {
    expect(operatorReason('plain text')).toBe('plain text');
    expect(operatorReason(42)).toBe('42');
  });
});
