import { AppError } from '../domain/errors';
import type { InstanceEventData, TrafficEventFigures } from '../domain/events';
import type { Operation } from '../domain/instance-status';
import { growth, judgeResize, peak, type Sizing } from '../domain/sizing';
import type { Prisma } from '../generated/prisma/client';
import type { Tx } from './client';
import { settleBoot } from './boot-media';
import { settleGuestData } from './guest-data';
import { assertProjectQuota, assertQuota, fits, lockNodeCapacity, type ProjectQuota, type TenantQuota } from './reservations';
import { newId } from '../security/ids';

/**
 * The bookkeeping of lifecycle operations that hold something while they run: a resize charges
 * its growth before the change, a migration reserves the target node. Each has a commit (the
 * operation happened) and a revert (it did not); both set absolute values, so running either
 * twice changes nothing.
 */

export const TASK_TYPES: Record<Operation, string> = {
  start: 'INSTANCE_START',
  stop: 'INSTANCE_STOP',
  shutdown: 'INSTANCE_SHUTDOWN',
  reboot: 'INSTANCE_REBOOT',
  resize: 'INSTANCE_RESIZE',
  rebuild: 'INSTANCE_REBUILD',
  delete: 'INSTANCE_DELETE',
  migrate: 'INSTANCE_MIGRATE',
  snapshot: 'SNAPSHOT_CREATE',
  snapshot_delete: 'SNAPSHOT_DELETE',
  rollback: 'SNAPSHOT_ROLLBACK',
  backup: 'BACKUP_CREATE',
  backup_delete: 'BACKUP_DELETE',
  restore: 'BACKUP_RESTORE',
  firewall: 'FIREWALL_APPLY',
  iso_mount: 'ISO_MOUNT',
  iso_eject: 'ISO_EJECT',
  boot_order: 'BOOT_ORDER',
  rescue_enter: 'RESCUE_ENTER',
  rescue_leave: 'RESCUE_LEAVE',
  throttle: 'NIC_THROTTLE',
  unthrottle: 'NIC_UNTHROTTLE',
};

export function operationOfTask(type: string): Operation | undefined {
  return (Object.keys(TASK_TYPES) as Operation[]).find((op) => TASK_TYPES[op] === type);
}

export interface ResizeParams {
  planId: string;
  previousPlanId: string;
  from: Sizing;
  to: Sizing;
}

export interface MigrateParams {
  sourceNode: string;
  targetNode: string;
  targetNodeId: string;
}

/** What the instance looked like before the operation; restored when its workflow cannot start. */
export interface PreviousState {
  status: string;
  desiredState: string;
  imageId?: string;
  username?: string;
  credentialType?: string;
  sshKeys?: string[];
  templateVmid?: number | null;
}

/** The snapshot a snapshot operation takes, deletes or rolls back to. */
export interface SnapshotParams {
  snapshotId: string;
  name: string;
}

export interface OperationParams {
  previous: PreviousState;
  resize?: ResizeParams;
  migrate?: MigrateParams;
  snapshot?: SnapshotParams;
  /** The backup a backup operation makes. */
  backup?: { backupId: string };
  /** The backup a restore puts back. */
  restore?: { backupId: string };
  /** A delete that keeps the server's backups. */
  keepBackups?: boolean;
  /** What an ISO, boot-order or rescue operation puts in the CD-ROM drive and boot order (see db/boot-media). */
  boot?: BootParams;
  /** The billing period's figures when a throttle began or ended, the event of the operation's end carries them. */
  throttle?: { traffic: TrafficEventFigures };
}

/** The CD-ROM drive and boot order an operation leaves; a field it does not set stays as it is. */
export interface BootParams {
  /** The ISO mounted (its volume on the server's node), or null: the drive is emptied. */
  iso?: { isoId: string; volume: string } | null;
  bootFirst?: 'disk' | 'cdrom';
  rescue?: 'enter' | 'leave';
}

/** What the events of a finished operation name besides the instance: its snapshot, backup or traffic figures. */
export function operationSubject(params: OperationParams): Pick<InstanceEventData, 'snapshot' | 'backupId' | 'traffic'> {
  if (params.snapshot) return { snapshot: params.snapshot.name };
  if (params.throttle) return { traffic: params.throttle.traffic };
  const backupId = params.backup?.backupId ?? params.restore?.backupId;
  return backupId ? { backupId } : {};
}

export function readParams(json: Prisma.JsonValue | null): OperationParams {
  return (json ?? { previous: {} }) as unknown as OperationParams;
}

interface ChargedInstance {
  id: string;
  node: string | null;
  connectionId: string;
  planId: string;
  chargedVcpus: number;
  chargedMemoryMiB: number;
  chargedDiskGiB: number;
}

export const chargedSizing = (instance: ChargedInstance): Sizing => ({
  vcpus: instance.chargedVcpus,
  memoryMiB: instance.chargedMemoryMiB,
  diskGiB: instance.chargedDiskGiB,
});

async function setCharge(tx: Tx, instanceId: string, sizing: Sizing): Promise<void> {
  await tx.instance.update({
    where: { id: instanceId },
    data: { chargedVcpus: sizing.vcpus, chargedMemoryMiB: sizing.memoryMiB, chargedDiskGiB: sizing.diskGiB },
  });
  await tx.nodeAllocation.updateMany({ where: { instanceId, state: { not: 'released' } }, data: { ...sizing } });
}

/**
 * Charges a resize before anything changes: the project's and the tenant's quota and the node's
 * capacity must hold the growth, else PROJECT_QUOTA_EXCEEDED / QUOTA_EXCEEDED /
 * CAPACITY_UNAVAILABLE (the caller's transaction then undoes the charge). While it runs, the
 * instance holds the larger of both sizes.
 */
