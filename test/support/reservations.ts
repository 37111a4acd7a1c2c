import { expect } from 'vitest';
import type { Db } from '../../src/db/client';

/** What an instance still holds, straight from the database. */
export async function holdings(db: Db, instanceId: string) {
  const [instance, vmids, addresses, allocation, volumes, credential] = await Promise.all([
    db.instance.findUniqueOrThrow({ where: { id: instanceId }, include: { tasks: { orderBy: { createdAt: 'desc' } } } }),
    db.vmidReservation.findMany({ where: { instanceId } }),
    db.ipAddress.findMany({ where: { instanceId } }),
    db.nodeAllocation.findUnique({ where: { instanceId } }),
    db.volume.findMany({ where: { instanceId } }),
    db.credential.findUnique({ where: { instanceId } }),
  ]);
  return { instance, task: instance.tasks[0], vmids, addresses, allocation, volumes, credential };
}

/** A failed provision gave everything back (a VMID a stranger holds is quarantined): addresses, capacity, quota; volume errored; credential gone. */
export async function expectFullyReleased(db: Db, instanceId: string) {
  const held = await holdings(db, instanceId);
  expect(held.instance.status).toBe('failed');
  expect(held.vmids).toEqual([]);
  expect(held.addresses).toEqual([]);
  expect(held.allocation?.state).toBe('released');
  expect(held.instance.quotaReleasedAt).not.toBeNull();
  expect(held.volumes.map((v) => v.status)).toEqual(['errored']);
  expect(held.credential).toBeNull();
  expect(held.task?.status).toBe('failed');
  expect(held.task?.errorCode).toBe(held.instance.failureCode);
  expect(held.instance.failureMessage).not.toMatch(/pve\d|UPID|\b1\d{3}\b|local-lvm|vmbr/);
  return held;
}

/** A parked instance kept every reservation. */
export async function expectAllKept(db: Db, instanceId: string) {
  const held = await holdings(db, instanceId);
  expect(held.instance.status).toBe('rollback_failed');
  expect(held.vmids.map((v) => v.state)).toEqual(['reserved']);
  expect(held.addresses.length).toBeGreaterThanOrEqual(1);
  expect(held.allocation?.state).toBe('reserved');
  expect(held.instance.quotaReleasedAt).toBeNull();
  return held;
}
