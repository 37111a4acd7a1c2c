import { Router } from 'express';
import type { z } from 'zod';
import type { InstanceEvent } from '../../generated/prisma/client';
import { listEvents } from '../../services/events';
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
    const { events, nextCursor } = await listEvents(deps, principal(req), parseQuery(eventListQuerySchema, req));
    send(res, events.map(eventView), nextCursor ? { nextCursor } : {});
  });
  return router;
}
