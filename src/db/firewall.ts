/**
 * The rows of customer firewalls: a server's list (with its revision and generation) and the
 * tenant's groups, read as the compiled rules the guest should hold.
 */
import { compileFirewall, type FirewallEntry, type FirewallRule, type FirewallSpec, type ProxmoxRule } from '../domain/firewall-rules';
import type { Db, Tx } from './client';

/** A server that never set its firewall: inbound open, no rules (as before firewalls existed). */
export const OPEN_FIREWALL: FirewallSpec = { inboundPolicy: 'accept', rules: [] };

export const specOf = (row: { inboundPolicy: string; rules: unknown }): FirewallSpec => ({ inboundPolicy: row.inboundPolicy === 'drop' ? 'drop' : 'accept', rules: row.rules as FirewallEntry[] });

/** The rules of the tenant's groups among `ids`, by id. */
export async function groupRules(db: Db | Tx, tenantId: string, ids: string[]): Promise<Map<string, FirewallRule[]>> {
  if (ids.length === 0) return new Map();
  const rows = await db.firewallGroup.findMany({ where: { tenantId, id: { in: ids } }, select: { id: true, rules: true } });
  return new Map(rows.map((row) => [row.id, row.rules as unknown as FirewallRule[]]));
}

export interface WantedFirewall {
  policyIn: 'ACCEPT' | 'DROP';
  rules: ProxmoxRule[];
  /** The generation these rules are of (0: the server never set its firewall). */
  generation: number;
}

/** What the server's guest should hold now; null for a server whose firewall was never set (nothing of ours to hold). */
export async function wantedFirewall(db: Db, instanceId: string): Promise<WantedFirewall | null> {
  const row = await db.instanceFirewall.findUnique({ where: { instanceId }, include: { instance: { select: { tenantId: true } } } });
  if (!row) return null;
  const spec = specOf(row);
  const groups = await groupRules(db, row.instance.tenantId, row.groupIds);
  return { policyIn: spec.inboundPolicy === 'drop' ? 'DROP' : 'ACCEPT', rules: compileFirewall(spec, groups), generation: row.generation };
}

/** The guest holds the rules of `generation` (or a later one already recorded stays). */
export async function firewallApplied(db: Db, instanceId: string, generation: number): Promise<void> {
  await db.instanceFirewall.updateMany({ where: { instanceId, OR: [{ appliedGeneration: null }, { appliedGeneration: { lt: generation } }] }, data: { appliedGeneration: generation } });
}
