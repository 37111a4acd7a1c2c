import { claimIntent, holdsIntent, recordedUpids, recordOutcome, recordUpid, withdrawClaim, type ProviderCallKey } from '../db/provider-calls';
import { recordStep, type StepInput } from '../db/tasks';
import { delay } from '../proxmox/delay';
import { parseUpid, ProxmoxError, ProxmoxTaskError, type ProxmoxClient } from '../proxmox';
import { activityAttempt, cancellationSignal, heartbeatOfThisActivity } from './context';
import type { ActivityDeps } from './deps';
import { fromProxmoxError } from './failures';

export interface ProviderCall extends ProviderCallKey {
  /**
   * Provider truth: is the effect already there? Checked before any call. `fresh`: this attempt
   * recorded the intent itself, so no earlier attempt can have issued the call.
   */
  isDone?: (claim: { fresh: boolean }) => Promise<boolean>;
  /**
   * Issuing the call when its effect is already there changes nothing (writing config values the
   * guest has): a first attempt, which no earlier call can have preceded, issues it without
   * asking `isDone`; a retry still asks.
   */
  repeatable?: boolean;
  /** The one mutating call. Answers a UPID, or null when Proxmox did it synchronously. */
  issue: () => Promise<string | null>;
  /**
   * The Proxmox task the call starts (`qmstart` about the guest, `qmclone` about the template,
   * `imgdel` about `<vmid>@<storage>`): after an answer that may hide a started task (a 5xx), the
   * node's task list is searched for it before the call is made again.
   */
  startsTask?: { type: string; id: number | string };
  /** A Proxmox task's error that means the work is already done (e.g. "already running"). */
  acceptsTaskError?: (exitStatus: string) => boolean;
  /** The step-thread line that reports it done, written in the same statement as its outcome. */
  reportsDone?: StepInput;
}

export interface ProviderCallResult {
  warnings: number;
  skipped: boolean;
}

/**
 * Makes one provider call so that a retry never issues it twice:
 * the intent is recorded before the call, the UPID right after (and heartbeated), and a
 * retried attempt resumes polling that UPID. A call whose answer was lost leaves an
 * `issuing` row; the retry then asks provider truth (`isDone`) before deciding to call again.
 * A call answered with a 5xx that explains nothing (see ProxmoxError.isUnexplained5xx) converges within the
 * attempt: after a short pause, a Proxmox task it started after all is adopted (`startsTask`), an
 * effect already there ends it (`isDone`), and only otherwise is it made again, ISSUE_TRIES times
 * in all; its last failure then counts as any other.
 * An attempt Temporal already gave up on stands down once a later one has recorded its intent:
 * the intent is recorded before `isDone` is asked, so a later attempt that claims it while this
 * one waits on Proxmox is seen before the call.
 */
export async function runProviderCall(deps: ActivityDeps, client: ProxmoxClient, call: ProviderCall): Promise<ProviderCallResult> {
  const attempt = activityAttempt();
  const claim = await claimIntent(deps.db, call, attempt);
  if (claim.state === 'succeeded') {
    if (call.reportsDone) await recordStep(deps.db, call.reportsDone);
    return { warnings: 0, skipped: true };
  }
  if (claim.state === 'running') {
    return { warnings: await waitFor(deps, client, claim.callId, claim.upid, call, { resumed: true }), skipped: false };
  }
  const { callId } = claim;
  const { isDone } = call;
  const asksProvider = isDone !== undefined && !(claim.fresh && call.repeatable);
  if (isDone && asksProvider && (await askProvider(call, () => isDone({ fresh: claim.fresh })))) {
    // A fresh claim made no call: it goes, as if never written. An older intent's call (outcome unknown until now) is recorded as the success it was.
    if (claim.fresh) {
      await withdrawClaim(deps.db, callId, attempt);
      if (call.reportsDone) await recordStep(deps.db, call.reportsDone);
    } else {
      await recordOutcome(deps.db, callId, 'succeeded', undefined, call.reportsDone);
    }
    return { warnings: 0, skipped: true };
  }
  const sentAt = Date.now();
  let upid: string | null = null;
  for (let tries = 1; ; tries++) {
    try {
      // Right after this attempt's own claim, with no wait on Proxmox since, the intent is its own.
      if ((tries > 1 || asksProvider) && !(await holdsIntent(deps.db, callId, attempt))) {
        throw new Error(`a later attempt took over the ${call.kind} call; this one stands down`);
      }
      upid = await call.issue();
      break;
    } catch (error) {
      if (!(error instanceof ProxmoxError && error.isUnexplained5xx) || tries >= ISSUE_TRIES) {
        // A definitive rejection is recorded; a retryable one (unknown outcome, lock contention)
        // stays `issuing`, so the retry asks provider truth (`isDone`) before issuing again.
        const failure = fromProxmoxError(error, { kind: call.kind, node: call.node, vmid: call.vmid });
        if (failure !== error) await recordOutcome(deps.db, callId, 'failed');
        throw failure;
      }
    }
    // A 5xx that may pass, and may have taken effect: look for the effect before sending again.
    await pauseBeforeTry(tries);
    const started = await askProvider(call, () => taskStartedBy(deps, client, call, sentAt));
    if (started) {
      upid = started;
      break;
    }
    // The call answered 5xx may have been made: the effect is judged as after an earlier attempt's call.
    if (isDone && (await askProvider(call, () => isDone({ fresh: false })))) {
      await recordOutcome(deps.db, callId, 'succeeded', undefined, call.reportsDone);
      return { warnings: 0, skipped: true };
    }
  }
  if (!upid) {
    await recordOutcome(deps.db, callId, 'succeeded', undefined, call.reportsDone);
    return { warnings: 0, skipped: false };
  }
  await recordUpid(deps.db, callId, upid);
  return { warnings: await waitFor(deps, client, callId, upid, call, { resumed: false }), skipped: false };
}

