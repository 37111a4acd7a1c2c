import { newId } from '../security/ids';
import { Prisma } from '../generated/prisma/client';
import type { ProviderCallStatus } from '../generated/prisma/enums';
import { runSql, type Db } from './client';

export interface ProviderJobKey {
  /** Unique per call: a retry of the same call names the same key. */
  key: string;
  connectionId: string;
  node: string;
  kind: string;
}

/** What claimJob found: the intent is this attempt's now, or an earlier call stands (as claimIntent in provider-calls.ts). */
export type JobClaim =
  | { state: 'claimed'; jobId: string; fresh: boolean }
  | { state: 'succeeded' }
  | { state: 'running'; jobId: string; upid: string };

/**
 * Writes the intent before the call, in one statement with reading what was recorded: a call that
 * succeeded, or whose Proxmox task is running, is answered as it is. A failed call may be made
 * again (a download after its URL was fixed).
 */
export async function claimJob(db: Db, job: ProviderJobKey, attempt: number): Promise<JobClaim> {
  const now = new Date();
  const [claimed] = await runSql<{ id: string; fresh: boolean }>(db, Prisma.sql`
    INSERT INTO provider_jobs (id, key, "connectionId", node, kind, status, attempt, "createdAt", "updatedAt")
    VALUES (${newId('job')}, ${job.key}, ${job.connectionId}, ${job.node}, ${job.kind}, 'issuing', ${attempt}, ${now}, ${now})
    ON CONFLICT (key) DO UPDATE
    SET status = 'issuing', upid = NULL, "exitStatus" = NULL, progress = NULL, node = EXCLUDED.node, attempt = EXCLUDED.attempt, "updatedAt" = EXCLUDED."updatedAt"
    WHERE provider_jobs.status <> 'succeeded' AND NOT (provider_jobs.status = 'running' AND provider_jobs.upid IS NOT NULL)
    RETURNING id, xmax = 0 AS fresh`);
  if (claimed) return { state: 'claimed', jobId: claimed.id, fresh: claimed.fresh };
  const recorded = await db.providerJob.findUnique({ where: { key: job.key } });
  if (recorded?.status === 'succeeded') return { state: 'succeeded' };
  if (recorded?.status === 'running' && recorded.upid) return { state: 'running', jobId: recorded.id, upid: recorded.upid };
  throw new Error(`the ${job.kind} call ${job.key} changed while it was being claimed; trying again`);
}

/** True while the intent is still this attempt's (see holdsIntent in provider-calls.ts). */
export async function holdsJob(db: Db, jobId: string, attempt: number): Promise<boolean> {
  const [row] = await runSql<{ holds: boolean }>(db, Prisma.sql`SELECT status = 'issuing' AND attempt = ${attempt} AS holds FROM provider_jobs WHERE id = ${jobId}`);
  return row?.holds === true;
}

export async function recordJobUpid(db: Db, jobId: string, upid: string): Promise<void> {
  await db.providerJob.update({ where: { id: jobId }, data: { upid, status: 'running' } });
}

export async function recordJobProgress(db: Db, jobId: string, progress: number): Promise<void> {
  await db.providerJob.updateMany({ where: { id: jobId, status: 'running' }, data: { progress } });
}

export async function recordJobOutcome(db: Db, jobId: string, status: ProviderCallStatus, exitStatus?: string): Promise<void> {
  await db.providerJob.update({ where: { id: jobId }, data: { status, exitStatus: exitStatus ?? null, ...(status === 'succeeded' ? { progress: 100 } : {}) } });
}

/** Which of these UPIDs a provider job on record names. */
export async function recordedJobUpids(db: Db, upids: string[]): Promise<Set<string>> {
  if (upids.length === 0) return new Set();
  const rows = await db.providerJob.findMany({ where: { upid: { in: upids } }, select: { upid: true } });
  return new Set(rows.flatMap((r) => (r.upid ? [r.upid] : [])));
}

/** Forgets the jobs whose keys start with `prefix` (an image version's, once its files and templates are gone). */
export async function forgetJobs(db: Db, prefix: string): Promise<void> {
  await db.providerJob.deleteMany({ where: { key: { startsWith: prefix } } });
}
