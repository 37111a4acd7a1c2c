import { Router } from 'express';
import { createImage, listImages, updateImage } from '../../services/catalog/images';
import { deleteImage, refreshImage } from '../../services/catalog/image-versions';
import { principal } from '../auth';
import { adminImageView } from '../catalog-views';
import type { ApiDeps } from '../deps';
import { adminCollectionRouter, parseBody, pathParam, send } from '../http';
import { createImageSchema, refreshImageSchema, updateImageSchema } from '../schemas/images';

/** Images and their templates, under /v1/admin (the operator's: route-actions.ts) (services/catalog/images.ts); a URL image's refresh and delete (image-versions.ts). */
export const adminImagesRouter = (deps: ApiDeps): Router => {
  const router = Router();
  router.post('/images/:id/refresh', async (req, res) => {
    const body = parseBody(refreshImageSchema, req);
    const { image, refreshed } = await refreshImage(deps, principal(req).userId, pathParam(req, 'id'), body.checksum);
    send(res, adminImageView(image), { refreshed });
  });
  router.delete('/images/:id', async (req, res) => {
    send(res, adminImageView(await deleteImage(deps, principal(req).userId, pathParam(req, 'id'))), {}, 202);
  });
  router.use(
    adminCollectionRouter('/images', {
      create: [createImageSchema, (actorUserId, body) => createImage(deps, actorUserId, body)],
      list: (page, archived) => listImages(deps, page, archived),
      update: [updateImageSchema, (actorUserId, id, body) => updateImage(deps, actorUserId, id, body)],
      view: adminImageView,
    }),
  );
  return router;
};