/** How often a call answered with an unexplained 5xx is made, all told, before its failure stands. */
const ISSUE_TRIES = 4;
/** The pause before the second try; it doubles before each next one (under a second each, well inside a heartbeat timeout). */
const FIRST_RETRY_PAUSE_MS = 200;
/** How far before the call a Proxmox task it started may seem to begin: the node's clock is not ours. */
const NODE_CLOCK_SLACK_S = 60;

async function pauseBeforeTry(triesSoFar: number): Promise<void> {
  heartbeatOfThisActivity()();
  await delay(FIRST_RETRY_PAUSE_MS * 2 ** (triesSoFar - 1), cancellationSignal());
}

/**
 * The UPID of the Proxmox task a call answered with a 5xx started after all: a task of the call's
 * type about its guest, started by our token since the call was sent, that no provider call on
 * record names (an earlier operation's task of the same type is on record).
 */
async function taskStartedBy(deps: ActivityDeps, client: ProxmoxClient, call: ProviderCall, sentAt: number): Promise<string | undefined> {
  if (!call.startsTask) return undefined;
  const { type, id } = call.startsTask;
  const since = Math.floor(sentAt / 1000) - NODE_CLOCK_SLACK_S;
  // Proxmox filters by `vmid` only for a task whose id is a VMID; any other id is matched here.
  const listed = await client.tasks.list(call.node, { source: 'all', typefilter: type, vmid: typeof id === 'number' ? id : undefined, since });
  const ours = listed
    .map((t) => t.upid)
    .filter((u) => {
      const upid = parseUpid(u);
      return upid.user === client.tokenId && upid.id === String(id);
    });
  const known = await recordedUpids(deps.db, ours);
  // The list is newest first.
  return ours.find((u) => !known.has(u));
}

/** A read of provider truth; "does not exist" means the guest is gone (GUEST_LOST), any other failed read is retried. */
async function askProvider<T>(call: ProviderCall, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw fromProxmoxError(error, { kind: call.kind, node: call.node, vmid: call.vmid });
  }
}

async function waitFor(
  deps: ActivityDeps,
  client: ProxmoxClient,
  callId: string,
  upid: string,
  call: ProviderCall,
  { resumed }: { resumed: boolean },
): Promise<number> {
  const beat = heartbeatOfThisActivity();
  beat({ upid });
  try {
    const result = await client.tasks.wait(upid, {
      signal: cancellationSignal(),
      pollIntervalMs: deps.config.TASK_POLL_INTERVAL_MS,
      resumed,
      onPoll: () => beat({ upid }),
    });
    await recordOutcome(deps.db, callId, 'succeeded', result.exitstatus, call.reportsDone);
    return result.warnings;
  } catch (error) {
    if (error instanceof ProxmoxTaskError) {
      if (call.acceptsTaskError?.(error.exitstatus)) {
        await recordOutcome(deps.db, callId, 'succeeded', error.exitstatus, call.reportsDone);
        return 0;
      }
      await recordOutcome(deps.db, callId, 'failed', error.exitstatus);
    }
    throw fromProxmoxError(error, { kind: call.kind, node: call.node, vmid: call.vmid, upid });
  }
}
