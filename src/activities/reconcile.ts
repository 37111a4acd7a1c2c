import { Context } from '@temporalio/activity';
import type { Tx } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { bootChangedOutside, changedOutside, lost, migratedOutside } from '../db/instance-state';
import { bootFirstOf, driveVolume, ISO_DRIVE } from '../domain/boot-media';
import { followGuest } from '../db/lifecycle';
import { runHousekeeping, type HousekeepingResult } from '../db/housekeeping';
import { recordSettledTask } from '../db/tasks';
import { newId } from '../security/ids';
import { GUEST_LOST_MESSAGE, rootFailureType } from '../domain/failure-types';
import { mayBeOurs, ownerOf } from '../domain/ownership';
import type { InstanceStatus, StepStatus } from '../generated/prisma/enums';
import { isNotFound, parseExitStatus, ProxmoxError, type ClusterVmResource, type ProxmoxClient } from '../proxmox';
import { startStrandedWorkflow } from '../services/workflow-starts';
import type { ActivityDeps } from './deps';
import { fail, FailureType } from './failures';
import { ownerOfGuest } from './ownership';
import { reconcileSnapshots } from './snapshot-reconcile';
import { sweepSnippets } from './snippets';
import { recordAudit } from '../db/audit';

/** One connection, or one instance on it (an operator's "reconcile this one now"). */
export interface ReconcileInput {
  connectionId: string;
  instanceId?: string;
}

export interface GuestsResult {
  changedOutside: number;
  /** Guests migrated to another node outside the control plane: their instances followed. */
  migratedOutside: number;
  /** Instances whose guest could not be read this time; looked at again on the next run. */
  undecided: number;
  lost: number;
  foundAgain: number;
  orphansFound: number;
  orphansGone: number;
  /** Our snapshots the guests no longer have: deleted. */
  snapshotsGone: number;
}

/** The type of the tasks that carry what the reconciler found, so it shows in the instance's step thread. */
export const RECONCILE_TASK_TYPE = 'INSTANCE_RECONCILE';

/** Why a guest that carries our marker has no live instance behind it; null when it has one. */
export function orphanReason(instance: { status: InstanceStatus; vmid: number | null; connectionId: string } | null, vmid: number, connectionId: string): string | null {
  if (!instance) return 'instance_missing';
  if (instance.status === 'deleted') return 'instance_deleted';
  if (instance.status === 'failed') return 'instance_failed';
  if (instance.connectionId !== connectionId || instance.vmid !== vmid) return 'other_vmid';
  return null;
}

/** The workflow an activity of the reconciler runs for (`reconcile` outside one, as in tests). */
export function currentWorkflowId(): string {
  try {
    return Context.current().info.workflowExecution?.workflowId ?? 'reconcile';
  } catch {
    return 'reconcile';
  }
}

/**
 * Live power state; null when the guest does not exist (any other failure is thrown: nothing is
 * concluded from it). A refused privilege ends the pass at once with its own failure type: the
 * listing hides what a token may not audit, so only this read tells a missing privilege from a
 * missing guest, and retrying cannot grant it.
 */
async function livePower(client: ProxmoxClient, node: string, vmid: number): Promise<'running' | 'stopped' | null> {
  try {
    return (await client.guests.status(node, vmid)).status === 'running' ? 'running' : 'stopped';
  } catch (error) {
    if (isNotFound(error)) return null;
    if (error instanceof ProxmoxError && error.isPermissionDenied) throw fail(FailureType.ProviderPermissionDenied, error.message, { kind: 'status', node, vmid });
    throw error;
  }
}

interface Finding {
  from: InstanceStatus;
  /** The transition applied when the instance is still as it was seen: no task under way, none ended after `observedAt`. */
  transition: (tx: Tx) => Promise<unknown>;
  observedAt: Date;
  step: { what: string; status: StepStatus; message: string };
}

/**
 * Applies what the reconciler saw, under the instance's row lock, only if nothing moved since: the
 * status is still the one compared, no task is under way, and no task ended after the observation
 * (an operation that just finished knows better). The finding is said in a task of its own (the
 * step thread) and in the audit trail.
 */
