import { Router } from 'express';
import { createImage, listImages, updateImage } from '../../services/catalog/images';
import { principal } from '../auth';
import { adminImageView } from '../catalog-views';
import type { ApiDeps } from '../deps';
import { adminListHandler, parseBody, pathParam, send } from '../http';
import { createImageSchema, updateImageSchema } from '../schemas/images';

/** Images and their templates, under /v1/admin behind requireAdmin (services/catalog/images.ts). */
export function adminImagesRouter(deps: ApiDeps): Router {
  const router = Router();

  router.post('/images', async (req, res) => {
    const body = parseBody(createImageSchema, req);
    send(res, adminImageView(await createImage(deps, principal(req).userId, body)), {}, 201);
  });

  router.get('/images', adminListHandler((page, archived) => listImages(deps, page, archived), adminImageView));

  router.patch('/images/:id', async (req, res) => {
    const body = parseBody(updateImageSchema, req);
    const id = pathParam(req, 'id');
    send(res, adminImageView(await updateImage(deps, principal(req).userId, id, body)));
  });

  return router;
}
