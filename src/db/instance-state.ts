/**
 * The one owner of an instance's status. Every change of status is a named transition below:
 * it locks the row, checks the move against the status matrix, and writes the audit row and the
 * `instance.*` event in the caller's transaction. A transition that finds the instance already
 * where it leads does nothing (a retried activity converges); one from a status the matrix does
 * not allow throws InvalidTransitionError (a bug, or a race the caller must handle).
 */
import type { InstanceEventData, InstanceEventType } from '../domain/events';
import { OPERATION_STATUS, judgeOperation, type Operation } from '../domain/instance-status';
import { Prisma } from '../generated/prisma/client';
import type { InstanceStatus } from '../generated/prisma/enums';
import { runSql, type Db, type Queryable, type Tx } from './client';
import { newId } from '../security/ids';
import { appendEvents } from './events';
import { endpointWantsEvent } from './webhooks';
import { recordAudit, signedBy, type InstanceAuditAction } from './audit';

export class InvalidTransitionError extends Error {
  override name = 'InvalidTransitionError';
  constructor(
    readonly instanceId: string,
    readonly from: InstanceStatus,
    readonly to: InstanceStatus,
  ) {
    super(`instance ${instanceId} cannot go from ${from} to ${to}`);
  }
}

interface Change {
  to: InstanceStatus;
  /** Where the change may start; include `to` itself when repeating it means something (parking again). */
  from: readonly InstanceStatus[];
  /** Audit action; null for moves that only an event describes. */
  audit: InstanceAuditAction | null;
  /** The events to append; a function when they depend on where the instance came from. */
  events: InstanceEventType[] | ((from: InstanceStatus) => InstanceEventType[]);
  actorUserId?: string | null;
  details?: Record<string, unknown>;
  eventData?: Omit<InstanceEventData, 'status' | 'hostname'>;
  set?: TransitionColumns;
}

/** Other columns a move sets with the status (failure block, desired state, placement); the status is always the move's own. */
export type TransitionColumns = Omit<Prisma.InstanceUncheckedUpdateInput, 'status'>;

/** The statuses in which a provision may still be under way. */
const PROVISIONING: readonly InstanceStatus[] = ['pending', 'scheduling', 'provisioning'];
/** Statuses whose guest exists and no workflow is at work. */
const SETTLED: readonly InstanceStatus[] = ['running', 'stopped', 'rescue'];
const OPERATING = Object.values(OPERATION_STATUS);
const ALL_BUT_DELETED: readonly InstanceStatus[] = [...PROVISIONING, ...SETTLED, ...OPERATING, 'failed', 'rollback_failed', 'rebuild_failed', 'lost'];

export type TransitionResult = 'changed' | 'already';

/** Whether a move from `status` (the row as locked) goes ahead: 'already' and refused moves change nothing. */
function judge(instanceId: string, change: Pick<Change, 'to' | 'from'>, status: InstanceStatus | undefined): 'move' | 'already' {
  if (status === undefined) throw new Error(`instance ${instanceId} does not exist`);
  if (status === change.to && !change.from.includes(change.to)) return 'already';
  if (!change.from.includes(status)) throw new InvalidTransitionError(instanceId, status, change.to);
  return 'move';
}

async function apply(tx: Tx, instanceId: string, change: Change): Promise<TransitionResult> {
  const [row] = await tx.$queryRaw<{ status: InstanceStatus; tenantId: string; hostname: string }[]>`
    SELECT status, "tenantId", hostname FROM instances WHERE id = ${instanceId} FOR UPDATE`;
  if (judge(instanceId, change, row?.status) === 'already' || !row) return 'already';
  await tx.instance.update({ where: { id: instanceId }, data: { ...change.set, status: change.to } });
  if (change.audit) {
    await recordAudit(tx, {
      action: change.audit,
      actorUserId: change.actorUserId ?? null,
      tenantId: row.tenantId,
      instanceId,
      details: { from: row.status, to: change.to, ...change.details } as Prisma.InputJsonValue,
    });
  }
  const events = typeof change.events === 'function' ? change.events(row.status) : change.events;
  await appendEvents(
    tx,
    { tenantId: row.tenantId, instanceId },
    events.map((type) => ({ type, data: { status: change.to, hostname: row.hostname, ...change.eventData } })),
  );
  return 'changed';
}

