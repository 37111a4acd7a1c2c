import { describe, expect, it } from 'vitest';
import {
  ProxmoxError,
  ProxmoxTaskError,
  isAlreadyExists,
  isAlreadyRunning,
  isLockTimeout,
  isLocked,
  isNotFound,
  isOutcomeUnknown,
  isTransient,
  lockKindOf,
} from '../../src/proxmox';

const http = (status: number, message: string, method = 'POST', errors?: Record<string, string>) =>
  new ProxmoxError({ kind: 'http', status, message, method, path: '/nodes/{node}/qemu/{vmid}/clone', errors });

describe('ProxmoxError classifiers', () => {
  it('not found: 404, or a 500 saying "does not exist"', () => {
    expect(http(404, 'Not Found', 'GET').isNotFound).toBe(true);
    expect(isNotFound(http(500, "Configuration file 'nodes/pve1/qemu-server/101.conf' does not exist"))).toBe(true);
    expect(isNotFound(http(400, 'Parameter verification failed.', 'GET', { vmid: 'does not exist' }))).toBe(false);
    expect(isNotFound(http(500, 'VM 101 is locked (clone)'))).toBe(false);
  });

  it('already exists / already running, from the status line or the per-parameter errors', () => {
    expect(isAlreadyExists(http(500, 'unable to create VM 101: config file already exists'))).toBe(true);
    expect(isAlreadyExists(http(400, 'Parameter verification failed.', 'GET', { vmid: 'VM 218 already exists' }))).toBe(true);
    expect(isAlreadyRunning(http(500, 'VM 101 already running'))).toBe(true);
    expect(isAlreadyRunning(http(500, 'VM 101 is running - destroy failed'))).toBe(false);
  });

  it('locked, with the lock kind parsed', () => {
    const e = http(500, 'VM 100 is locked (clone)');
    expect(e.isLocked).toBe(true);
    expect(e.lockKind).toBe('clone');
    expect(lockKindOf(http(500, 'VM 100 is locked (snapshot-delete)'))).toBe('snapshot-delete');
    expect(isLocked(http(500, 'VM 100 not running'))).toBe(false);
    expect(e.isTransient).toBe(false);
  });

  it('lock timeout: another task holds the config file lock (transient)', () => {
    const e = http(500, "can't lock file '/var/lock/qemu-server/lock-101.conf' - got timeout");
    expect(isLockTimeout(e)).toBe(true);
    expect(e.isLocked).toBe(false);
    expect(e.isTransient).toBe(true);
  });

  it('transient: network errors, timeouts, gateway errors and daemon trouble; rule failures are not', () => {
    expect(isTransient(new ProxmoxError({ kind: 'timeout', method: 'GET', path: '/nodes', message: 'timed out' }))).toBe(true);
    expect(isTransient(new ProxmoxError({ kind: 'network', method: 'GET', path: '/nodes', message: 'reset', code: 'ECONNRESET' }))).toBe(true);
    expect(isTransient(http(500, 'got no worker upid - start worker failed'))).toBe(true);
    expect(isTransient(http(503, 'Service Unavailable'))).toBe(true);
    expect(isTransient(http(596, 'Connection timed out'))).toBe(true);
    expect(isTransient(http(500, 'shrinking disks is not supported'))).toBe(false);
    expect(isTransient(http(500, "Configuration file 'nodes/pve1/qemu-server/1.conf' does not exist"))).toBe(false);
    expect(isTransient(http(501, "Method 'GET /foo' not implemented"))).toBe(false);
    expect(isTransient(http(400, 'Parameter verification failed.'))).toBe(false);
    expect(isTransient(new Error('other'))).toBe(false);
  });

  it('unexplained 5xx: a proxy error or a bare internal error; rules, known passing conditions, 4xx and 501 are not', () => {
    for (const unexplained of [http(500, 'proxy error on pve3: pvedaemon gave no answer'), http(500, 'internal error'), http(500, 'unexpected answer from worker')]) {
      expect(unexplained.isUnexplained5xx, unexplained.message).toBe(true);
    }
    for (const explained of [
      http(500, "can't lock file '/var/lock/qemu-server/lock-101.conf' - got timeout"),
      http(500, 'VM 101 is locked (backup)'),
      http(500, 'got no worker upid - start worker failed'),
      http(503, 'Service Unavailable'),
      http(599, 'Too many redirections'),
      http(500, "Configuration file 'nodes/pve1/qemu-server/101.conf' does not exist"),
      http(500, 'unable to create VM 101: config file already exists'),
      http(500, 'VM 101 already running'),
      http(501, "Method 'POST /foo' not implemented"),
      http(400, 'Parameter verification failed.', 'POST', { memory: 'value must have a minimum value of 16' }),
      http(403, 'Permission check failed (/vms/101, VM.Config.Memory)'),
      new ProxmoxError({ kind: 'timeout', method: 'POST', path: '/nodes', message: 'timed out' }),
    ]) {
      expect(explained.isUnexplained5xx, explained.message).toBe(false);
    }
  });

  it('outcome unknown: only mutating calls that timed out, were aborted or lost the connection after sending', () => {
    const mk = (kind: 'timeout' | 'network' | 'aborted', method: string, code?: string) =>
      new ProxmoxError({ kind, method, path: '/x', message: 'm', code });
    expect(isOutcomeUnknown(mk('timeout', 'POST'))).toBe(true);
    expect(isOutcomeUnknown(mk('aborted', 'DELETE'))).toBe(true);
    expect(isOutcomeUnknown(mk('network', 'PUT', 'ECONNRESET'))).toBe(true);
    expect(isOutcomeUnknown(mk('network', 'POST', 'ECONNREFUSED'))).toBe(false);
    expect(isOutcomeUnknown(mk('timeout', 'GET'))).toBe(false);
    expect(isOutcomeUnknown(http(500, 'VM 100 is locked (clone)'))).toBe(false);
    expect(http(500, 'x').definitive).toBe(true);
  });

  it('classifies task failures by their exit text', () => {
    const t = new ProxmoxTaskError('UPID:pve1:00001234:00ABCDEF:65000000:qmstart:101:root@pam!cp:', 'VM 101 already running', 'qmstart');
    expect(t.message).toBe('task qmstart failed: VM 101 already running');
    expect(isAlreadyRunning(t)).toBe(true);
    expect(isLocked(new ProxmoxTaskError('u', 'VM 5 is locked (backup)'))).toBe(true);
    expect(lockKindOf(new ProxmoxTaskError('u', 'VM 5 is locked (backup)'))).toBe('backup');
    expect(isTransient(t)).toBe(false);
  });
});
