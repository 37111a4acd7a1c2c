import { recordAudit } from '../db/audit';
import { AppError } from '../domain/errors';
import { FailureType, rootFailureType } from '../domain/failure-types';
import type { Prisma } from '../generated/prisma/client';
import { startInstanceReconcile } from '../temporal/starts';
import type { ReconcileSummary } from '../workflows/reconcile';
import type { ServiceDeps } from './deps';
import { findInstance } from './instances';
import { OPERATOR, type Principal } from './principal';

/** How long an operator's request waits for the reconcile of one server. */
const RECONCILE_DEADLINE_MS = 60_000;

/**
 * Reconciles one server with Proxmox now, as a workflow (Reconcile, joined when one runs; the
 * request never calls Proxmox itself), waits for its summary and audits it.
 */
export async function reconcileInstance(deps: Pick<ServiceDeps, 'db' | 'temporal' | 'config' | 'logger'>, who: Principal, id: string): Promise<ReconcileSummary> {
  const instance = await findInstance(deps, OPERATOR, id);
  let summary: ReconcileSummary;
  try {
    // Starting gets a short deadline of its own, so an unreachable Temporal is told at once.
    const handle = await startInstanceReconcile(deps.temporal, deps.config, { id, connectionId: instance.connectionId });
    summary = await deps.temporal.connection.withDeadline(Date.now() + RECONCILE_DEADLINE_MS, () => handle.result());
  } catch (error) {
    deps.logger.warn({ err: error, instanceId: id }, 'reconcile of one instance did not complete');
    if (rootFailureType(error) === FailureType.ProviderPermissionDenied) {
      throw new AppError('PROVIDER_PERMISSION_DENIED', "Proxmox VE refused the connection's API token a privilege the reconciler needs; see the minimal role in docs/security.md.");
    }
    throw new AppError('PROVIDER_UNAVAILABLE', 'The server could not be reconciled right now; the periodic reconciler will look at it again.');
  }
  await recordAudit(deps.db, { action: 'instance.reconcile_requested', actorUserId: who.userId, tenantId: instance.tenantId, instanceId: id, details: summary.guests as unknown as Prisma.InputJsonValue });
  return summary;
}
