import { recordAudit } from '../db/audit';
import { appendEvents } from '../db/events';
import type { Prisma } from '../generated/prisma/client';
import { recordSettledTask } from '../db/tasks';
import { ProxmoxError, type ProxmoxClient } from '../proxmox';
import { newId } from '../security/ids';
import { restoreAntiSpoofing } from './anti-spoofing';
import type { ActivityDeps } from './deps';
import { fail, FailureType } from './failures';
import { currentWorkflowId, RECONCILE_TASK_TYPE, type ReconcileInput } from './reconcile';

/** A guest whose firewall a reconcile pass checks. */
export interface FirewallDriftGuest {
  instanceId: string;
  tenantId: string;
  node: string;
  vmid: number;
  addresses: { address: string; family: number }[];
}

/** What one check found changed behind our back and wrote back: what the guest held, and holds now. */
export interface FirewallDrift {
  /** The part of the firewall, e.g. `anti-spoofing`. */
  check: string;
  before: unknown;
  after: unknown;
}

/**
 * One part of a guest's firewall the reconciler keeps true: it reads the part (what it should be
 * may come from the database), writes back what changed, and says what it found (null: nothing had changed). It converges on retry by reading
 * before it writes. A refused privilege is thrown as the ProxmoxError it is.
 */
export type FirewallDriftCheck = (deps: ActivityDeps, client: ProxmoxClient, guest: FirewallDriftGuest) => Promise<FirewallDrift | null>;

const antiSpoofingCheck: FirewallDriftCheck = async (_deps, client, guest) => {
  const found = await restoreAntiSpoofing(client, guest);
  return found && { check: 'anti-spoofing', ...found };
};

/** Every check a pass runs on each guest it looks at, in order; a new part of the firewall adds its own here. */
export const FIREWALL_DRIFT_CHECKS: FirewallDriftCheck[] = [antiSpoofingCheck];

export interface FirewallsResult {
  checked: number;
  /** Guests whose firewall had changed behind our back and was written back. */
  restored: number;
  /** Guests from before anti-spoofing existed, brought to it for the first time. */
  converged: number;
  /** Guests whose firewall could not be read this time; looked at again first on the next pass. */
  undecided: number;
}

/**
 * The firewalls of a bounded share of a connection's guests (FIREWALL_CHECKS_PER_PASS, those
 * checked longest ago first, never checked first): each of FIREWALL_DRIFT_CHECKS reads its part
 * and writes back what changed. A guest built before anti-spoofing existed gets it here, once
 * (audited `instance.firewall_converged`); a change behind our back is said in an
 * `instance.firewall_restored` event, an audit row with before and after, and the step thread.
 * A refused privilege fails the pass (PROVIDER_PERMISSION_DENIED) once the other guests were looked at.
 * Converges on retry: each check reads before it writes; a guest is marked checked only after its checks.
 */
export function createReconcileFirewallsActivity(deps: ActivityDeps) {
  return async function reconcileFirewalls({ connectionId, instanceId }: ReconcileInput): Promise<FirewallsResult> {
    const result: FirewallsResult = { checked: 0, restored: 0, converged: 0, undecided: 0 };
    const instances = await deps.db.instance.findMany({
      where: { connectionId, status: { in: ['running', 'stopped'] }, vmid: { not: null }, node: { not: null }, activeTask: null, ...(instanceId ? { id: instanceId } : {}) },
      orderBy: { firewallCheckedAt: { sort: 'asc', nulls: 'first' } },
      take: deps.config.FIREWALL_CHECKS_PER_PASS,
      select: { id: true, tenantId: true, status: true, node: true, vmid: true, firewallCheckedAt: true, addresses: { select: { address: true, family: true } } },
    });
    if (instances.length === 0) return result;
    const connection = await deps.db.proxmoxConnection.findUniqueOrThrow({ where: { id: connectionId } });
    const client = deps.proxmox(connection);
    let refused: unknown;
    for (const instance of instances) {
      const guest: FirewallDriftGuest = { instanceId: instance.id, tenantId: instance.tenantId, node: instance.node as string, vmid: instance.vmid as number, addresses: instance.addresses };
      try {
        const drifts: FirewallDrift[] = [];
        for (const check of FIREWALL_DRIFT_CHECKS) {
          const drift = await check(deps, client, guest);
          if (drift) drifts.push(drift);
        }
        const firstTime = instance.firewallCheckedAt === null;
        await recordCheck(deps, instance, drifts, firstTime);
        result.checked++;
        if (drifts.length > 0) result[firstTime ? 'converged' : 'restored']++;
      } catch (error) {
        deps.logger.warn({ err: error, instanceId: instance.id }, 'could not check the firewall of an instance this time');
        result.undecided++;
        if (error instanceof ProxmoxError && error.isPermissionDenied) {
          refused ??= fail(FailureType.ProviderPermissionDenied, error.message, { kind: 'firewall', node: guest.node, vmid: guest.vmid });
        }
      }
    }
    if (refused) throw refused;
    return result;
  };
}

/** Marks the guest checked, and says what was written back: once for a server older than anti-spoofing, as drift otherwise. */
async function recordCheck(deps: ActivityDeps, instance: { id: string; tenantId: string; status: string }, drifts: FirewallDrift[], firstTime: boolean): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    await tx.instance.update({ where: { id: instance.id }, data: { firewallCheckedAt: new Date() } });
    if (drifts.length === 0) return;
    const details = { drifts: drifts.map((d) => ({ check: d.check, before: d.before, after: d.after })) } as Prisma.InputJsonValue;
    if (firstTime) {
      await recordAudit(tx, { action: 'instance.firewall_converged', tenantId: instance.tenantId, instanceId: instance.id, details });
      return;
    }
    await recordAudit(tx, { action: 'instance.firewall_restored', tenantId: instance.tenantId, instanceId: instance.id, details });
    await appendEvents(tx, { tenantId: instance.tenantId, instanceId: instance.id }, [{ type: 'instance.firewall_restored', data: { status: instance.status } }]);
    const message = `The server's firewall (${drifts.map((d) => d.check).join(', ')}) was changed outside this service and has been set back.`;
    await recordSettledTask(
      tx,
      { id: newId('task'), instanceId: instance.id, tenantId: instance.tenantId, type: RECONCILE_TASK_TYPE, workflowId: currentWorkflowId() },
      { step: 'reconcile > firewall restored', status: 'warning', message },
    );
  });
}
