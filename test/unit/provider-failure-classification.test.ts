import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { fromProxmoxError } from '../../src/activities/failures';
import { ProxmoxError, ProxmoxTaskError, ProxmoxTaskTimeoutError } from '../../src/proxmox';

const STATUS_PATH = '/nodes/{node}/qemu/{vmid}/status/current';
const CONFIG_PATH = '/nodes/{node}/qemu/{vmid}/config';
const UPID = 'UPID:pve1:00001234:00ABCDEF:65000000:qmconfig:101:root@pam!cp:';

const answered = (method: string, status: number, message: string, path = method === 'GET' ? STATUS_PATH : CONFIG_PATH) =>
  new ProxmoxError({ kind: 'http', status, message, method, path });
const unanswered = (method: string, kind: 'timeout' | 'network') => new ProxmoxError({ kind, method, path: CONFIG_PATH, message: 'no answer', code: 'ECONNRESET' });

/** What the stage does with the error: retry it within its budget, or fail at once with a type. */
function verdict(error: unknown): string {
  const failure = fromProxmoxError(error, { kind: 'test' });
  if (failure instanceof ApplicationFailure) return failure.nonRetryable ? failure.type ?? 'untyped' : 'retry';
  expect(failure).toBe(error);
  return 'retry';
}

describe('fromProxmoxError: which provider failures a stage retries', () => {
  it.each([
    ['a read answered 500', answered('GET', 500, 'simulated failure')],
    ['a read answered 400', answered('GET', 400, 'Parameter verification failed.')],
    ['a read refused 401', answered('GET', 401, 'authentication failure')],
    ['a read answered 501', answered('GET', 501, "Method 'GET /x' not implemented")],
    ['a read that timed out', unanswered('GET', 'timeout')],
    ['a read whose connection dropped', unanswered('GET', 'network')],
  ])('retries %s: a read changes nothing', (_what, error) => {
    expect(verdict(error)).toBe('retry');
  });

  it('keeps the meaning of a read saying the guest does not exist', () => {
    expect(verdict(answered('GET', 500, "Configuration file 'nodes/pve1/qemu-server/101.conf' does not exist"))).toBe('GUEST_LOST');
    expect(verdict(answered('GET', 404, 'Not Found'))).toBe('GUEST_LOST');
  });

  it.each([
    ['a write refused: config lock timeout', answered('POST', 500, "can't lock file '/var/lock/qemu-server/lock-100.conf' - got timeout")],
    ['a write refused: guest locked by a backup', answered('PUT', 500, 'VM 100 is locked (backup)')],
    ['a write refused: guest locked by a clone', answered('DELETE', 500, 'VM 100 is locked (clone)')],
    ['a task ended by a lock timeout', new ProxmoxTaskError(UPID, "can't lock file '/var/lock/qemu-server/lock-100.conf' - got timeout", 'qmconfig')],
    ['a task ended by a lock', new ProxmoxTaskError(UPID, 'VM 100 is locked (migrate)', 'qmconfig')],
    ['a write answered 503', answered('POST', 503, 'Service Unavailable')],
    ['a write refused for daemon trouble', answered('POST', 500, 'got no worker upid - start worker failed')],
    ['a write whose answer timed out', unanswered('POST', 'timeout')],
    ['a task still running at the deadline', new ProxmoxTaskTimeoutError(UPID, 1000, 'running')],
  ])('retries %s (the retry re-reads provider truth first)', (_what, error) => {
    expect(verdict(error)).toBe('retry');
  });

  it.each([
    ['a write refused as an invalid parameter (400)', answered('POST', 400, 'Parameter verification failed.'), 'PROVIDER_REJECTED'],
    ['a write refused as an invalid parameter (500)', answered('POST', 500, "invalid parameter 'memory': value out of range"), 'PROVIDER_REJECTED'],
    ['a write refused 401', answered('POST', 401, 'authentication failure'), 'PROVIDER_REJECTED'],
    ['a write on a guest that does not exist', answered('POST', 500, "Configuration file 'nodes/pve1/qemu-server/101.conf' does not exist"), 'GUEST_LOST'],
    ['a task that failed for another reason', new ProxmoxTaskError(UPID, 'shrinking disks is not supported', 'qmresize'), 'PROVIDER_TASK_FAILED'],
  ])('fails the stage at once on %s', (_what, error, type) => {
    expect(verdict(error)).toBe(type);
  });

  it('passes our own verdicts and other errors through unchanged', () => {
    const own = ApplicationFailure.create({ type: 'GUEST_CONFLICT', message: 'taken', nonRetryable: true });
    expect(fromProxmoxError(own, {})).toBe(own);
    const other = new Error('database went away');
    expect(fromProxmoxError(other, {})).toBe(other);
  });
});
