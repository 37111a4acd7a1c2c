/**
 * The one writer of audit rows. Every action in the trail is named here; the stored strings are
 * the ones queries and operators rely on, so they never change. The entry's action decides what
 * it must carry: an instance's action names the instance and its tenant, a tenant's its tenant,
 * a user's, token's or webhook endpoint's its owner's tenant (null for the platform's own).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Operation } from '../domain/instance-status';
import type { Prisma } from '../generated/prisma/client';
import type { WebhookEndpointStatus } from '../generated/prisma/enums';
import type { Db, Tx } from './client';

/** What happened to one instance: a status transition, an operation, or an operator's act on it. */
export type InstanceAuditAction =
  | 'instance.create'
  | 'instance.ready'
  | 'instance.failed'
  | 'instance.rollback_parked'
  | 'instance.deleted'
  | 'instance.lost'
  | 'instance.found_again'
  | 'instance.changed_outside'
  | 'instance.migrated_outside'
  | `instance.firewall_${'restored' | 'converged'}`
  | 'instance.reconcile_requested'
  | 'instance.throttled'
  | 'instance.unthrottled'
  | 'instance.throttle_restored'
  | 'instance.throttle_lifted'
  | 'instance.traffic_allowance_added'
  | `instance.${Operation}`
  | `instance.${Operation}.not_started`
  | `instance.${Operation}.${'succeeded' | 'failed'}`
  | 'credential.revealed'
  | 'rescue.password_revealed'
  | `grant.${'given' | 'changed' | 'revoked'}`
  | `console.${'opened' | 'closed'}`
  | 'rollback.retry_requested'
  | 'rollback.resolve_requested'
  | `${'rollback' | 'delete'}.resolved_by_operator`
  | 'task.workflow_started_late';

/** What happened to a tenant itself. */
export type TenantAuditAction =
  | 'tenant.created'
  | 'catalog.seeded'
  | `firewall_group.${'created' | 'updated' | 'deleted'}`
  | `project.${'created' | 'updated' | 'deleted' | 'member_set' | 'member_removed'}`;

/** What happened to a user, a token or a webhook endpoint: its tenant's, or the platform's (no tenant) for administrators and platform-wide endpoints. */
export type OwnedAuditAction =
  | 'user.created'
  | 'user.enabled'
  | 'user.disabled'
  | 'user.role_changed'
  | 'user.invited'
  | 'user.invite_accepted'
  | 'user.invite_revoked'
  | 'user.password_set'
  | 'user.password_changed'
  | 'session.started'
  | 'session.revoked'
  | 'token.issued'
  | 'token.revoked'
  | `ssh_key.${'added' | 'deleted'}`
  | 'webhook.created'
  | `webhook.${WebhookEndpointStatus}`
  | 'webhook.deleted';

/** What happened to the platform: catalog, clusters, orphan guests, VMIDs, keys. */
export type PlatformAuditAction =
  | `${'plan' | 'image' | 'connection' | 'location' | 'ip_pool'}.${'created' | 'updated'}`
  | `node.${'added' | 'updated' | 'removed'}`
  | 'image.refreshed'
  | 'image.deleted'
  | 'connection.vmid_range_changed'
  | `orphan.${'found' | 'destroy_requested' | 'forgotten' | 'destroyed' | 'destroy_failed' | 'claimed'}`
  | 'vmid.released'
  | `iso.${'created' | 'refreshed' | 'deleted'}`
  | 'secrets.rotated';


interface Common {
  /** Null when the system acted on its own (a workflow, the reconciler, a start-up task). */
  actorUserId?: string | null;
  details?: Prisma.InputJsonValue;
}

export type AuditEntry =
  | (Common & { action: InstanceAuditAction; tenantId: string; instanceId: string })
  | (Common & { action: TenantAuditAction; tenantId: string })
  | (Common & { action: OwnedAuditAction; tenantId: string | null })
  | (Common & { action: PlatformAuditAction });

/** The request in flight: how its caller signed it and where it came from. */
export interface RequestActor {
  /** The client's address as Express reads it (TRUST_PROXY). */
  address: string | null;
  userId?: string;
  tokenId?: string;
  sessionId?: string;
}

/**
 * The request each audit row is written under: every audited action of a request records how its
 * actor signed it and from where, without each of the many writers passing it along. Rows written
 * outside a request (workflows, the reconciler) carry none.
 */
const requestActor = new AsyncLocalStorage<RequestActor>();

/** Runs `fn` (the rest of a request) with `actor` as its audit rows' signer and address; completed by `identifyRequestActor` once known. */
export const withRequestActor = <T>(actor: RequestActor, fn: () => T): T => requestActor.run(actor, fn);

/** Names who signed the request in flight, once authentication found out. */
export function identifyRequestActor(who: { userId: string; tokenId?: string | null; sessionId?: string | null }): void {
  const actor = requestActor.getStore();
  if (!actor) return;
  actor.userId = who.userId;
  if (who.sessionId) actor.sessionId = who.sessionId;
  else if (who.tokenId) actor.tokenId = who.tokenId;
}

/**
 * The signer and address of the request an entry is written in. Only an entry of the request's
 * own actor carries them (or, before anyone signed in, of the user the request made: an accepted
 * invitation's); another user's entry it causes (their console closed by a revoked grant) does not.
 */
export function signedBy(actorUserId: string | null): { actorTokenId?: string; actorSessionId?: string; actorAddress?: string | null } {
  const actor = requestActor.getStore();
  if (!actor || actorUserId === null || (actor.userId && actor.userId !== actorUserId)) return {};
  return { actorTokenId: actor.tokenId, actorSessionId: actor.sessionId, actorAddress: actor.address };
}

/**
 * Appends one row to the audit trail. Returned unawaited as Prisma's own promise, so it can also
 * be one statement of a `$transaction([...])` batch.
 */
export function recordAudit(db: Db | Tx, entry: AuditEntry): Prisma.PrismaPromise<unknown> {
  const actorUserId = entry.actorUserId ?? null;
  return db.auditEvent.create({
    data: {
      action: entry.action,
      actorUserId,
      ...signedBy(actorUserId),
      tenantId: 'tenantId' in entry ? entry.tenantId : null,
      instanceId: 'instanceId' in entry ? entry.instanceId : null,
      details: entry.details,
    },
  });
}
