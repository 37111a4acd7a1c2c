import { firewallApplied, wantedFirewall, type WantedFirewall } from '../db/firewall';
import { nextRuleStep, ruleKey, type HeldRule } from '../domain/firewall-rules';
import { isStaleDigest, type GuestFirewallRule, type ProxmoxClient } from '../proxmox';
import { heartbeat, type InstanceRef } from './context';
import type { ActivityDeps } from './deps';
import { fromProxmoxError } from './failures';
import { guestOf } from './lifecycle';
import { say } from './steps';

/** A guest and where it is. */
export interface FirewallTarget {
  client: ProxmoxClient;
  node: string;
  vmid: number;
}

/** What one convergence found and did. */
export interface FirewallConvergence {
  /** The rules and options Proxmox held before the first write. */
  before: { rules: HeldRule[]; policyIn?: string; enable?: number };
  /** How many writes it took (0: Proxmox held what we want). */
  writes: number;
}

/** Each write fixes a position or removes a rule; a list that keeps changing under us is left to the next attempt. */
const MAX_WRITES_PER_RULE = 4;

const heldRule = ({ pos: _pos, digest: _digest, ...rule }: GuestFirewallRule): HeldRule => rule;

/**
 * Makes the guest's rules exactly `wanted.rules` (ours first, in order; rules without our marker
 * kept after them), then its inbound policy `wanted.policyIn`, outbound open and its firewall on.
 * Rules go first, so a policy turning to DROP never finds the rules that let traffic in missing.
 * Converges on retry: every write is decided on the list just read and carries that list's
 * digest, so Proxmox refuses one made against a list that changed since (it is then read again);
 * a write whose answer was lost shows in the next read and is not made twice.
 */
export async function convergeFirewall({ client, node, vmid }: FirewallTarget, wanted: Pick<WantedFirewall, 'rules' | 'policyIn'>): Promise<FirewallConvergence> {
  const asked = (error: unknown) => fromProxmoxError(error, { kind: 'firewall', node, vmid });
  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw asked(error);
    }
  };
  const rules = client.firewallRules;
  let writes = 0;
  let before: FirewallConvergence['before'] | undefined;
  const limit = (wanted.rules.length + 8) * MAX_WRITES_PER_RULE;
  for (;;) {
    heartbeat();
    const held = await call(() => rules.list(node, vmid));
    before ??= { rules: held.map(heldRule) };
    const step = nextRuleStep(held.map(heldRule), wanted.rules);
    if (!step) break;
    // Retried: the next attempt starts again from what Proxmox holds.
    if (writes >= limit) throw new Error(`the firewall rules of guest ${vmid} kept changing while they were written`);
    const digest = held[0]?.digest;
    writes++;
    try {
      if (step.op === 'delete') await rules.delete(node, vmid, step.pos, digest);
      else if (step.op === 'move') await rules.move(node, vmid, step.from, step.to, digest);
      else {
        await rules.create(node, vmid, step.rule, digest);
        // Proxmox puts a new rule first: it moves to its place, before the rule that held it.
        if (step.at > 0) {
          const now = await rules.list(node, vmid);
          if (now[0] && ruleKey(heldRule(now[0])) === ruleKey(step.rule)) await rules.move(node, vmid, 0, step.at + 1, now[0].digest);
        }
      }
    } catch (error) {
      // Someone changed the list since it was read: read it again.
      if (!isStaleDigest(error)) throw asked(error);
    }
  }
  const options = await call(() => client.firewall.guestOptions(node, vmid));
  before.policyIn = options.policy_in;
  before.enable = options.enable;
  if (options.policy_in !== wanted.policyIn || options.policy_out !== 'ACCEPT' || Number(options.enable ?? 0) !== 1) {
    writes++;
    await call(() => client.firewall.setGuestOptions(node, vmid, { enable: 1, policy_in: wanted.policyIn, policy_out: 'ACCEPT', ...(options.digest ? { digest: options.digest } : {}) }));
  }
  return { before, writes };
}

/**
 * firewall: the guest's inbound rules and policy made what its server's firewall asks for now
 * (its own list with its groups' rules in place), then that generation recorded as applied. A
 * server whose customer never set its firewall has nothing of ours to write (after a rebuild or a
 * restore, which call this too).
 * Converges on retry: convergeFirewall reads before every write, so a retry after a crash
 * finishes the list from where it stands, with nothing duplicated.
 */
export function createApplyFirewallActivity(deps: ActivityDeps) {
  return async function applyFirewallRules(ref: InstanceRef): Promise<void> {
    const guest = await guestOf(deps, ref, 'firewall');
    const wanted = await wantedFirewall(deps.db, ref.instanceId);
    if (!wanted) return;
    await say(deps, ref.taskId, 'firewall', 'writing the rules', 'processing', `Writing ${wanted.rules.length} firewall rules and the inbound policy.`);
    const { writes } = await convergeFirewall(guest, wanted);
    await firewallApplied(deps.db, ref.instanceId, wanted.generation);
    await say(deps, ref.taskId, 'firewall', 'writing the rules', 'success', writes === 0 ? 'The firewall already held these rules.' : `The firewall holds the ${wanted.rules.length} rules (${writes} changes).`);
  };
}
