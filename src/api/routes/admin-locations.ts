import type { Router } from 'express';
import { createLocation, listLocations, updateLocation } from '../../services/catalog/locations';
import { adminLocationView } from '../catalog-views';
import type { ApiDeps } from '../deps';
import { adminCollectionRouter } from '../http';
import { createLocationSchema, updateLocationSchema } from '../schemas/locations';

/** Locations, under /v1/admin (the operator's: route-actions.ts) (services/catalog/locations.ts). */
export const adminLocationsRouter = (deps: ApiDeps): Router =>
  adminCollectionRouter('/locations', {
    create: [createLocationSchema, (actorUserId, body) => createLocation(deps, actorUserId, body)],
    list: (page, archived) => listLocations(deps, page, archived),
    update: [updateLocationSchema, (actorUserId, id, body) => updateLocation(deps, actorUserId, id, body)],
    view: adminLocationView,
  });
