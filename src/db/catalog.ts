import type { InstanceStatus } from '../generated/prisma/enums';
import type { Tx } from './client';

/** What every kind of catalog row (plans, images, connections, locations, IP pools) shares. */

/** Rows archived (true), offered (false), or both (undefined), as a Prisma filter. */
export const archivedFilter = (archived: boolean | undefined) => (archived === undefined ? {} : { archivedAt: archived ? { not: null } : null });

/** Servers that still hold what they were made with (not deleted, not failed). */
const LIVE_INSTANCE = { status: { notIn: ['deleted', 'failed'] as InstanceStatus[] } };

/** How many such servers use a plan, or live on a node of a connection. */
export function countLiveServers(tx: Tx, where: { planId: string } | { connectionId: string; node: string }): Promise<number> {
  return tx.instance.count({ where: { ...where, ...LIVE_INSTANCE } });
}
