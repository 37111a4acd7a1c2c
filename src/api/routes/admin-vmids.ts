import { Router } from 'express';
import type { z } from 'zod';
import type { VmidReservation } from '../../generated/prisma/client';
import { listQuarantinedVmids, releaseQuarantinedVmid } from '../../services/quarantined-vmids';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { listHandler, pathParam, send } from '../http';
import { registerRoute } from '../openapi';
import { quarantinedVmidQuerySchema, quarantinedVmidSchema } from '../schemas/vmids';

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

/** Quarantined VMIDs: the clone stage sets them aside when a guest we did not create sits on them. */
export function adminVmidsRouter(deps: ApiDeps): Router {
  const router = Router();
  router.get('/quarantined-vmids', listHandler((page, query) => listQuarantinedVmids(deps, page, query), quarantinedVmidView, quarantinedVmidQuerySchema));
  router.post('/quarantined-vmids/:id/release', async (req, res) => {
    send(res, quarantinedVmidView(await releaseQuarantinedVmid(deps, principal(req), pathParam(req, 'id'))));
  });
  return router;
}