const FAILURE_CLEARED = { failureCode: null, failureMessage: null };

/** What a one-statement move saw: the status it locked, and whether it moved. */
interface Moved {
  from: InstanceStatus;
  moved: boolean;
}

/** A move of the hot path, written in one statement: its columns as SQL, its events known for each status it may start from. */
interface OneStatementChange<From extends InstanceStatus> {
  to: InstanceStatus;
  from: readonly From[];
  audit: InstanceAuditAction | null;
  actorUserId: string | null;
  events: Record<From, InstanceEventType[]>;
  /** `column = value, …` besides the status and updatedAt. */
  set?: Prisma.Sql;
}

/**
 * One statement (in the caller's transaction, or on the pool) for what `apply` does in five: the row locked and
 * judged, its columns set, the audit row, the events in order and their webhook deliveries (as
 * appendEvents and createWebhookDeliveries write them). Nothing is written unless it moves.
 */
async function applyInOneStatement<From extends InstanceStatus>(db: Queryable, instanceId: string, change: OneStatementChange<From>): Promise<TransitionResult> {
  const eventsByStatus = Object.fromEntries(change.from.map((status) => [status, change.events[status].map((type) => ({ id: newId('evt'), type }))]));
  // Every row it writes carries the application's clock in UTC, as Prisma writes them (a column's
  // database default would be the session's local time).
  const now = new Date();
  const signer = signedBy(change.actorUserId);
  const [row] = await runSql<Moved>(db, Prisma.sql`
    WITH prior AS (SELECT id, status, "tenantId", hostname FROM instances WHERE id = ${instanceId} FOR UPDATE),
    moved AS (
      UPDATE instances i SET status = CAST(${change.to} AS "InstanceStatus"), ${change.set ? Prisma.sql`${change.set},` : Prisma.empty} "updatedAt" = ${now}
      FROM prior WHERE i.id = prior.id AND prior.status::text IN (${Prisma.join(change.from)})
      RETURNING prior.status::text AS "from", prior."tenantId", prior.hostname),
    audit AS (
      INSERT INTO audit_events (at, "actorUserId", "actorTokenId", "actorSessionId", "actorAddress", "tenantId", "instanceId", action, details)
      SELECT ${now}, ${change.actorUserId}, ${signer.actorTokenId ?? null}, ${signer.actorSessionId ?? null}, ${signer.actorAddress ?? null}, "tenantId", ${instanceId}, ${change.audit}, jsonb_build_object('from', "from", 'to', ${change.to}::text)
      FROM moved WHERE ${change.audit}::text IS NOT NULL),
    event AS (
      INSERT INTO instance_events (id, "tenantId", "instanceId", type, data, "createdAt")
      SELECT e.id, moved."tenantId", ${instanceId}, e.type, jsonb_build_object('status', ${change.to}::text, 'hostname', moved.hostname), ${now}
      FROM moved, ROWS FROM (jsonb_to_recordset(${JSON.stringify(eventsByStatus)}::jsonb -> moved."from") AS (id text, type text)) WITH ORDINALITY AS e(id, type, n)
      ORDER BY e.n
      RETURNING id, seq, type, "tenantId"),
    deliveries AS (
      INSERT INTO webhook_deliveries (id, "endpointId", "eventId", "eventType", "eventSeq", "instanceId", "createdAt")
      -- A millisecond apart per event, so a list of deliveries (newest first) keeps the events' order.
      SELECT new_id('whd'), w.id, event.id, event.type, event.seq, ${instanceId},
        CAST(${new Date()} AS timestamp(3)) + (dense_rank() OVER (ORDER BY event.seq) - 1) * interval '1 millisecond'
      FROM event JOIN webhook_endpoints w ON ${endpointWantsEvent({ tenantId: Prisma.sql`event."tenantId"`, type: Prisma.sql`event.type` })}
      ON CONFLICT DO NOTHING)
    SELECT prior.status::text AS "from", EXISTS (SELECT 1 FROM moved) AS moved FROM prior`);
  if (judge(instanceId, change, row?.from) === 'already') return 'already';
  // The statement moves exactly when the judge lets it (the same statuses); anything else is a bug.
  if (!row?.moved) throw new Error(`instance ${instanceId} did not move from ${row?.from} to ${change.to}`);
  return 'changed';
}