export async function chargeResize(
  tx: Tx,
  instance: ChargedInstance,
  project: ProjectQuota,
  tenant: TenantQuota,
  plan: { id: string } & Sizing,
  currentDiskGiB: number,
): Promise<ResizeParams> {
  const from = chargedSizing(instance);
  const to = { vcpus: plan.vcpus, memoryMiB: plan.memoryMiB, diskGiB: plan.diskGiB };
  if (!judgeResize(currentDiskGiB, to).ok) {
    throw new AppError('UNSUPPORTED', 'Disks can only grow: this plan has a smaller disk than the server.', { diskGiB: currentDiskGiB, planDiskGiB: to.diskGiB });
  }
  const extra = growth(from, to);
  await assertProjectQuota(tx, project, extra, false);
  await assertQuota(tx, tenant, extra, false);
  const here = (await lockNodeCapacity(tx, instance.connectionId)).find((n) => n.node === instance.node);
  if (!here || !fits(here.free, extra)) {
    throw new AppError('CAPACITY_UNAVAILABLE', 'There is no room for this plan on the server\'s host right now.', { resource: 'node_capacity' });
  }
  await setCharge(tx, instance.id, peak(from, to));
  return { planId: plan.id, previousPlanId: instance.planId, from, to };
}

/** A resize done: the new plan and size are charged, what shrank is refunded. A resize that failed: everything it charged is returned. */
export async function settleResize(tx: Tx, instanceId: string, params: ResizeParams, outcome: 'commit' | 'revert'): Promise<void> {
  if (outcome === 'revert') return setCharge(tx, instanceId, params.from);
  await setCharge(tx, instanceId, params.to);
  await tx.instance.update({ where: { id: instanceId }, data: { planId: params.planId } });
  // Usage records split the hour at this moment.
  if (params.planId !== params.previousPlanId) await tx.planChange.create({ data: { id: newId('plc'), instanceId, fromPlanId: params.previousPlanId, toPlanId: params.planId } });
  await tx.volume.updateMany({ where: { instanceId, kind: 'root', sizeGiB: { lt: params.to.diskGiB } }, data: { sizeGiB: params.to.diskGiB } });
}

/**
 * Reserves the instance's charged size on another enabled node of its cluster, under the node
 * locks. An unknown, disabled or identical node → INVALID_INPUT; no room → CAPACITY_UNAVAILABLE.
 */
export async function reserveMigration(tx: Tx, instance: ChargedInstance, targetNode: string): Promise<MigrateParams> {
  const nodes = await lockNodeCapacity(tx, instance.connectionId);
  if (targetNode === instance.node) throw new AppError('INVALID_INPUT', 'The server is already on that node.', { fields: { node: 'the server is already there' } });
  const target = nodes.find((n) => n.node === targetNode);
  if (!target || !instance.node) throw new AppError('INVALID_INPUT', 'The request body is invalid.', { fields: { node: 'no such enabled node in this cluster' } });
  if (target.draining) throw new AppError('INVALID_INPUT', 'The request body is invalid.', { fields: { node: 'the node is draining: it takes no new servers' } });
  if (!fits(target.free, chargedSizing(instance))) {
    throw new AppError('CAPACITY_UNAVAILABLE', 'There is no room for this server on that node right now.', { resource: 'node_capacity' });
  }
  await tx.nodeAllocation.update({ where: { instanceId: instance.id }, data: { targetNodeId: target.nodeId } });
  return { sourceNode: instance.node, targetNode, targetNodeId: target.nodeId };
}

/** A migration done: the capacity moves to the target and the source is freed. Not done: the target reservation is dropped. */
export async function settleMigration(tx: Tx, instanceId: string, params: MigrateParams, outcome: 'commit' | 'revert'): Promise<void> {
  if (outcome === 'revert') {
    await tx.nodeAllocation.updateMany({ where: { instanceId, targetNodeId: params.targetNodeId }, data: { targetNodeId: null } });
    return;
  }
  await tx.nodeAllocation.updateMany({ where: { instanceId, targetNodeId: params.targetNodeId }, data: { nodeId: params.targetNodeId, targetNodeId: null } });
  await tx.instance.update({ where: { id: instanceId }, data: { node: params.targetNode } });
}

/**
 * The guest is on `node` although no operation moved it there: the instance's node follows, and
 * its capacity moves there as a migration's would (even past the node's share: the guest is there
 * already). A node the connection does not know keeps no capacity; it stays on the old one (false).
 */
export async function followGuest(tx: Tx, instance: { id: string; connectionId: string }, node: string): Promise<boolean> {
  await tx.instance.update({ where: { id: instance.id }, data: { node } });
  const target = await tx.node.findUnique({ where: { connectionId_name: { connectionId: instance.connectionId, name: node } }, select: { id: true } });
  if (!target) return false;
  await tx.nodeAllocation.updateMany({ where: { instanceId: instance.id, state: { not: 'released' } }, data: { nodeId: target.id, targetNodeId: null } });
  return true;
}

/** Settles whatever the operation holds. */
export async function settleHoldings(tx: Tx, instanceId: string, params: OperationParams, outcome: 'commit' | 'revert'): Promise<void> {
  if (params.resize) await settleResize(tx, instanceId, params.resize, outcome);
  if (params.migrate) await settleMigration(tx, instanceId, params.migrate, outcome);
  await settleGuestData(tx, instanceId, params, outcome);
  await settleBoot(tx, instanceId, params, outcome);
}
