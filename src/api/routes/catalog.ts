import { Router } from 'express';
import type { z } from 'zod';
import type { Image, IpPool, Location, Plan } from '../../generated/prisma/client';
import type { ApiDeps } from '../app';
import { parseQuery, send } from '../http';
import { afterCursor, listQuerySchema, newestFirst, pageOf } from '../openapi';
// Imported for its side effect too: it registers these paths in the OpenAPI document.
import '../schemas/catalog';
import type { imageSchema, locationSchema, planSchema } from '../schemas/catalog';

// Customer views: what to choose from, never where it lives (no nodes, VMIDs, connections,
// storage, bridges, VLANs or URLs).

export const planView = (plan: Plan): z.infer<typeof planSchema> => ({
  id: plan.id,
  name: plan.name,
  vcpus: plan.vcpus,
  memoryMiB: plan.memoryMiB,
  diskGiB: plan.diskGiB,
});

export const imageView = (image: Image): z.infer<typeof imageSchema> => ({
  id: image.id,
  name: image.name,
  os: image.os,
  version: image.version,
  loginMethods: image.loginMethods,
  defaultUsername: image.defaultUsername,
  rootAllowed: image.rootAllowed,
});

export const locationView = (location: Location & { ipPools: Pick<IpPool, 'family'>[] }): z.infer<typeof locationSchema> => ({
  id: location.id,
  name: location.name,
  ipv4: location.ipPools.some((pool) => pool.family === 4),
  ipv6: location.ipPools.some((pool) => pool.family === 6),
});

/** The catalog as any authenticated principal sees it. */
export function catalogRouter(deps: ApiDeps): Router {
  const { db } = deps;
  const router = Router();

  router.get('/plans', async (req, res) => {
    const query = parseQuery(listQuerySchema, req);
    const rows = await db.plan.findMany({ where: afterCursor(query.cursor), orderBy: newestFirst(), take: query.limit + 1 });
    const { items, meta } = pageOf(rows, query.limit);
    send(res, items.map(planView), meta);
  });

  router.get('/locations', async (req, res) => {
    const query = parseQuery(listQuerySchema, req);
    const rows = await db.location.findMany({
      where: afterCursor(query.cursor),
      orderBy: newestFirst(),
      take: query.limit + 1,
      include: { ipPools: { select: { family: true } } },
    });
    const { items, meta } = pageOf(rows, query.limit);
    send(res, items.map(locationView), meta);
  });

  router.get('/images', async (req, res) => {
    const query = parseQuery(listQuerySchema, req);
    const rows = await db.image.findMany({ where: afterCursor(query.cursor), orderBy: newestFirst(), take: query.limit + 1 });
    const { items, meta } = pageOf(rows, query.limit);
    send(res, items.map(imageView), meta);
  });

  return router;
}