/** The create request's reservations are committed: the instance waits for its workflow. */
export function scheduled(tx: Queryable, instanceId: string, o: { actorUserId: string; node: string; vmid: number; templateVmid: number | null }) {
  return applyInOneStatement(tx, instanceId, {
    to: 'scheduling',
    from: ['pending'],
    audit: 'instance.create',
    actorUserId: o.actorUserId,
    events: { pending: ['instance.created', 'instance.scheduled'] },
    set: Prisma.sql`node = ${o.node}, vmid = ${o.vmid}, "vmidSince" = ${new Date()}, "templateVmid" = ${o.templateVmid}::int`,
  });
}

/** The clone stage took the instance in hand (outside any transaction: the statement is one). */
export function provisioningStarted(db: Db, instanceId: string) {
  return applyInOneStatement(db, instanceId, {
    to: 'provisioning',
    from: ['pending', 'scheduling'],
    audit: null,
    actorUserId: null,
    events: { pending: [], scheduling: [] },
  });
}

/** A provision or a rebuild finished: the server is usable. */
export function becameRunning(tx: Queryable, instanceId: string) {
  return applyInOneStatement(tx, instanceId, {
    to: 'running',
    from: ['provisioning', 'rebuilding'],
    audit: 'instance.ready',
    actorUserId: null,
    events: { provisioning: ['instance.running'], rebuilding: ['instance.rebuilt'] },
    set: Prisma.sql`"desiredState" = 'running', "failureCode" = NULL, "failureMessage" = NULL`,
  });
}

export interface Failure {
  code: string;
  message: string;
}

/** A provision ended without a server: everything was released (or a stranger keeps the VMID). */
export function provisionFailed(tx: Tx, instanceId: string, failure: Failure, cause: Record<string, unknown>) {
  return apply(tx, instanceId, {
    to: 'failed',
    from: [...PROVISIONING, 'rollback_failed'],
    audit: 'instance.failed',
    events: ['instance.failed'],
    details: { code: failure.code, ...cause },
    eventData: { code: failure.code },
    set: { failureCode: failure.code, failureMessage: failure.message, failureCause: cause as Prisma.InputJsonValue },
  });
}

/** A destroy could not be confirmed: every reservation is kept until an operator decides. Parking again is recorded each time. */
export function parked(tx: Tx, instanceId: string, o: { message: string; reason: string; cause: Record<string, unknown> }) {
  return apply(tx, instanceId, {
    to: 'rollback_failed',
    from: [...PROVISIONING, 'deleting', 'rollback_failed'],
    audit: 'instance.rollback_parked',
    events: ['instance.failed'],
    details: { reason: o.reason, ...o.cause },
    eventData: { code: 'ROLLBACK_FAILED' },
    set: { failureCode: 'ROLLBACK_FAILED', failureMessage: o.message, failureCause: { ...o.cause, parkedReason: o.reason } as Prisma.InputJsonValue },
  });
}

const OPERATION_EVENT: Record<Operation, InstanceEventType> = {
  start: 'instance.starting',
  stop: 'instance.stopping',
  shutdown: 'instance.stopping',
  reboot: 'instance.rebooting',
  resize: 'instance.resizing',
  rebuild: 'instance.rebuilding',
  migrate: 'instance.migrating',
  delete: 'instance.deleting',
  snapshot: 'instance.snapshotting',
  snapshot_delete: 'instance.snapshotting',
  rollback: 'instance.rolling_back',
  backup: 'instance.backing_up',
  backup_delete: 'instance.backing_up',
  restore: 'instance.restoring',
  firewall: 'instance.updating_firewall',
  iso_mount: 'instance.boot_changing',
  iso_eject: 'instance.boot_changing',
  boot_order: 'instance.boot_changing',
  rescue_enter: 'instance.rescue_entering',
  rescue_leave: 'instance.rescue_leaving',
  throttle: 'instance.updating_network',
  unthrottle: 'instance.updating_network',
};

