import { Router } from 'express';
import { listOfferedImages } from '../../services/catalog/images';
import { listOfferedLocations } from '../../services/catalog/locations';
import { listOfferedPlans } from '../../services/catalog/plans';
import type { ApiDeps } from '../deps';
import { listHandler } from '../http';
// Imported for its side effect too: it registers the catalog's paths in the OpenAPI document.
import '../schemas/catalog';
import { imageView, locationView, planView } from '../catalog-views';

/** The catalog as any authenticated principal sees it: archived objects (and locations of an archived connection) are no longer offered. */
export function catalogRouter(deps: ApiDeps): Router {
  const router = Router();
  router.get('/plans', listHandler((page) => listOfferedPlans(deps, page), planView));
  router.get('/locations', listHandler((page) => listOfferedLocations(deps, page), locationView));
  router.get('/images', listHandler((page) => listOfferedImages(deps, page), imageView));
  return router;
}
