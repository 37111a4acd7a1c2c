import { Router } from 'express';
import type { z } from 'zod';
import type { Image, IpPool, Location, Plan } from '../../generated/prisma/client';
import type { ApiDeps } from '../app';
import { listHandler } from '../http';
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
  // Archived objects (and locations of an archived connection) are no longer offered.
  router.get('/plans', listHandler((page) => db.plan.findMany({ ...page, where: { ...page.where, archivedAt: null } }), planView));
  router.get(
    '/locations',
    listHandler(
      (page) =>
        db.location.findMany({
          ...page,
          where: { ...page.where, archivedAt: null, connection: { archivedAt: null } },
          include: { ipPools: { where: { archivedAt: null }, select: { family: true } } },
        }),
      locationView,
    ),
  );
  router.get('/images', listHandler((page) => db.image.findMany({ ...page, where: { ...page.where, archivedAt: null } }), imageView));
  return router;
}