/** What a finished operation reports when it did what it was asked. */
const DONE_EVENT: Record<Operation, InstanceEventType> = {
  start: 'instance.running',
  stop: 'instance.stopped',
  shutdown: 'instance.stopped',
  reboot: 'instance.running',
  resize: 'instance.resized',
  rebuild: 'instance.rebuilt',
  migrate: 'instance.migrated',
  delete: 'instance.deleted',
  snapshot: 'snapshot.created',
  snapshot_delete: 'snapshot.deleted',
  rollback: 'instance.rolled_back',
  backup: 'backup.created',
  backup_delete: 'backup.deleted',
  restore: 'instance.restored',
  firewall: 'instance.firewall_updated',
  iso_mount: 'instance.boot_changed',
  iso_eject: 'instance.boot_changed',
  boot_order: 'instance.boot_changed',
  rescue_enter: 'instance.rescue_entered',
  rescue_leave: 'instance.rescue_left',
  throttle: 'instance.throttled',
  unthrottle: 'instance.unthrottled',
};

const allowedFrom = (operation: Operation) => ALL_BUT_DELETED.filter((status) => judgeOperation(status, operation) === 'allowed');

/** A customer or admin asked for an operation; its workflow owns the instance until it finishes. */
export function operationBegun(tx: Tx, instanceId: string, o: { operation: Operation; actorUserId: string | null; taskId: string; set?: TransitionColumns }) {
  return apply(tx, instanceId, {
    to: OPERATION_STATUS[o.operation],
    from: allowedFrom(o.operation),
    audit: `instance.${o.operation}`,
    events: [OPERATION_EVENT[o.operation]],
    actorUserId: o.actorUserId,
    details: { taskId: o.taskId },
    eventData: { operation: o.operation },
    set: o.set,
  });
}

/** An operation's workflow never started: the instance is put back as it was. */
export function operationNotStarted(tx: Tx, instanceId: string, o: { operation: Operation; previous: InstanceStatus; set?: TransitionColumns }) {
  return apply(tx, instanceId, {
    to: o.previous,
    from: [OPERATION_STATUS[o.operation]],
    audit: `instance.${o.operation}.not_started`,
    events: [],
    set: o.set,
  });
}

/** A delete arrived while the instance was still being made: its provision is cancelled. */
export function deleteDuringProvision(tx: Tx, instanceId: string, o: { actorUserId: string }) {
  return apply(tx, instanceId, {
    to: 'deleting',
    from: PROVISIONING,
    audit: 'instance.delete',
    events: ['instance.deleting'],
    actorUserId: o.actorUserId,
    eventData: { operation: 'delete' },
    set: { desiredState: 'deleted' },
  });
}

/**
 * An operation ended. `status` is what the provider shows now (running/stopped), or
 * `rebuild_failed` (the guest was destroyed on purpose and not remade), or `lost` (the guest vanished).
 */
export function operationFinished(
  tx: Tx,
  instanceId: string,
  o: {
    operation: Operation;
    status: InstanceStatus;
    failure: (Failure & { cause?: Record<string, unknown> }) | null;
    taskId: string;
    /** The snapshot or backup the operation was about, or a throttle's traffic figures. */
    subject?: Pick<InstanceEventData, 'snapshot' | 'backupId' | 'traffic'>;
  },
) {
  const ended = o.status === 'rebuild_failed' || o.status === 'lost';
  const event: InstanceEventType = o.status === 'lost' ? 'instance.lost' : o.failure || ended ? 'instance.failed' : DONE_EVENT[o.operation];
  return apply(tx, instanceId, {
    to: o.status,
    from: [OPERATION_STATUS[o.operation]],
    audit: `instance.${o.operation}.${o.failure ? 'failed' : 'succeeded'}`,
    events: [event],
    details: { taskId: o.taskId, code: o.failure?.code ?? null },
    eventData: { operation: o.operation, ...o.subject, ...(o.failure ? { code: o.failure.code } : {}) },
    set: ended
      ? {
          failureCode: o.failure?.code ?? null,
          failureMessage: o.failure?.message ?? null,
          ...(o.failure ? { failureCause: { ...o.failure.cause, taskId: o.taskId } as Prisma.InputJsonValue } : {}),
        }
      : FAILURE_CLEARED,
  });
}

