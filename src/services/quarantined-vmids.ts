import { recordAudit } from '../db/audit';
import { AppError } from '../domain/errors';
import type { VmidReservation } from '../generated/prisma/client';
import type { ServiceDeps } from './deps';
import type { PageArgs } from '../db/pages';
import type { Principal } from './principal';

type Deps = Pick<ServiceDeps, 'db'>;

/** One page of the VMIDs of our ranges that hold guests we did not create, newest first. */
export function listQuarantinedVmids(deps: Deps, page: PageArgs, filters: { connectionId?: string }): Promise<VmidReservation[]> {
  return deps.db.vmidReservation.findMany({ ...page, where: { ...page.where, state: 'quarantined', ...(filters.connectionId ? { connectionId: filters.connectionId } : {}) } });
}

/**
 * Returns a quarantined VMID to circulation. Proxmox is not touched: if the stranger is still
 * there, the next clone that meets it quarantines it again. Answers the row as it was.
 */
export function releaseQuarantinedVmid(deps: Deps, who: Principal, id: string): Promise<VmidReservation> {
  return deps.db.$transaction(async (tx) => {
    const row = await tx.vmidReservation.findFirst({ where: { id, state: 'quarantined' } });
    if (!row) throw new AppError('NOT_FOUND', 'No quarantined VMID has this id.');
    await tx.vmidReservation.update({ where: { id }, data: { state: 'free', strangerNode: null, strangerName: null, quarantinedFor: null, quarantinedAt: null } });
    await recordAudit(tx, { action: 'vmid.released', actorUserId: who.userId, details: { connectionId: row.connectionId, vmid: row.vmid } });
    return row;
  });
}
