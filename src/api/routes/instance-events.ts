import { Router } from 'express';
import type { z } from 'zod';
import type { InstanceEvent } from '../../generated/prisma/client';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { parseQuery, send } from '../http';
import { registerRoute } from '../openapi';
import { eventListQuerySchema, instanceEventSchema } from '../schemas/events';

registerRoute({
  method: 'get',
  path: '/v1/events',
  summary: "What happened to the caller's servers, newest first (admins: every tenant's)",
  tags: ['events'],
  request: { query: eventListQuerySchema },
  response: instanceEventSchema,
  list: true,
});

const eventView = (row: InstanceEvent): z.infer<typeof instanceEventSchema> => ({
  id: row.id,
  type: row.type as z.infer<typeof instanceEventSchema>['type'],
  instanceId: row.instanceId,
  tenantId: row.tenantId,
  data: row.data as z.infer<typeof instanceEventSchema>['data'],
  createdAt: row.createdAt.toISOString(),
});

/** The instance event feed: keyset pages in the order the events were appended (`seq`), newest first. */
export function instanceEventsRouter(deps: ApiDeps): Router {
  const router = Router();
  router.get('/events', async (req, res) => {
    const who = principal(req);
    const query = parseQuery(eventListQuerySchema, req);
    const tenantId = who.tenantId ?? query.tenantId;
    const rows = await deps.db.instanceEvent.findMany({
      where: {
        ...(tenantId ? { tenantId } : {}),
        ...(query.type ? { type: query.type } : {}),
        ...(query.instanceId ? { instanceId: query.instanceId } : {}),
        ...(query.cursor ? { seq: { lt: BigInt(query.cursor) } } : {}),
      },
      orderBy: { seq: 'desc' },
      take: query.limit + 1,
    });
    const items = rows.slice(0, query.limit);
    const last = items[items.length - 1];
    send(res, items.map(eventView), rows.length > query.limit && last ? { nextCursor: String(last.seq) } : {});
  });
  return router;
}
