import { newId } from '../security/ids';
import { Prisma } from '../generated/prisma/client';
import type { ProviderCallStatus } from '../generated/prisma/enums';
import { runSql, type Db } from './client';
import { recordStepSql, type StepInput } from './tasks';

export interface ProviderCallKey {
  instanceId: string;
  taskId: string;
  /** The step-line prefix the call belongs to: a provisioning stage, an operation's name or a destroy's purpose. */
  phase: string;
  /** What was asked of Proxmox, unique within a task: `clone`, `config`, `resize`, `start`, ... */
  kind: string;
  node: string;
  vmid: number;
}

/** The recorded provider call of one kind within one task, if any. */
export function findProviderCall(db: Db, taskId: string, kind: string) {
  return db.providerCall.findUnique({ where: { taskId_kind: { taskId, kind } } });
}

/** What claimIntent found: the intent is this attempt's now, or an earlier call stands. */
export type IntentClaim =
  /** `fresh`: no intent was ever recorded before, so no call was ever made. */
  | { state: 'claimed'; callId: string; fresh: boolean }
  | { state: 'succeeded' }
  /** A call was answered with this UPID: poll it, never call again. */
  | { state: 'running'; callId: string; upid: string };

/**
 * Writes the intent before the call, in one statement with reading what was recorded: a call
 * that succeeded, or whose Proxmox task is running, is answered as it is and left alone. After a
 * crash, an `issuing` row without a UPID means "outcome unknown". The row names the activity
 * attempt that wrote it (see holdsIntent).
 */
export async function claimIntent(db: Db, key: ProviderCallKey, attempt: number): Promise<IntentClaim> {
  const { instanceId, taskId, phase, kind, node, vmid } = key;
  const now = new Date();
  // xmax is 0 on a row this statement inserted, and set on one it updated.
  const [claimed] = await runSql<{ id: string; fresh: boolean }>(db, Prisma.sql`
    INSERT INTO provider_operations (id, "instanceId", "taskId", stage, kind, node, vmid, status, attempt, "createdAt", "updatedAt")
    VALUES (${newId('op')}, ${instanceId}, ${taskId}, ${phase}, ${kind}, ${node}, ${vmid}, 'issuing', ${attempt}, ${now}, ${now})
    ON CONFLICT ("taskId", kind) DO UPDATE
    SET status = 'issuing', upid = NULL, "exitStatus" = NULL, node = EXCLUDED.node, vmid = EXCLUDED.vmid, attempt = EXCLUDED.attempt, "updatedAt" = EXCLUDED."updatedAt"
    WHERE provider_operations.status <> 'succeeded' AND NOT (provider_operations.status = 'running' AND provider_operations.upid IS NOT NULL)
    RETURNING id, xmax = 0 AS fresh`);
  if (claimed) return { state: 'claimed', callId: claimed.id, fresh: claimed.fresh };
  const recorded = await findProviderCall(db, taskId, kind);
  if (recorded?.status === 'succeeded') return { state: 'succeeded' };
  if (recorded?.status === 'running' && recorded.upid) return { state: 'running', callId: recorded.id, upid: recorded.upid };
  throw new Error(`the ${kind} call of task ${taskId} changed while it was being claimed; trying again`);
}

/**
 * True while the intent is still this attempt's. An attempt Temporal gave up on (its heartbeat
 * timed out) may still be running; once a later attempt has recorded its own intent, the older
 * one must not issue the call too.
 */
export async function holdsIntent(db: Db, callId: string, attempt: number): Promise<boolean> {
  const [row] = await runSql<{ holds: boolean }>(db, Prisma.sql`SELECT status = 'issuing' AND attempt = ${attempt} AS holds FROM provider_operations WHERE id = ${callId}`);
  return row?.holds === true;
}

/**
 * Takes back a claim that led to no call because the effect was already there: nothing was
 * issued, so nothing is left on record (only this attempt's own, still call-less intent goes).
 */
export async function withdrawClaim(db: Db, callId: string, attempt: number): Promise<void> {
  await runSql(db, Prisma.sql`DELETE FROM provider_operations WHERE id = ${callId} AND attempt = ${attempt} AND status = 'issuing' AND upid IS NULL`);
}

export async function recordUpid(db: Db, callId: string, upid: string): Promise<void> {
  await runSql(db, Prisma.sql`UPDATE provider_operations SET upid = ${upid}, status = 'running', "updatedAt" = ${new Date()} WHERE id = ${callId}`);
}

/** Ends the call; `line` is the step-thread line that reports it, written in the same statement. */
export async function recordOutcome(db: Db, callId: string, status: ProviderCallStatus, exitStatus?: string, line?: StepInput): Promise<void> {
  const outcome = Prisma.sql`
    UPDATE provider_operations SET status = CAST(${status} AS "OperationStatus"), "exitStatus" = ${exitStatus ?? null}, "updatedAt" = ${new Date()}
    WHERE id = ${callId}`;
  await runSql(db, line ? recordStepSql(line, outcome) : outcome);
}

/** Which of these UPIDs a provider call on record names. */
export async function recordedUpids(db: Db, upids: string[]): Promise<Set<string>> {
  if (upids.length === 0) return new Set();
  const rows = await db.providerCall.findMany({ where: { upid: { in: upids } }, select: { upid: true } });
  return new Set(rows.flatMap((r) => (r.upid ? [r.upid] : [])));
}
