import { describe, expect, it } from 'vitest';
import { judgeOperation, OPERATION_STATUS, TRANSITIONAL, type Operation, type OperationVerdict } from '../../src/domain/instance-status';
import { InstanceStatus } from '../../src/generated/prisma/enums';

const OPERATIONS: Operation[] = ['start', 'stop', 'shutdown', 'reboot', 'resize', 'rebuild', 'delete', 'migrate', 'snapshot', 'snapshot_delete', 'rollback', 'backup', 'backup_delete', 'restore', 'firewall', 'iso_mount', 'iso_eject', 'boot_order', 'rescue_enter', 'rescue_leave', 'throttle', 'unthrottle'];
const STATUSES = Object.values(InstanceStatus);

/** The whole table: which stable status allows which operation. Every other pair is refused. */
const ALLOWED: Record<Operation, InstanceStatus[]> = {
  start: ['stopped'],
  stop: ['running', 'rescue'],
  shutdown: ['running', 'rescue'],
  reboot: ['running', 'rescue'],
  resize: ['stopped'],
  rebuild: ['running', 'stopped', 'rebuild_failed'],
  migrate: ['running', 'stopped'],
  delete: ['running', 'stopped', 'rescue', 'failed', 'rollback_failed', 'rebuild_failed', 'lost'],
  snapshot: ['running', 'stopped', 'rescue'],
  snapshot_delete: ['running', 'stopped', 'rescue'],
  rollback: ['running', 'stopped'],
  backup: ['running', 'stopped', 'rescue'],
  backup_delete: ['running', 'stopped', 'rescue'],
  restore: ['running', 'stopped'],
  firewall: ['running', 'stopped'],
  iso_mount: ['running', 'stopped'],
  iso_eject: ['running', 'stopped'],
  boot_order: ['running', 'stopped'],
  rescue_enter: ['running', 'stopped'],
  rescue_leave: ['rescue', 'stopped'],
  throttle: ['running', 'stopped', 'rescue'],
  unthrottle: ['running', 'stopped', 'rescue'],
};

const BUSY: InstanceStatus[] = ['pending', 'scheduling', 'provisioning', 'starting', 'stopping', 'rebooting', 'resizing', 'rebuilding', 'migrating', 'deleting', 'snapshotting', 'rolling_back', 'backing_up', 'restoring', 'updating_firewall', 'entering_rescue', 'leaving_rescue', 'configuring_boot', 'updating_network'];
const SETTLED: InstanceStatus[] = ['running', 'stopped', 'rescue', 'failed', 'rollback_failed', 'rebuild_failed', 'lost', 'deleted'];

function expected(status: InstanceStatus, operation: Operation): OperationVerdict {
  if (ALLOWED[operation].includes(status)) return 'allowed';
  return BUSY.includes(status) ? 'in_progress' : 'invalid_state';
}

describe('judgeOperation', () => {
  it('knows every status: each is either busy (a workflow owns it) or settled', () => {
    expect([...BUSY, ...SETTLED].sort()).toEqual([...STATUSES].sort());
    expect([...TRANSITIONAL].sort()).toEqual([...BUSY].sort());
  });

  const table = STATUSES.flatMap((status) => OPERATIONS.map((operation) => ({ status, operation, verdict: expected(status, operation) })));

  it.each(table)('$operation on a $status instance → $verdict', ({ status, operation, verdict }) => {
    expect(judgeOperation(status, operation)).toBe(verdict);
  });

  it('answers in_progress for every operation while a workflow owns the instance', () => {
    for (const status of BUSY) {
      for (const operation of OPERATIONS) expect(judgeOperation(status, operation), `${operation} on ${status}`).toBe('in_progress');
    }
  });

  it('allows nothing on a deleted instance', () => {
    for (const operation of OPERATIONS) expect(judgeOperation('deleted', operation)).toBe('invalid_state');
  });

  it('allows only deletion of a failed instance, whether or not its rollback succeeded', () => {
    for (const status of ['failed', 'rollback_failed'] as const) {
      for (const operation of OPERATIONS) expect(judgeOperation(status, operation)).toBe(operation === 'delete' ? 'allowed' : 'invalid_state');
    }
  });

  it('allows a server whose rebuild failed only to be rebuilt again or deleted', () => {
    for (const operation of OPERATIONS) {
      expect(judgeOperation('rebuild_failed', operation), operation).toBe(operation === 'rebuild' || operation === 'delete' ? 'allowed' : 'invalid_state');
    }
  });

  it('allows power operations only from the opposite power state', () => {
    expect(judgeOperation('stopped', 'start')).toBe('allowed');
    expect(judgeOperation('running', 'start')).toBe('invalid_state');
    for (const operation of ['stop', 'shutdown', 'reboot'] as const) {
      expect(judgeOperation('running', operation)).toBe('allowed');
      expect(judgeOperation('stopped', operation)).toBe('invalid_state');
    }
  });

  it('resizes only a stopped instance', () => {
    expect(judgeOperation('stopped', 'resize')).toBe('allowed');
    expect(judgeOperation('running', 'resize')).toBe('invalid_state');
  });
});

describe('OPERATION_STATUS', () => {
  it('shows each operation as the transitional status it runs under', () => {
    expect(OPERATION_STATUS).toEqual({
      start: 'starting',
      stop: 'stopping',
      shutdown: 'stopping',
      reboot: 'rebooting',
      resize: 'resizing',
      rebuild: 'rebuilding',
      migrate: 'migrating',
      delete: 'deleting',
      snapshot: 'snapshotting',
      snapshot_delete: 'snapshotting',
      rollback: 'rolling_back',
      backup: 'backing_up',
      backup_delete: 'backing_up',
      restore: 'restoring',
      firewall: 'updating_firewall',
      iso_mount: 'configuring_boot',
      iso_eject: 'configuring_boot',
      boot_order: 'configuring_boot',
      rescue_enter: 'entering_rescue',
      rescue_leave: 'leaving_rescue',
      throttle: 'updating_network',
      unthrottle: 'updating_network',
    });
  });

  it('only ever names busy statuses, so a second operation is refused as in progress', () => {
    for (const operation of OPERATIONS) {
      const status = OPERATION_STATUS[operation];
      expect(TRANSITIONAL).toContain(status);
      for (const next of OPERATIONS) expect(judgeOperation(status, next)).toBe('in_progress');
    }
  });
});
