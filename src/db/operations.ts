import { newId } from '../domain/ids';
import type { OperationStatus } from '../generated/prisma/enums';
import type { Db } from './client';

export interface OperationKey {
  instanceId: string;
  taskId: string;
  stage: string;
  /** What was asked of Proxmox, unique within a task: `clone`, `config`, `resize`, `start`, ... */
  kind: string;
  node: string;
  vmid: number;
}

/** The recorded Proxmox task of one step of one task, if any. */
export function findOperation(db: Db, taskId: string, kind: string) {
  return db.providerOperation.findUnique({ where: { taskId_kind: { taskId, kind } } });
}

/**
 * Writes the intent before the call: after a crash, an `issuing` row without a UPID means
 * "outcome unknown". The row names the activity attempt that wrote it (see holdsIntent).
 */
export async function recordIntent(db: Db, key: OperationKey, attempt: number): Promise<string> {
  const { instanceId, taskId, stage, kind, node, vmid } = key;
  const row = await db.providerOperation.upsert({
    where: { taskId_kind: { taskId, kind } },
    create: { id: newId('op'), instanceId, taskId, stage, kind, node, vmid, status: 'issuing', attempt },
    update: { status: 'issuing', upid: null, exitStatus: null, node, vmid, attempt },
  });
  return row.id;
}

/**
 * True while the intent is still this attempt's. An attempt Temporal gave up on (its heartbeat
 * timed out) may still be running; once a later attempt has recorded its own intent, the older
 * one must not issue the call too.
 */
export async function holdsIntent(db: Db, operationId: string, attempt: number): Promise<boolean> {
  const row = await db.providerOperation.findUnique({ where: { id: operationId }, select: { status: true, attempt: true } });
  return row?.status === 'issuing' && row.attempt === attempt;
}

export async function recordUpid(db: Db, operationId: string, upid: string | null): Promise<void> {
  await db.providerOperation.update({ where: { id: operationId }, data: { upid, status: upid ? 'running' : 'succeeded' } });
}

export async function recordOutcome(db: Db, operationId: string, status: OperationStatus, exitStatus?: string): Promise<void> {
  await db.providerOperation.update({ where: { id: operationId }, data: { status, exitStatus: exitStatus ?? null } });
}
