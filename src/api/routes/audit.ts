import { Router } from 'express';
import type { z } from 'zod';
import { listAudit, shownDetails, type AuditRow } from '../../services/audit-trail';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { parseQuery, send } from '../http';
import { auditQuerySchema, type auditEntryView } from '../schemas/audit';

const toAuditEntryView = (row: AuditRow): z.infer<typeof auditEntryView> => ({
  id: String(row.id),
  at: row.at.toISOString(),
  actor: row.actorUserId
    ? {
        userId: row.actorUserId,
        email: row.actorEmail,
        via: row.actorTokenId ? 'token' : row.actorSessionId ? 'session' : null,
        token: row.actorTokenId ? { id: row.actorTokenId, name: row.actorTokenName } : null,
        sessionId: row.actorSessionId,
      }
    : null,
  address: row.actorAddress,
  action: row.action,
  instanceId: row.instanceId,
  details: shownDetails(row.details),
});

/** The audit trail a tenant owner reads. */
export function auditRouter(deps: ApiDeps): Router {
  const router = Router();
  router.get('/audit', async (req, res) => {
    const { entries, nextCursor } = await listAudit(deps, principal(req), parseQuery(auditQuerySchema, req));
    send(res, entries.map(toAuditEntryView), nextCursor ? { nextCursor } : {});
  });
  return router;
}
