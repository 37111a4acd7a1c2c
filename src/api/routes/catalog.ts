import { Router } from 'express';
import type { ApiDeps } from '../deps';
import { listHandler } from '../http';
// Imported for its side effect too: it registers these paths in the OpenAPI document.
import '../schemas/catalog';
import { imageView, locationView, planView } from '../catalog-views';

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