async function applyFinding(deps: ActivityDeps, instanceId: string, finding: Finding): Promise<boolean> {
  return deps.db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM instances WHERE id = ${instanceId} FOR UPDATE`;
    const instance = await tx.instance.findUniqueOrThrow({ where: { id: instanceId }, include: { activeTask: { select: { id: true } } } });
    if (instance.status !== finding.from || instance.activeTask) return false;
    const ended = await tx.task.findFirst({ where: { instanceId, type: { not: RECONCILE_TASK_TYPE }, finishedAt: { gte: finding.observedAt } }, select: { id: true } });
    if (ended) return false;
    await finding.transition(tx);
    await recordReconcileTask(tx, instance, finding.step);
    return true;
  });
}

async function recordReconcileTask(tx: Tx, instance: { id: string; tenantId: string }, step: Finding['step']): Promise<void> {
  const taskId = newId('task');
  const name = `reconcile > ${step.what}`;
  await recordSettledTask(tx, { id: taskId, instanceId: instance.id, tenantId: instance.tenantId, type: RECONCILE_TASK_TYPE, workflowId: currentWorkflowId() }, { step: name, status: step.status, message: step.message });
}

type ReconciledInstance = { id: string; connectionId: string; status: InstanceStatus; vmid: number | null; node: string | null };

/**
 * Our guest is listed on another node than the instance's, with no operation under way: someone
 * migrated it outside the control plane. The instance follows it there, capacity included.
 */
async function followMigration(deps: ActivityDeps, instance: ReconciledInstance, guest: ClusterVmResource, power: 'running' | 'stopped', observedAt: Date): Promise<boolean> {
  const from = instance.status as 'running' | 'stopped';
  return applyFinding(deps, instance.id, {
    from,
    observedAt,
    transition: async (tx) => {
      const capacityMoved = await followGuest(tx, instance, guest.node);
      await migratedOutside(tx, instance.id, { from, to: power, details: { fromNode: instance.node, toNode: guest.node, vmid: guest.vmid, capacityMoved } });
    },
    step: { what: 'moved outside', status: 'warning', message: 'The server was moved to another host outside this service.' },
  });
}

/** One instance with no task under way against its guest (as listed, or undefined); what was found and applied, if anything. */
async function reconcileInstance(
  deps: ActivityDeps,
  client: ProxmoxClient,
  instance: ReconciledInstance,
  guest: ClusterVmResource | undefined,
): Promise<'changedOutside' | 'migratedOutside' | 'lost' | 'foundAgain' | null> {
  const vmid = instance.vmid as number;
  const from = instance.status;
  const observedAt = new Date();
  if (from === 'lost') {
    if (!guest || (await ownerOfGuest(client, guest)) !== instance.id) return null;
    const power = await livePower(client, guest.node, vmid);
    if (!power) return null;
    const applied = await applyFinding(deps, instance.id, {
      from,
      observedAt,
      transition: async (tx) => {
        if (guest.node !== instance.node) await followGuest(tx, instance, guest.node);
        await changedOutside(tx, instance.id, { from, to: power, details: { node: guest.node, vmid } });
      },
      step: { what: 'found again', status: 'success', message: `The server is back on its host and ${power}.` },
    });
    return applied ? 'foundAgain' : null;
  }
  if (guest && guest.status !== 'running' && guest.status !== 'stopped') return null; // its node is not answering: decide nothing
  // Nothing to decide while the listing agrees and the guest looks like one of ours (our tag, or a
  // legacy name that is not someone else's); anything else costs one config read to settle.
  const namedOwner = guest ? ownerOf({ name: guest.name }) : null;
  if (guest && guest.status === from && guest.node === instance.node && mayBeOurs(guest) && (namedOwner === null || namedOwner === instance.id)) return null;
  const foreign = guest && (await ownerOfGuest(client, guest)) !== instance.id ? guest : undefined;
  if (!guest || foreign) {
    // A second, live look: the guest must be confirmed missing, not just unlisted for a moment.
    if (!guest && (await livePower(client, instance.node ?? '', vmid)) !== null) return null;
    const where = { vmid, node: instance.node, ...(foreign ? { foreignGuest: foreign.name ?? null } : {}) };
    const applied = await applyFinding(deps, instance.id, {
      from,
      observedAt,
      transition: (tx) => lost(tx, instance.id, { message: GUEST_LOST_MESSAGE, cause: { observedBy: 'reconciler', ...where } }),
      step: { what: 'server lost', status: 'error', message: GUEST_LOST_MESSAGE },
    });
    return applied ? 'lost' : null;
  }
  // /cluster/resources can lag behind: only the guest's live status counts.
  const power = await livePower(client, guest.node, vmid);
  if (!power) return null;
  if (guest.node !== instance.node) return (await followMigration(deps, instance, guest, power, observedAt)) ? 'migratedOutside' : null;
  if (power === from) return null;
  const applied = await applyFinding(deps, instance.id, {
    from,
    observedAt,
    transition: (tx) => changedOutside(tx, instance.id, { from: from as 'running' | 'stopped', to: power, details: { node: guest.node, vmid } }),
    step: {
      what: 'changed outside',
      status: 'warning',
      message: power === 'stopped' ? 'The server was powered off outside this service.' : 'The server was powered on outside this service.',
    },
  });
  return applied ? 'changedOutside' : null;
}

type BootedInstance = { id: string; status: InstanceStatus; vmid: number | null; node: string | null; bootFirst: 'disk' | 'cdrom'; iso: { fileName: string } | null };

/**
 * An instance with an ISO mounted or the CD-ROM first: its guest's config (as it will boot) read
 * and compared; an ISO ejected or replaced, or a boot order changed, in the Proxmox UI is recorded
 * as the truth (`instance.changed_outside`). Instances with neither are not read (one call each).
 */
async function reconcileBootMedia(deps: ActivityDeps, client: ProxmoxClient, instance: BootedInstance): Promise<boolean> {
  const config = await client.guestConfig.get(instance.node ?? '', instance.vmid as number);
  const volume = driveVolume(config[ISO_DRIVE]);
  const isoGone = instance.iso !== null && !volume.endsWith(`:iso/${instance.iso.fileName}`);
  const bootFirst = bootFirstOf(config);
  if (!isoGone && bootFirst === instance.bootFirst) return false;
  const set = { ...(isoGone ? { isoId: null } : {}), ...(bootFirst !== instance.bootFirst ? { bootFirst } : {}) };
  return applyFinding(deps, instance.id, {
    from: instance.status,
    observedAt: new Date(),
    transition: (tx) => bootChangedOutside(tx, instance.id, { status: instance.status, set, details: { node: instance.node, vmid: instance.vmid, drive: volume || null, bootFirst } }),
    step: { what: 'boot media changed outside', status: 'warning', message: 'The CD-ROM drive or boot order was changed outside this service; the server shows what it has now.' },
  });
}

/** Servers left in rescue mode past RESCUE_REPORT_AFTER_HOURS, reported to operators on every pass. */
async function reportLongRescues(deps: ActivityDeps, connectionId: string): Promise<void> {
  const since = new Date(Date.now() - deps.config.RESCUE_REPORT_AFTER_HOURS * 3_600_000);
  const long = await deps.db.instance.findMany({ where: { connectionId, rescueSince: { lt: since } }, select: { id: true, tenantId: true, rescueSince: true } });
  for (const instance of long) deps.logger.warn({ instanceId: instance.id, tenantId: instance.tenantId, rescueSince: instance.rescueSince }, 'a server has been in rescue mode longer than RESCUE_REPORT_AFTER_HOURS');
}

/**
 * Compares one connection's guests (one read of /cluster/resources) with our instances on it:
 * power changed outside the control plane → the status follows; our guest gone → `lost`; a lost
 * guest back → the status follows again; a guest with our marker and no live instance → an orphan
 * record for an operator; our snapshots the guest no longer has are deleted. Nothing is ever destroyed or started here.
 * Converges on retry: every change is conditional on the instance (or orphan record) being as it was seen.
 */
export function createReconcileGuestsActivity(deps: ActivityDeps) {
  return async function reconcileGuests({ connectionId, instanceId }: ReconcileInput): Promise<GuestsResult> {
    const result: GuestsResult = { changedOutside: 0, migratedOutside: 0, undecided: 0, lost: 0, foundAgain: 0, orphansFound: 0, orphansGone: 0, snapshotsGone: 0 };
    const connection = await deps.db.proxmoxConnection.findUniqueOrThrow({ where: { id: connectionId } });
    const client = deps.proxmox(connection);
    const guests = (await client.guests.list()).filter((r) => r.type !== 'lxc' && !r.template);
    const byVmid = new Map(guests.map((g) => [g.vmid, g]));

    const instances = await deps.db.instance.findMany({
      where: { connectionId, status: { in: ['running', 'stopped', 'lost'] }, vmid: { not: null }, activeTask: null, ...(instanceId ? { id: instanceId } : {}) },
      select: { id: true, connectionId: true, status: true, vmid: true, node: true },
    });
    const booted = await deps.db.instance.findMany({
      where: { connectionId, status: { in: ['running', 'stopped', 'rescue'] }, vmid: { not: null }, activeTask: null, OR: [{ isoId: { not: null } }, { bootFirst: 'cdrom' }], ...(instanceId ? { id: instanceId } : {}) },
      select: { id: true, status: true, vmid: true, node: true, bootFirst: true, iso: { select: { fileName: true } } },
    });
    for (const instance of booted) {
      try {
        if (await reconcileBootMedia(deps, client, instance)) result.changedOutside++;
      } catch (error) {
        deps.logger.warn({ err: error, instanceId: instance.id }, 'could not compare the boot media of an instance this time');
      }
    }
    await reportLongRescues(deps, connectionId);
    let refused: unknown;
    for (const instance of instances) {
      try {
        const finding = await reconcileInstance(deps, client, instance, byVmid.get(instance.vmid as number));
        if (finding) result[finding]++;
      } catch (error) {
        // One guest that cannot be read (its node is down, say) must not hold up the others.
        deps.logger.warn({ err: error, instanceId: instance.id }, 'could not reconcile an instance this time');
        result.undecided++;
        if (rootFailureType(error) === FailureType.ProviderPermissionDenied) refused ??= error;
      }
    }
    // A refused privilege will not pass by itself: the pass says so once every other guest was looked at.
    if (refused) throw refused;

    result.snapshotsGone = await reconcileSnapshots(deps, client, connectionId, instanceId);
    if (!instanceId) Object.assign(result, await recordOrphans(deps, client, connectionId, guests));
    return result;
  };
}

/** Guests with our marker and no live instance become (or stay) open orphan records; records whose guest is no longer listed close as `gone`. */
async function recordOrphans(deps: ActivityDeps, client: ProxmoxClient, connectionId: string, guests: ClusterVmResource[]): Promise<Pick<GuestsResult, 'orphansFound' | 'orphansGone'>> {
  let orphansFound = 0;
  const held = await deps.db.instance.findMany({ where: { connectionId, vmid: { not: null }, status: { notIn: ['deleted', 'failed'] } }, select: { id: true, vmid: true } });
  const liveAt = new Map(held.map((i) => [i.vmid as number, i.id]));
  for (const guest of guests.filter((g) => mayBeOurs(g))) {
    // Our guest at its own instance's VMID (the usual case) costs no config read.
    const named = ownerOf({ name: guest.name });
    if (liveAt.has(guest.vmid) && (named === null || named === liveAt.get(guest.vmid))) continue;
    const owner = named ?? (await ownerOfGuest(client, guest).catch(() => null));
    if (!owner) continue;
    const instance = await deps.db.instance.findUnique({ where: { id: owner }, select: { status: true, vmid: true, connectionId: true } });
    const reason = orphanReason(instance, guest.vmid, connectionId);
    if (!reason) continue;
    // Read after the instance: a guest destroyed by a rollback that ended meanwhile is not an orphan.
    if ((await livePower(client, guest.node, guest.vmid).catch(() => null)) === null) continue;
    if (await upsertOrphan(deps, connectionId, guest, owner, reason)) orphansFound++;
  }
  // The few open records are compared here: a listing of tens of thousands of VMIDs would not fit one statement's parameters.
  const listed = new Set(guests.map((g) => g.vmid));
  const open = await deps.db.orphanGuest.findMany({ where: { connectionId, status: 'open' }, select: { id: true, vmid: true } });
  const vanished = await deps.db.orphanGuest.updateMany({
    where: { id: { in: open.filter((o) => !listed.has(o.vmid)).map((o) => o.id) }, status: 'open' },
    data: { status: 'gone', openKey: null, resolvedAt: new Date() },
  });
  return { orphansFound, orphansGone: vanished.count };
}

/** Creates the open record of an orphan (true), or refreshes it; a guest an operator chose to forget stays forgotten. */
async function upsertOrphan(deps: ActivityDeps, connectionId: string, guest: ClusterVmResource, owner: string, reason: string): Promise<boolean> {
  const openKey = `${connectionId}:${guest.vmid}`;
  const open = await deps.db.orphanGuest.findUnique({ where: { openKey } });
  if (open?.ownerInstanceId === owner) {
    await deps.db.orphanGuest.update({ where: { id: open.id }, data: { lastSeenAt: new Date(), node: guest.node, name: guest.name ?? null } });
    return false;
  }
  if (open) await deps.db.orphanGuest.updateMany({ where: { id: open.id, status: 'open' }, data: { status: 'gone', openKey: null, resolvedAt: new Date() } });
  const forgotten = await deps.db.orphanGuest.findFirst({ where: { connectionId, vmid: guest.vmid, ownerInstanceId: owner, status: 'forgotten' }, select: { id: true } });
  if (forgotten) return false;
  try {
    const id = newId('orph');
    await deps.db.$transaction(async (tx) => {
      await tx.orphanGuest.create({ data: { id, connectionId, node: guest.node, vmid: guest.vmid, name: guest.name ?? null, ownerInstanceId: owner, reason, status: 'open', openKey } });
      await recordAudit(tx, { action: 'orphan.found', details: { orphanId: id, connectionId, vmid: guest.vmid, node: guest.node, ownerInstanceId: owner, reason } });
    });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false; // recorded by a concurrent run
    throw error;
  }
}

/**
 * Starts the workflows of tasks whose start was never confirmed (the API died between its commit and
 * the start, or Temporal was away) once they are older than the grace period, from the recorded
 * intent and under the same workflow id. A task the API gave up on (ended, holdings released) is
 * never started: both decide under the task's row lock.
 * Converges on retry: "already started" counts as started, and a task marked started is skipped.
 */
export function createStartStrandedWorkflowsActivity(deps: ActivityDeps) {
  return async function startStrandedWorkflows({ connectionId, instanceId }: ReconcileInput): Promise<{ started: number; alreadyStarted: number }> {
    const counts = { started: 0, alreadyStarted: 0 };
    const before = new Date(Date.now() - deps.config.START_INTENT_GRACE_SECONDS * 1000);
    const stranded = await deps.db.task.findMany({
      where: {
        workflowStartedAt: null,
        workflowType: { not: null },
        status: { in: ['pending', 'running'] },
        createdAt: { lt: before },
        instance: { connectionId },
        ...(instanceId ? { instanceId } : {}),
      },
      orderBy: { createdAt: 'asc' },
      take: 100,
      select: { id: true },
    });
    const services = { ...deps, temporal: Context.current().client };
    for (const { id } of stranded) {
      const outcome = await startStrandedWorkflow(services, id);
      if (outcome) counts[outcome === 'started' ? 'started' : 'alreadyStarted']++;
    }
    return counts;
  };
}

/**
 * Closes provider calls left `issuing`/`running` by tasks that have ended, with what
 * Proxmox says of their UPID (`unknown` when there is no UPID, or Proxmox no longer knows it).
 * Converges on retry: each record is closed only while it is still open.
 */
export function createCloseFinishedOperationsActivity(deps: ActivityDeps) {
  return async function closeFinishedOperations({ connectionId }: ReconcileInput): Promise<{ closed: number }> {
    const connection = await deps.db.proxmoxConnection.findUniqueOrThrow({ where: { id: connectionId } });
    const client = deps.proxmox(connection);
    const open = await deps.db.providerCall.findMany({
      where: { status: { in: ['issuing', 'running'] }, task: { status: { in: ['succeeded', 'failed'] } }, instance: { connectionId } },
      take: 100,
    });
    let closed = 0;
    for (const call of open) {
      let outcome: { status: 'succeeded' | 'failed' | 'unknown'; exitStatus: string | null } | null = { status: 'unknown', exitStatus: null };
      if (call.upid) {
        try {
          const proxmoxTask = await client.tasks.status(call.upid);
          outcome =
            proxmoxTask.status === 'stopped' && proxmoxTask.exitstatus ? { status: parseExitStatus(proxmoxTask.exitstatus).ok ? 'succeeded' : 'failed', exitStatus: proxmoxTask.exitstatus } : null;
        } catch (error) {
          if (!isNotFound(error)) {
            deps.logger.warn({ err: error, providerCallId: call.id, upid: call.upid }, 'could not read a Proxmox task; looked at again next time');
            continue;
          }
        }
      }
      if (!outcome) continue; // still running on Proxmox: looked at again next time
      const { count } = await deps.db.providerCall.updateMany({ where: { id: call.id, status: { in: ['issuing', 'running'] } }, data: outcome });
      closed += count;
    }
    return { closed };
  };
}

/** Database chores (see db/housekeeping) and snippets of servers that are gone. Converges on retry: conditional deletes and updates, and deleting a deleted file is a no-op. */
export function createHousekeepingActivity(deps: ActivityDeps) {
  return async function housekeeping(): Promise<HousekeepingResult & { snippetsRemoved: number }> {
    const result = await runHousekeeping(deps.db, new Date(), deps.config.IDEMPOTENCY_KEY_TTL_HOURS);
    return { ...result, snippetsRemoved: await sweepSnippets(deps.db) };
  };
}
