import type { ErrorCode } from '../../domain/errors';
import { type CollectionSpec, listQuerySchema, registerCollection, registerRoute } from '../openapi';
import type { z } from 'zod';
import { adminListQuerySchema } from './catalog-fields';
import { adminConnectionDetailSchema, adminConnectionSchema, createConnectionSchema, updateConnectionSchema, vmidRangeSchema } from './connections';
import { z as zod } from 'zod';
import { adminImageSchema, createImageSchema, imageSchema, refreshImageSchema, updateImageSchema } from './images';
import { adminIpPoolSchema, createIpPoolSchema, updateIpPoolSchema } from './ip-pools';
import { adminLocationSchema, createLocationSchema, locationSchema, updateLocationSchema } from './locations';
import { nodeSchema, nodeSpecSchema, updateNodeSchema } from './nodes';
import { adminPlanSchema, createPlanSchema, planSchema, updatePlanSchema } from './plans';

/**
 * The catalog's paths in the OpenAPI document, for every kind of object at once: the document
 * lists the admin collections, then their updates, then a connection's nodes and VMID range,
 * then what customers choose from. The schemas are in plans.ts, images.ts, connections.ts,
 * nodes.ts, locations.ts and ip-pools.ts.
 */

const admin = { tags: ['admin: catalog'], admin: true, errors: ['CONFLICT'], query: adminListQuerySchema } as const satisfies Partial<CollectionSpec>;
const connectionErrors = ['CONFLICT', 'CONNECTION_OVERLAP', 'CONNECTION_PRIVILEGES_MISSING', 'PROVIDER_UNAVAILABLE', 'SNIPPETS_NOT_VISIBLE', 'UNSUPPORTED'] as const;
registerCollection({ ...admin, path: '/v1/admin/plans', noun: 'plan', body: createPlanSchema, view: adminPlanSchema });
registerCollection({ ...admin, path: '/v1/admin/images', noun: 'image', body: createImageSchema, view: adminImageSchema, errors: ['CONFLICT', 'IMAGE_STORAGE_REFUSED', 'PROVIDER_UNAVAILABLE'] });
registerCollection({
  ...admin,
  path: '/v1/admin/connections',
  noun: 'Proxmox VE connection',
  body: createConnectionSchema,
  view: adminConnectionSchema,
  errors: [...connectionErrors],
});
registerCollection({ ...admin, path: '/v1/admin/locations', noun: 'location', body: createLocationSchema, view: adminLocationSchema });
registerCollection({ ...admin, path: '/v1/admin/ip-pools', noun: 'IP pool', body: createIpPoolSchema, view: adminIpPoolSchema });

const update = (path: string, noun: string, body: z.ZodType, response: z.ZodType, errors: ErrorCode[] = ['CONFLICT']) =>
  registerRoute({ tags: admin.tags, admin: true, method: 'patch', path, summary: `Update or archive a ${noun}; audited`, request: { body }, response, errors: ['NOT_FOUND', ...errors] });
