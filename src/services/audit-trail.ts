/**
 * The audit trail as a tenant owner reads it: who did what to which server or resource of their
 * tenant, and when. Only facts named in SHOWN_DETAILS leave the database: details may hold where
 * a server lives (operators' business) and never anything secret.
 */
import type { AuditEvent, Prisma } from '../generated/prisma/client';
export { identifyRequestActor, withRequestActor } from '../db/audit';
import type { ServiceDeps } from './deps';
import type { Principal } from './principal';

export interface AuditQuery {
  limit: number;
  /** The `id` of the last entry of the previous page. */
  cursor?: string;
  userId?: string;
  instanceId?: string;
  action?: string;
  from?: string;
  to?: string;
  /** Operators only: one tenant's entries (a tenant owner always reads their own tenant's). */
  tenantId?: string;
}

/** The details an entry may show: ids, roles, permissions, reasons and times, none of them secret or the provider's. */
const SHOWN_DETAILS = new Set(['userId', 'role', 'tenantRole', 'permissions', 'type', 'seconds', 'reason', 'expiresAt', 'inviteId', 'planId', 'imageId', 'backupId', 'code', 'status', 'keepBackups', 'scopes']);

/** A row with its actor's email and, when it came with an API token, the token's name. */
export type AuditRow = AuditEvent & { actorEmail: string | null; actorTokenName: string | null };

/** An entry's details, cut to what SHOWN_DETAILS names. */
export function shownDetails(details: Prisma.JsonValue): Record<string, unknown> {
  if (!details || typeof details !== 'object' || Array.isArray(details)) return {};
  return Object.fromEntries(Object.entries(details).filter(([key]) => SHOWN_DETAILS.has(key)));
}

/** One page of the caller's tenant's audit trail (an operator's: every tenant's, or one), newest first; `nextCursor` when more remain. */
export async function listAudit(deps: Pick<ServiceDeps, 'db'>, who: Principal, query: AuditQuery): Promise<{ entries: AuditRow[]; nextCursor?: string }> {
  const tenantId = who.role === 'admin' ? query.tenantId : (who.tenantId ?? '-');
  const rows = await deps.db.auditEvent.findMany({
    where: {
      ...(tenantId ? { tenantId } : {}),
      ...(query.userId ? { actorUserId: query.userId } : {}),
      ...(query.instanceId ? { instanceId: query.instanceId } : {}),
      ...(query.action ? { action: query.action } : {}),
      ...(query.from || query.to ? { at: { ...(query.from ? { gte: new Date(query.from) } : {}), ...(query.to ? { lt: new Date(query.to) } : {}) } } : {}),
      ...(query.cursor ? { id: { lt: BigInt(query.cursor) } } : {}),
    },
    orderBy: { id: 'desc' },
    take: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const actorIds = [...new Set(page.map((row) => row.actorUserId).filter((id): id is string => id !== null))];
  const tokenIds = [...new Set(page.map((row) => row.actorTokenId).filter((id): id is string => id !== null))];
  const [users, tokens] = await Promise.all([
    deps.db.user.findMany({ where: { id: { in: actorIds } }, select: { id: true, email: true, tenantId: true } }),
    deps.db.apiToken.findMany({ where: { id: { in: tokenIds } }, select: { id: true, name: true } }),
  ]);
  const actors = new Map(users.map((user) => [user.id, user.email]));
  const tokenNames = new Map(tokens.map((token) => [token.id, token.name]));
  // An operator's token, session and address are the platform's business, not the tenant's.
  const operators = new Set(users.filter((user) => user.tenantId === null).map((user) => user.id));
  const shown = (row: AuditEvent): AuditEvent =>
    who.role !== 'admin' && row.actorUserId && operators.has(row.actorUserId) ? { ...row, actorTokenId: null, actorSessionId: null, actorAddress: null } : row;
  const entries = page.map(shown).map((row) => ({
    ...row,
    actorEmail: row.actorUserId ? (actors.get(row.actorUserId) ?? null) : null,
    actorTokenName: row.actorTokenId ? (tokenNames.get(row.actorTokenId) ?? null) : null,
  }));
  const last = page[page.length - 1];
  return rows.length > query.limit && last ? { entries, nextCursor: String(last.id) } : { entries };
}
