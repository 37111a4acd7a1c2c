import { claimJob, holdsJob, recordedJobUpids, recordJobOutcome, recordJobUpid, type ProviderJobKey } from '../db/provider-jobs';
import { parseUpid, ProxmoxTaskError, type ProxmoxClient } from '../proxmox';
import { activityAttempt, cancellationSignal, heartbeatOfThisActivity } from './context';
import type { ActivityDeps } from './deps';
import { fromProxmoxError } from './failures';

export interface ProviderJob extends ProviderJobKey {
  /** Provider truth: is the effect already there? Asked when an earlier attempt's call has no answer on record. */
  isDone: () => Promise<boolean>;
  /** The one mutating call; answers the UPID of the task it starts. */
  issue: () => Promise<string>;
  /** The Proxmox task the call starts: after a lost answer, the node's task list is searched for it before calling again. */
  startsTask: { type: string; id: string };
  /** Called on each poll of the running task (a download reads its progress from the task log). */
  onPoll?: (jobId: string, upid: string) => void;
}

/** How far before the call a Proxmox task it started may seem to begin: the node's clock is not ours. */
const NODE_CLOCK_SLACK_S = 60;

/**
 * Makes a provider call that belongs to no instance (a download, an image template's VM) so that a
 * retry never issues it twice: the intent is recorded before the call and the UPID right after;
 * a retry polls a recorded UPID; a call whose answer was lost (intent without UPID) adopts the
 * task it started, found in the node's task list, or ends when its effect is there (`isDone`),
 * and only otherwise is made again. Answers the task's UPID, or null when the effect was found.
 */
export async function runProviderJob(deps: ActivityDeps, client: ProxmoxClient, job: ProviderJob): Promise<string | null> {
  const attempt = activityAttempt();
  const claim = await claimJob(deps.db, job, attempt);
  if (claim.state === 'succeeded') return null;
  if (claim.state === 'running') return waitFor(deps, client, claim.jobId, claim.upid, job);
  const { jobId } = claim;
  const context = { kind: job.kind, node: job.node };
  if (!claim.fresh) {
    const started = await askProvider(context, () => taskStartedBy(deps, client, job));
    if (started) {
      await recordJobUpid(deps.db, jobId, started);
      return waitFor(deps, client, jobId, started, job);
    }
    if (await askProvider(context, job.isDone)) {
      await recordJobOutcome(deps.db, jobId, 'succeeded');
      return null;
    }
    if (!(await holdsJob(deps.db, jobId, attempt))) throw new Error(`a later attempt took over the ${job.kind} call; this one stands down`);
  }
  let upid: string;
  try {
    upid = await job.issue();
  } catch (error) {
    const failure = fromProxmoxError(error, context);
    // A definitive refusal is recorded; a retryable one stays `issuing`, so the retry asks provider truth first.
    if (failure !== error) await recordJobOutcome(deps.db, jobId, 'failed');
    throw failure;
  }
  await recordJobUpid(deps.db, jobId, upid);
  return waitFor(deps, client, jobId, upid, job);
}

/** A task of the call's type and id, started by our token, that no job on record names (the list is newest first). */
async function taskStartedBy(deps: ActivityDeps, client: ProxmoxClient, job: ProviderJob): Promise<string | undefined> {
  const recorded = await deps.db.providerJob.findUnique({ where: { key: job.key }, select: { createdAt: true } });
  const since = Math.floor((recorded?.createdAt.getTime() ?? Date.now()) / 1000) - NODE_CLOCK_SLACK_S;
  const listed = await client.tasks.list(job.node, { source: 'all', typefilter: job.startsTask.type, since });
  const ours = listed
    .map((t) => t.upid)
    .filter((u) => {
      const parsed = parseUpid(u);
      return parsed.user === client.tokenId && parsed.id === job.startsTask.id;
    });
  const known = await recordedJobUpids(deps.db, ours);
  return ours.find((u) => !known.has(u));
}

async function askProvider<T>(context: Record<string, unknown>, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw fromProxmoxError(error, context);
  }
}

async function waitFor(deps: ActivityDeps, client: ProxmoxClient, jobId: string, upid: string, job: ProviderJob): Promise<string> {
  const beat = heartbeatOfThisActivity();
  beat({ upid });
  try {
    const result = await client.tasks.wait(upid, {
      signal: cancellationSignal(),
      pollIntervalMs: deps.config.TASK_POLL_INTERVAL_MS,
      resumed: true,
      onPoll: () => {
        beat({ upid });
        job.onPoll?.(jobId, upid);
      },
    });
    await recordJobOutcome(deps.db, jobId, 'succeeded', result.exitstatus);
    return upid;
  } catch (error) {
    if (error instanceof ProxmoxTaskError) await recordJobOutcome(deps.db, jobId, 'failed', error.exitstatus);
    throw fromProxmoxError(error, { kind: job.kind, node: job.node, upid });
  }
}
