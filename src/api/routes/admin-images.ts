import type { Router } from 'express';
import { createImage, listImages, updateImage } from '../../services/catalog/images';
import { adminImageView } from '../catalog-views';
import type { ApiDeps } from '../deps';
import { adminCollectionRouter } from '../http';
import { createImageSchema, updateImageSchema } from '../schemas/images';

/** Images and their templates, under /v1/admin (the operator's: route-actions.ts) (services/catalog/images.ts). */
export const adminImagesRouter = (deps: ApiDeps): Router =>
  adminCollectionRouter('/images', {
    create: [createImageSchema, (actorUserId, body) => createImage(deps, actorUserId, body)],
    list: (page, archived) => listImages(deps, page, archived),
    update: [updateImageSchema, (actorUserId, id, body) => updateImage(deps, actorUserId, id, body)],
    view: adminImageView,
  });