/** The instance is gone for good; its row stays readable. */
export function deleted(tx: Tx, instanceId: string, details: Record<string, unknown>) {
  return apply(tx, instanceId, {
    to: 'deleted',
    from: ALL_BUT_DELETED,
    audit: 'instance.deleted',
    events: ['instance.deleted'],
    details,
    set: { desiredState: 'deleted', deletedAt: new Date(), ...FAILURE_CLEARED },
  });
}

/** The reconciler found our guest missing (or a stranger on its VMID): reservations are kept for an admin. */
export function lost(tx: Tx, instanceId: string, o: { message: string; cause: Record<string, unknown> }) {
  return apply(tx, instanceId, {
    to: 'lost',
    from: SETTLED,
    audit: 'instance.lost',
    events: ['instance.lost'],
    details: o.cause,
    eventData: { code: 'GUEST_LOST' },
    set: { failureCode: 'GUEST_LOST', failureMessage: o.message, failureCause: o.cause as Prisma.InputJsonValue },
  });
}

/**
 * The guest's power state changed outside the control plane (the Proxmox UI, or from inside the
 * guest), or a lost guest is back: the instance follows what the cluster shows.
 */
export function changedOutside(tx: Tx, instanceId: string, o: { from: 'running' | 'stopped' | 'lost'; to: 'running' | 'stopped'; details: Record<string, unknown> }) {
  return apply(tx, instanceId, {
    to: o.to,
    from: [o.from],
    audit: o.from === 'lost' ? 'instance.found_again' : 'instance.changed_outside',
    events: ['instance.changed_outside'],
    details: o.details,
    eventData: { previousStatus: o.from },
    set: { desiredState: o.to, ...FAILURE_CLEARED, ...(o.from === 'lost' ? { failureCause: Prisma.DbNull } : {}) },
  });
}

/**
 * The guest's CD-ROM drive or boot order changed outside the control plane (the Proxmox UI): the
 * instance records what the guest has now; its status stays.
 */
export function bootChangedOutside(tx: Tx, instanceId: string, o: { status: InstanceStatus; set: { isoId?: null; bootFirst?: 'disk' | 'cdrom' }; details: Record<string, unknown> }) {
  return apply(tx, instanceId, {
    to: o.status,
    from: [o.status],
    audit: 'instance.changed_outside',
    events: ['instance.changed_outside'],
    details: o.details,
    eventData: { previousStatus: o.status },
    set: o.set,
  });
}

/**
 * The guest was migrated outside the control plane (the Proxmox UI, HA): the instance follows it,
 * with its power state as the new node reports it. Its placement moves with db/lifecycle's
 * followGuest, in the same transaction.
 */
export function migratedOutside(tx: Tx, instanceId: string, o: { from: 'running' | 'stopped'; to: 'running' | 'stopped'; details: Record<string, unknown> }) {
  return apply(tx, instanceId, {
    to: o.to,
    from: [o.from],
    audit: 'instance.migrated_outside',
    events: ['instance.migrated'],
    details: o.details,
    eventData: { previousStatus: o.from },
    set: { desiredState: o.to },
  });
}

/** A delete was asked while the instance is parked: the parked destroy, once it ends, deletes it. */
export async function deletionDesired(tx: Tx, instanceId: string, o: { actorUserId: string; during: InstanceStatus; tenantId: string }): Promise<void> {
  await tx.instance.update({ where: { id: instanceId }, data: { desiredState: 'deleted' } });
  await recordAudit(tx, { action: 'instance.delete', actorUserId: o.actorUserId, tenantId: o.tenantId, instanceId, details: { during: o.during } });
}