update('/v1/admin/plans/{id}', 'plan', updatePlanSchema, adminPlanSchema);
update('/v1/admin/images/{id}', 'image', updateImageSchema, adminImageSchema);
update('/v1/admin/connections/{id}', 'Proxmox VE connection', updateConnectionSchema, adminConnectionSchema, [...connectionErrors]);
registerRoute({
  tags: admin.tags,
  admin: true,
  method: 'get',
  path: '/v1/admin/connections/{id}',
  summary: 'A Proxmox VE connection with its health, read live from the cluster',
  description:
    "The connection as listed, with `health`: whether Proxmox VE answers the connection's token, the minimal role on each path (held and missing) and the cluster's firewall switch, each read waiting 3 s at most. A cluster in trouble is reported in `health` (200 with `reachable: false`), never as an error of this request.",
  response: adminConnectionDetailSchema,
  errors: ['NOT_FOUND'],
});
update('/v1/admin/locations/{id}', 'location', updateLocationSchema, adminLocationSchema);
update('/v1/admin/ip-pools/{id}', 'IP pool', updateIpPoolSchema, adminIpPoolSchema);
registerRoute({
  tags: admin.tags,
  admin: true,
  method: 'post',
  path: '/v1/admin/images/{id}/refresh',
  summary: 'Build a new version of an image from a URL when its checksum changed; audited',
  description:
    'A checksum other than the newest version\'s adds a version, built on every node beside the old one (`builds`); creates and rebuilds use the newest version ready on their node, and an old template is destroyed once no provision or rebuild in flight still clones it. The same checksum changes nothing (`meta.refreshed: false`). 409 INVALID_STATE for an image of hand-made templates.',
  request: { body: refreshImageSchema },
  response: adminImageSchema,
  meta: zod.object({ refreshed: zod.boolean() }),
  errors: ['NOT_FOUND', 'INVALID_STATE', 'ARCHIVED'],
});
registerRoute({
  tags: admin.tags,
  admin: true,
  method: 'delete',
  path: '/v1/admin/images/{id}',
  summary: 'Delete an image from a URL: its templates and downloaded files are removed; audited',
  description:
    'The image is archived (servers made from it keep it; new creates refuse it) and its templates leave the catalog at once; the templates and downloaded files we made for it (proven by our marker) are then removed on every node. Refused with 409 IMAGE_CLONE_IN_FLIGHT while a server is being created or rebuilt from it; 409 INVALID_STATE for an image of hand-made templates (archive it instead).',
  response: adminImageSchema,
  status: 202,
  errors: ['NOT_FOUND', 'INVALID_STATE', 'IMAGE_CLONE_IN_FLIGHT'],
});
registerRoute({
  tags: admin.tags,
  admin: true,
  method: 'post',
  path: '/v1/admin/connections/{id}/nodes',
  summary: 'Add a node of the cluster to the connection; audited',
  description:
    "The node must be a member of the cluster, as GET /cluster/status answers the connection's token (400 otherwise, 422 CONNECTION_PRIVILEGES_MISSING when the token may not read it, 503 when Proxmox VE cannot be reached).",
  request: { body: nodeSpecSchema },
  response: nodeSchema,
  status: 201,
  errors: ['NOT_FOUND', 'CONFLICT', 'CONNECTION_PRIVILEGES_MISSING', 'PROVIDER_UNAVAILABLE'],
});
registerRoute({
  tags: admin.tags,
  admin: true,
  method: 'delete',
  path: '/v1/admin/connections/{id}/nodes/{node}',
  summary: 'Remove a node from the connection; audited',
  description: 'Refused with 409 NODE_IN_USE while servers live on the node or migrate to it: drain it (`draining: true`) and migrate them first. Its image templates go with it.',
  status: 204,
  errors: ['NOT_FOUND', 'NODE_IN_USE'],
});
registerRoute({
  tags: admin.tags,
  admin: true,
  method: 'put',
  path: '/v1/admin/connections/{id}/vmid-range',
  summary: "Move a connection's VMID range; audited",
  description: 'Growing is always possible (unless another connection to the cluster uses those VMIDs: 409 CONNECTION_OVERLAP); shrinking only over VMIDs that are free (409 VMID_RANGE_IN_USE names the held ones).',
  request: { body: vmidRangeSchema },
  response: adminConnectionSchema,
  errors: ['NOT_FOUND', 'CONNECTION_OVERLAP', 'VMID_RANGE_IN_USE'],
});
registerRoute({
  tags: admin.tags,
  admin: true,
  method: 'patch',
  path: '/v1/admin/connections/{id}/nodes/{node}',
  summary: "A node's capacity, enabled and draining flags; audited",
  request: { body: updateNodeSchema },
  response: nodeSchema,
  errors: ['NOT_FOUND', 'CONFLICT'],
});

const catalog = { tags: ['catalog'] } as const;
registerRoute({ ...catalog, method: 'get', path: '/v1/plans', summary: 'Plans to choose from', request: { query: listQuerySchema }, response: planSchema, list: true });
registerRoute({ ...catalog, method: 'get', path: '/v1/locations', summary: 'Locations to choose from', request: { query: listQuerySchema }, response: locationSchema, list: true });
registerRoute({ ...catalog, method: 'get', path: '/v1/images', summary: 'Images to choose from', request: { query: listQuerySchema }, response: imageSchema, list: true });
