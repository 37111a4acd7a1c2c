import { Router } from 'express';
import { buildOpenApiDocument, registerRoute } from '../openapi';

registerRoute({ method: 'get', path: '/openapi.json', summary: 'This OpenAPI 3.1 document', tags: ['operations'], public: true, contentType: 'application/json' });

/**
 * Serves the OpenAPI document. It is built on the first request, not at import: every router
 * module registers its paths when it is imported, and by then they all have been.
 */
export function openapiRouter(): Router {
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    res.json(buildOpenApiDocument());
  });
  return router;
}
