import type { InstanceEventType } from '../domain/events';
import type { InstanceEvent } from '../generated/prisma/client';
import type { ServiceDeps } from './deps';
import { readableServers } from './authorization';
import type { Principal } from './principal';

export interface EventQuery {
  limit: number;
  /** The `seq` of the last event of the previous page. */
  cursor?: string;
  type?: InstanceEventType;
  instanceId?: string;
  /** Operators only: one tenant's events (a customer always reads their own tenant's). */
  tenantId?: string;
}

/**
 * One page of the instance event feed, in the order the events were appended (`seq`), newest
 * first; `nextCursor` when more remain.
 */
export async function listEvents(deps: Pick<ServiceDeps, 'db'>, who: Principal, query: EventQuery): Promise<{ events: InstanceEvent[]; nextCursor?: string }> {
  const tenantId = who.tenantId ?? query.tenantId;
  // A member, or a token limited to a project, reads what happened to the servers they may read only.
  const readable = who.tenantRole === 'member' || who.tokenProjectId ? (await deps.db.instance.findMany({ where: readableServers(who), select: { id: true } })).map((row) => row.id) : undefined;
  const rows = await deps.db.instanceEvent.findMany({
    where: {
      ...(tenantId ? { tenantId } : {}),
      ...(query.type ? { type: query.type } : {}),
      ...(query.instanceId ? { instanceId: query.instanceId } : {}),
      ...(readable ? { AND: [{ instanceId: { in: readable } }] } : {}),
      ...(query.cursor ? { seq: { lt: BigInt(query.cursor) } } : {}),
    },
    orderBy: { seq: 'desc' },
    take: query.limit + 1,
  });
  const events = rows.slice(0, query.limit);
  const last = events[events.length - 1];
  return rows.length > query.limit && last ? { events, nextCursor: String(last.seq) } : { events };
}
