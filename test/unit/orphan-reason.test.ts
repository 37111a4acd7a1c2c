import { describe, expect, it } from 'vitest';
import { orphanReason } from '../../src/activities/reconcile';

describe('when a guest with our marker is an orphan', () => {
  const live = { status: 'running' as const, vmid: 4000, connectionId: 'conn_a' };

  it('is not one while its instance is live at that VMID on that connection, whatever the status', () => {
    for (const status of ['pending', 'provisioning', 'running', 'stopped', 'deleting', 'rollback_failed', 'lost'] as const) {
      expect(orphanReason({ ...live, status }, 4000, 'conn_a')).toBeNull();
    }
  });

  it('is one when its instance is missing, deleted or failed', () => {
    expect(orphanReason(null, 4000, 'conn_a')).toBe('instance_missing');
    expect(orphanReason({ ...live, status: 'deleted' }, 4000, 'conn_a')).toBe('instance_deleted');
    expect(orphanReason({ ...live, status: 'failed' }, 4000, 'conn_a')).toBe('instance_failed');
  });

  it('is one when the marker was copied to another VMID or cluster (a clone made by hand)', () => {
    expect(orphanReason(live, 4001, 'conn_a')).toBe('other_vmid');
    expect(orphanReason(live, 4000, 'conn_b')).toBe('other_vmid');
  });
});
