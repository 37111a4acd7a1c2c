import { Router } from 'express';
import type { z } from 'zod';
import { AppError } from '../../domain/errors';
import type { VmidReservation } from '../../generated/prisma/client';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { listHandler, pathParam, send } from '../http';
import { registerRoute } from '../openapi';
import { quarantinedVmidQuerySchema, quarantinedVmidSchema } from '../schemas/vmids';
import { recordAudit } from '../../db/audit';

const tags = ['admin: VMIDs'];
registerRoute({
  method: 'get',
  path: '/v1/admin/quarantined-vmids',
  summary: 'List VMIDs of our ranges that hold guests we did not create',
  tags,
  admin: true,
  request: { query: quarantinedVmidQuerySchema },
  response: quarantinedVmidSchema,
  list: true,
});
registerRoute({
  method: 'post',
  path: '/v1/admin/quarantined-vmids/:id/release',
  summary: 'Return a quarantined VMID to circulation (its stranger is gone or was moved)',
  tags,
  admin: true,
  response: quarantinedVmidSchema,
  errors: ['NOT_FOUND'],
});

const quarantinedVmidView = (row: VmidReservation): z.infer<typeof quarantinedVmidSchema> => ({
  id: row.id,
  connectionId: row.connectionId,
  vmid: row.vmid,
  strangerNode: row.strangerNode,
  strangerName: row.strangerName,
  foundByInstanceId: row.quarantinedFor,
  quarantinedAt: row.quarantinedAt?.toISOString() ?? null,
});

/**
 * Quarantined VMIDs: the clone stage sets them aside when a guest we did not create sits on them.
 * Releasing one does not touch Proxmox: if the stranger is still there, the next clone that meets
 * it quarantines it again.
 */
export function adminVmidsRouter(deps: ApiDeps): Router {
  const router = Router();

  router.get(
    '/quarantined-vmids',
    listHandler(
      (page, query) => deps.db.vmidReservation.findMany({ ...page, where: { ...page.where, state: 'quarantined', ...(query.connectionId ? { connectionId: query.connectionId } : {}) } }),
      quarantinedVmidView,
      quarantinedVmidQuerySchema,
    ),
  );

  router.post('/quarantined-vmids/:id/release', async (req, res) => {
    const id = pathParam(req, 'id');
    const released = await deps.db.$transaction(async (tx) => {
      const row = await tx.vmidReservation.findFirst({ where: { id, state: 'quarantined' } });
      if (!row) throw new AppError('NOT_FOUND', 'No quarantined VMID has this id.');
      await tx.vmidReservation.update({ where: { id }, data: { state: 'free', strangerNode: null, strangerName: null, quarantinedFor: null, quarantinedAt: null } });
      await recordAudit(tx, { action: 'vmid.released', actorUserId: principal(req).userId, details: { connectionId: row.connectionId, vmid: row.vmid } });
      return row;
    });
    send(res, quarantinedVmidView(released));
  });

  return router;
}
