import { Router } from 'express';
import { createLocation, listLocations, updateLocation } from '../../services/catalog/locations';
import { principal } from '../auth';
import { adminLocationView } from '../catalog-views';
import type { ApiDeps } from '../deps';
import { adminListHandler, parseBody, pathParam, send } from '../http';
import { createLocationSchema, updateLocationSchema } from '../schemas/locations';

/** Locations, under /v1/admin behind requireAdmin (services/catalog/locations.ts). */
export function adminLocationsRouter(deps: ApiDeps): Router {
  const router = Router();

  router.post('/locations', async (req, res) => {
    const body = parseBody(createLocationSchema, req);
    send(res, adminLocationView(await createLocation(deps, principal(req).userId, body)), {}, 201);
  });

  router.get('/locations', adminListHandler((page, archived) => listLocations(deps, page, archived), adminLocationView));

  router.patch('/locations/:id', async (req, res) => {
    const body = parseBody(updateLocationSchema, req);
    const id = pathParam(req, 'id');
    send(res, adminLocationView(await updateLocation(deps, principal(req).userId, id, body)));
  });

  return router;
}
