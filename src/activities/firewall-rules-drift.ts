import { Context } from '@temporalio/activity';
import { recordAudit } from '../db/audit';
import { appendEvents } from '../db/events';
import { firewallApplied, wantedFirewall } from '../db/firewall';
import { recordSettledTask } from '../db/tasks';
import { rootFailureType } from '../domain/failure-types';
import { nextRuleStep } from '../domain/firewall-rules';
import type { Prisma } from '../generated/prisma/client';
import { ProxmoxError, type ProxmoxClient } from '../proxmox';
import { newId } from '../security/ids';
import { heartbeat } from './context';
import type { ActivityDeps } from './deps';
import { fail, FailureType } from './failures';
import { convergeFirewall } from './firewall-rules';
import { RECONCILE_TASK_TYPE, type ReconcileInput } from './reconcile';

export interface FirewallDriftResult {
  checked: number;
  restored: number;
  /** Guests whose rules could not be read or written this time; looked at again on a later pass. */
  undecided: number;
}

/** A refused privilege ends the pass with its own failure type, as the guests' check does: retrying cannot grant it. */
function permissionDenied(error: unknown, vmid: number): unknown {
  return error instanceof ProxmoxError && error.isPermissionDenied ? fail(FailureType.ProviderPermissionDenied, error.message, { kind: 'firewall', vmid }) : error;
}

/** Whether the guest holds what it should: no rule step left, and the policy, outbound and switch as we set them. */
async function holdsWanted(client: ProxmoxClient, node: string, vmid: number, wanted: NonNullable<Awaited<ReturnType<typeof wantedFirewall>>>): Promise<boolean> {
  const [rules, options] = await Promise.all([client.firewallRules.list(node, vmid), client.firewall.guestOptions(node, vmid)]);
  return nextRuleStep(rules, wanted.rules) === null && options.policy_in === wanted.policyIn && options.policy_out === 'ACCEPT' && Number(options.enable ?? 0) === 1;
}

/**
 * The customer firewall rules of a connection's servers against their guests: a bounded share per
 * pass (FIREWALL_CHECKS_PER_PASS, the longest unchecked first), two reads each. Rules or policy
 * changed behind our back are written back (`instance.firewall_restored`, an audit row with what
 * the guest held before and after, a line in the server's step thread). Servers with an operation
 * under way are left to it.
 * Converges on retry: the comparison is read again, and the restore is convergeFirewall's.
 */
export function createReconcileFirewallActivity(deps: ActivityDeps) {
  return async function reconcileFirewallRules({ connectionId, instanceId }: ReconcileInput): Promise<FirewallDriftResult> {
    const result: FirewallDriftResult = { checked: 0, restored: 0, undecided: 0 };
    const rows = await deps.db.instanceFirewall.findMany({
      where: { instance: { connectionId, status: { in: ['running', 'stopped'] }, vmid: { not: null }, node: { not: null }, activeTask: null }, ...(instanceId ? { instanceId } : {}) },
      orderBy: [{ checkedAt: { sort: 'asc', nulls: 'first' } }, { instanceId: 'asc' }],
      take: deps.config.FIREWALL_CHECKS_PER_PASS,
      include: { instance: { select: { id: true, tenantId: true, hostname: true, status: true, vmid: true, node: true, connection: true } } },
    });
    let refused: unknown;
    for (const row of rows) {
      const { instance } = row;
      const node = instance.node as string;
      const vmid = instance.vmid as number;
      const client = deps.proxmox(instance.connection);
      try {
        heartbeat();
        const wanted = await wantedFirewall(deps.db, instance.id);
        if (!wanted) continue;
        result.checked++;
        if (!(await holdsWanted(client, node, vmid, wanted).catch((e: unknown) => Promise.reject(permissionDenied(e, vmid))))) {
          // An operation that began since is left to do its own writing.
          if (await deps.db.task.findUnique({ where: { activeInstanceId: instance.id }, select: { id: true } })) continue;
          const { before, writes } = await convergeFirewall({ client, node, vmid }, wanted);
          if (writes > 0) {
            await recordRestore(deps, instance, { before, after: { rules: wanted.rules, policyIn: wanted.policyIn }, writes });
            result.restored++;
          }
          await firewallApplied(deps.db, instance.id, wanted.generation);
        }
        await deps.db.instanceFirewall.updateMany({ where: { instanceId: instance.id }, data: { checkedAt: new Date() } });
      } catch (error) {
        deps.logger.warn({ err: error, instanceId: instance.id }, 'could not check the firewall rules of an instance this time');
        result.undecided++;
        const denied = permissionDenied(error, vmid);
        if (rootFailureType(denied) === FailureType.ProviderPermissionDenied) refused ??= denied;
      }
    }
    if (refused) throw refused;
    return result;
  };
}

async function recordRestore(deps: ActivityDeps, instance: { id: string; tenantId: string; hostname: string; status: string }, details: { before: unknown; after: unknown; writes: number }): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    await appendEvents(tx, { tenantId: instance.tenantId, instanceId: instance.id }, [{ type: 'instance.firewall_restored', data: { status: instance.status, hostname: instance.hostname } }]);
    await recordAudit(tx, { action: 'instance.firewall_restored', actorUserId: null, tenantId: instance.tenantId, instanceId: instance.id, details: details as Prisma.InputJsonValue });
    await recordSettledTask(
      tx,
      { id: newId('task'), instanceId: instance.id, tenantId: instance.tenantId, type: RECONCILE_TASK_TYPE, workflowId: Context.current().info.workflowExecution?.workflowId ?? 'reconcile' },
      { step: 'reconcile > firewall restored', status: 'warning', message: "The server's firewall rules were changed outside this service; they are as you set them again." },
    );
  });
}
