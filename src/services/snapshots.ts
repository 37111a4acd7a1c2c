import type { Tx } from '../db/client';
import { AppError } from '../domain/errors';
import { assertWithinPlanLimit } from '../domain/snapshots';
import type { Prisma, Snapshot } from '../generated/prisma/client';
import { newId } from '../security/ids';
import type { ServiceDeps } from './deps';
import { findInstance } from './instances';
import { answer, requestOperation, type LockedInstance, type OperationAnswer, type OperationDeps } from './operations';
import type { Principal } from './principal';

/** Snapshots that hold a name and count against the plan's limit. */
const LIVE: Prisma.SnapshotWhereInput = { status: { in: ['creating', 'available', 'deleting'] } };

const snapshotLiveKey = (instanceId: string, name: string) => `${instanceId}:${name}`;

async function liveSnapshot(tx: Tx, instanceId: string, name: string): Promise<Snapshot> {
  const row = await tx.snapshot.findUnique({ where: { liveKey: snapshotLiveKey(instanceId, name) } });
  if (!row || row.status !== 'available') {
    if (row) throw new AppError('INVALID_STATE', `The snapshot ${name} is ${row.status}.`, { status: row.status });
    throw new AppError('NOT_FOUND', 'The snapshot was not found.');
  }
  return row;
}

/** Where Proxmox cannot snapshot, nothing is asked of it. */
async function assertSnapshotsSupported(tx: Tx, instance: LockedInstance): Promise<void> {
  const location = await tx.location.findUniqueOrThrow({ where: { id: instance.locationId } });
  if (!location.snapshotsSupported) throw new AppError('SNAPSHOTS_UNSUPPORTED', "This server's location keeps disks on storage that cannot take snapshots.");
}

export interface SnapshotRequest {
  name: string;
  description?: string;
  includeMemory?: boolean;
}

export interface SnapshotAnswer extends OperationAnswer {
  snapshot: Snapshot;
}

/**
 * A snapshot, checked before Proxmox is asked anything: the location's storage can snapshot, the
 * plan's `snapshotLimit` leaves room, the name is free on this server.
 */
export async function requestSnapshot(deps: OperationDeps, who: Principal, instanceId: string, body: SnapshotRequest): Promise<SnapshotAnswer> {
  const snapshotId = newId('snap');
  const { taskId } = (await requestOperation(deps, who, instanceId, {
    operation: 'snapshot',
    prepare: async (tx, instance) => {
      await assertSnapshotsSupported(tx, instance);
      assertWithinPlanLimit('snapshots', instance.plan.snapshotLimit, await tx.snapshot.count({ where: { instanceId, ...LIVE } }));
      if (await tx.snapshot.findUnique({ where: { liveKey: snapshotLiveKey(instanceId, body.name) } })) {
        throw new AppError('CONFLICT', 'This server already has a snapshot of that name.', { fields: { name: 'taken' } });
      }
      await tx.snapshot.create({
        data: {
          id: snapshotId,
          instanceId,
          name: body.name,
          description: body.description ?? '',
          // Only a running server has RAM to save.
          vmstate: (body.includeMemory ?? false) && instance.status === 'running',
          status: 'creating',
          liveKey: snapshotLiveKey(instanceId, body.name),
        },
      });
      return { params: { snapshot: { snapshotId, name: body.name } } };
    },
  })) as { taskId: string };
  const snapshot = await deps.db.snapshot.update({ where: { id: snapshotId }, data: { taskId } });
  return { ...(await answer(deps, who, instanceId, taskId, 202)), snapshot };
}

/** Deletes an available snapshot. */
export async function requestSnapshotDelete(deps: OperationDeps, who: Principal, instanceId: string, name: string): Promise<SnapshotAnswer> {
  let snapshotId = '';
  const { taskId } = (await requestOperation(deps, who, instanceId, {
    operation: 'snapshot_delete',
    prepare: async (tx) => {
      const row = await liveSnapshot(tx, instanceId, name);
      snapshotId = row.id;
      await tx.snapshot.update({ where: { id: row.id }, data: { status: 'deleting' } });
      return { params: { snapshot: { snapshotId: row.id, name } } };
    },
  })) as { taskId: string };
  const snapshot = await deps.db.snapshot.findUniqueOrThrow({ where: { id: snapshotId } });
  return { ...(await answer(deps, who, instanceId, taskId, 202)), snapshot };
}

/** Reverts the server to an available snapshot: an operation of its own (`rollback`, status `rolling_back`). */
export async function requestSnapshotRevert(deps: OperationDeps, who: Principal, instanceId: string, name: string): Promise<OperationAnswer> {
  const { taskId } = (await requestOperation(deps, who, instanceId, {
    operation: 'rollback',
    prepare: async (tx, instance) => {
      await assertSnapshotsSupported(tx, instance);
      const row = await liveSnapshot(tx, instanceId, name);
      return { params: { snapshot: { snapshotId: row.id, name } } };
    },
  })) as { taskId: string };
  return answer(deps, who, instanceId, taskId, 202);
}

/** The server's snapshots that exist or are being made, oldest first. */
export async function listSnapshotsOf(deps: Pick<ServiceDeps, 'db'>, who: Principal, instanceId: string): Promise<Snapshot[]> {
  await findInstance(deps, who, instanceId);
  return deps.db.snapshot.findMany({ where: { instanceId, ...LIVE }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

export async function findSnapshot(deps: Pick<ServiceDeps, 'db'>, who: Principal, instanceId: string, name: string): Promise<Snapshot> {
  await findInstance(deps, who, instanceId);
  const row = await deps.db.snapshot.findUnique({ where: { liveKey: snapshotLiveKey(instanceId, name) } });
  if (!row) throw new AppError('NOT_FOUND', 'The snapshot was not found.');
  return row;
}
