import type { Db } from '../db/client';
import { notFound } from '../domain/errors';
import type { Principal } from './auth';
import { instanceInclude, type InstanceRow } from './views';

/** Another tenant's server is NOT_FOUND, never FORBIDDEN. */
export function tenantScope(who: Pick<Principal, 'userId' | 'role' | 'tenantId'>): { tenantId?: string } {
  return who.role === 'admin' ? {} : { tenantId: who.tenantId ?? '-' };
}

export async function findInstance(db: Db, who: Pick<Principal, 'userId' | 'role' | 'tenantId'>, id: string): Promise<InstanceRow> {
  const row = await db.instance.findFirst({ where: { id, ...tenantScope(who) }, include: instanceInclude });
  if (!row) throw notFound('server');
  return row;
}
