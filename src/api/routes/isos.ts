import { Router } from 'express';
import type { z } from 'zod';
import { revealRescuePassword } from '../../services/boot-media';
import { createIso, deleteIso, findIso, listIsos, listUsableIsos, refreshIso, type IsoWithCopies } from '../../services/isos';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { parseBody, parseQuery, pathParam, send } from '../http';
import { registerRoute } from '../openapi';
import { adminIsoView, createIsoBody, isoView, listIsosQuery, rescueRevealView } from '../schemas/isos';

registerRoute({
  method: 'get',
  path: '/v1/isos',
  summary: 'List the ISOs you may mount',
  description: 'Public ISOs and your tenant’s own, with the locations they are ready in; `instanceId` narrows it to what that server may mount. Rescue systems are not listed (rescue mode mounts them).',
  tags: ['isos'],
  request: { query: listIsosQuery },
  response: isoView,
  list: true,
  errors: ['NOT_FOUND'],
});
registerRoute({
  method: 'post',
  path: '/v1/instances/:id/rescue/reveal',
  summary: 'Reveal the rescue password, once',
  description: 'The password of the rescue system (user `root`) made by the last rescue entry; only while the server is in rescue mode (409 INVALID_STATE otherwise).',
  tags: ['isos'],
  response: rescueRevealView,
  errors: ['NOT_FOUND', 'INVALID_STATE', 'CREDENTIAL_ALREADY_REVEALED', 'CREDENTIAL_EXPIRED', 'FORBIDDEN'],
});
const admin = { tags: ['admin: isos'], admin: true } as const;
registerRoute({
  ...admin,
  method: 'post',
  path: '/v1/admin/isos',
  summary: 'Add an ISO to the library',
  description: "Downloaded by Proxmox VE (download-url, content `iso`, the checksum checked) into every location's ISO storage: once on a shared storage, once per node on a local one. Each copy is `importing`, then `ready` or `failed` with a cause.",
  request: { body: createIsoBody },
  response: adminIsoView,
  status: 201,
  errors: ['INVALID_INPUT'],
});
registerRoute({ ...admin, method: 'get', path: '/v1/admin/isos', summary: 'List the ISO library, newest first', response: adminIsoView, list: true });
registerRoute({ ...admin, method: 'get', path: '/v1/admin/isos/:id', summary: 'Get an ISO with its state per location and node', response: adminIsoView, errors: ['NOT_FOUND'] });
registerRoute({ ...admin, method: 'post', path: '/v1/admin/isos/:id/refresh', summary: 'Download failed copies again, and to locations or nodes added since', response: adminIsoView, errors: ['NOT_FOUND'] });
registerRoute({ ...admin, method: 'delete', path: '/v1/admin/isos/:id', summary: 'Delete an ISO from the library and its storages', description: 'Refused (409 CONFLICT) while servers have it mounted.', response: adminIsoView, errors: ['NOT_FOUND', 'CONFLICT'] });

function toIsoView(iso: IsoWithCopies): z.infer<typeof isoView> {
  const locations = new Map(iso.copies.map((c) => [c.location.id, c.location]));
  return { id: iso.id, name: iso.name, locations: [...locations.values()] };
}

export function toAdminIsoView(iso: IsoWithCopies): z.infer<typeof adminIsoView> {
  return {
    id: iso.id,
    name: iso.name,
    url: iso.url,
    checksum: iso.checksum,
    checksumAlgorithm: iso.checksumAlgorithm,
    tenantId: iso.tenantId,
    rescue: iso.rescue,
    fileName: iso.fileName,
    createdAt: iso.createdAt.toISOString(),
    deletedAt: iso.deletedAt?.toISOString() ?? null,
    copies: iso.copies.map((c) => ({ location: c.location, storage: c.storage, node: c.node, state: c.state, failure: c.failureMessage, updatedAt: c.updatedAt.toISOString() })),
  };
}

/** The ISOs customers may mount, and their rescue password. */
export function isosRouter(deps: ApiDeps): Router {
  const router = Router();
  router.get('/isos', async (req, res) => {
    send(res, (await listUsableIsos(deps, principal(req), parseQuery(listIsosQuery, req))).map(toIsoView));
  });
  router.post('/instances/:id/rescue/reveal', async (req, res) => {
    send(res, await revealRescuePassword(deps, principal(req), pathParam(req, 'id')));
  });
  return router;
}

/** The operator's ISO library (mounted under /v1/admin). */
export function adminIsosRouter(deps: ApiDeps): Router {
  const router = Router();
  router.post('/isos', async (req, res) => send(res, toAdminIsoView(await createIso(deps, principal(req).userId, parseBody(createIsoBody, req))), {}, 201));
  router.get('/isos', async (_req, res) => send(res, (await listIsos(deps)).map(toAdminIsoView)));
  router.get('/isos/:id', async (req, res) => send(res, toAdminIsoView(await findIso(deps, principal(req), pathParam(req, 'id')))));
  router.post('/isos/:id/refresh', async (req, res) => send(res, toAdminIsoView(await refreshIso(deps, principal(req).userId, pathParam(req, 'id')))));
  router.delete('/isos/:id', async (req, res) => send(res, toAdminIsoView(await deleteIso(deps, principal(req).userId, pathParam(req, 'id')))));
  return router;
}
