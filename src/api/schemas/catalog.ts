import { isIP } from 'node:net';
import { z } from 'zod';
import { addressToBigInt, type Cidr, cidrContains, cidrSize, cidrsOverlap, formatCidr, ordinalOf, parseCidr } from '../../net/ip';
import type { ErrorCode } from '../../domain/errors';
import { isSafeLine, USERNAME_PATTERN } from '../../domain/validation';
import { type CollectionSpec, listQuerySchema, registerCollection, registerRoute } from '../openapi';

// ---------- shared pieces ----------

/** Catalog names are slugs: they appear in URLs, logs and panels. */
const nameSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'letters, digits, ".", "_" and "-", starting with a letter or digit; at most 64 characters');
const idSchema = z.string().min(1).max(64);
const usernameSchema = z.string().regex(USERNAME_PATTERN, 'a lowercase Linux user name');
/** Proxmox VE VMIDs. */
const vmidSchema = z.number().int().min(100).max(999_999_999);
/** Proxmox VE storage ids. */
const storageIdSchema = z.string().regex(/^[A-Za-z][A-Za-z0-9._-]{0,63}$/, 'a Proxmox VE storage id');
/**
 * A location's backup storage: Proxmox VE's `pve-storage-id` (pve-common, PVE/JSONSchema.pm,
 * parse_storage_id: `^[a-z][a-z0-9\-\_\.]*[a-z0-9]$` with /i), spelled without the flag, which
 * a JSON Schema `pattern` cannot carry.
 */
const backupStorageSchema = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9\-_.]*[A-Za-z0-9]$/, 'a Proxmox VE storage id')
  .nullable()
  .optional()
  .openapi({ description: 'The storage (content type `backup`) backups are written to; null: no backups in this location.' });
/** An absolute path on the control-plane host. */
const absolutePathSchema = z.string().max(1024).regex(/^\/[^\0]*$/, 'an absolute path').refine((path) => !path.split('/').includes('..'), 'no ".." in the path');
/** Proxmox VE node names (`pve-node` format). */
const nodeNameSchema = z.string().regex(/^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/, 'a Proxmox VE node name');

// ---------- addresses ----------

export interface Network extends Cidr {
  /** Canonical text: the network address in its shortest form, then the prefix length. */
  cidr: string;
  /** The text named the network address itself (no host bits set). */
  exact: boolean;
}

/** Parses `address/prefix`; undefined when it is not one. Host bits are cleared. */
export function parseNetwork(text: string): Network | undefined {
  const match = /^([^/]+)\/\d{1,3}$/.exec(text);
  if (!match?.[1]) return undefined;
  let net: Cidr;
  try {
    net = parseCidr(text);
  } catch {
    return undefined;
  }
  return { ...net, cidr: formatCidr(net), exact: net.network === addressToBigInt(match[1]) };
}

/** Two networks of one family overlap when either contains the other's network address. */
export const networksOverlap: (a: Network, b: Network) => boolean = cidrsOverlap;

// ---------- requests ----------

export const createPlanSchema = z
  .strictObject({
    name: nameSchema,
    vcpus: z.number().int().min(1).max(512),
    memoryMiB: z.number().int().min(128).max(16 * 1024 * 1024),
    diskGiB: z.number().int().min(1).max(1024 * 1024),
    defaultUsername: usernameSchema.optional(),
    snapshotLimit: z.number().int().min(0).max(1000).optional().openapi({ description: 'Snapshots a server may hold at once; 0 (the default): none.' }),
    backupLimit: z.number().int().min(0).max(1000).optional().openapi({ description: 'Backups a server may hold at once; 0 (the default): none.' }),
  })
  .openapi('CreatePlan');

export const loginMethodSchema = z.enum(['password', 'ssh']);

export const createImageSchema = z
  .strictObject({
    name: nameSchema,
    os: z.string().trim().min(1).max(64).refine(isSafeLine, 'one line of text'),
    version: z.string().trim().min(1).max(64).refine(isSafeLine, 'one line of text'),
    loginMethods: z.array(loginMethodSchema).max(2).refine((methods) => new Set(methods).size === methods.length, 'duplicate login method'),
    defaultUsername: usernameSchema.optional(),
    rootAllowed: z.boolean(),
    templates: z
      .array(z.strictObject({ connectionId: idSchema, node: nodeNameSchema, templateVmid: vmidSchema }))
      .min(1)
      .max(256),
  })
  .superRefine((image, ctx) => {
    if (image.defaultUsername === 'root' && !image.rootAllowed) {
      ctx.addIssue({ code: 'custom', path: ['defaultUsername'], message: 'root requires rootAllowed' });
    }
    const seen = new Set<string>();
    image.templates.forEach((template, index) => {
      const key = `${template.connectionId}/${template.node}`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['templates', index, 'node'], message: 'one template per node of a connection' });
      seen.add(key);
    });
  })
  .openapi('CreateImage');

/**
 * Where custom cloud-init user data goes: a storage with content `snippets`, written by the
 * control plane through `directory` (that storage's snippets directory, mounted on the
 * control-plane host) or, modelled but not supported yet, over SSH to the nodes.
 */
export const snippetsSchema = z
  .strictObject({
    storage: storageIdSchema.openapi({ description: 'The Proxmox VE storage id, with content type `snippets`, available on every node of the connection.' }),
    directory: absolutePathSchema.optional().openapi({
      description:
        "That storage's snippets directory as mounted on the hosts running the worker, e.g. /mnt/pve/cephfs/snippets. Saved only once a probe file a worker writes there is listed by every node (else 422 SNIPPETS_NOT_VISIBLE).",
    }),
    ssh: z
      .strictObject({
        user: z.string().regex(/^[a-z_][a-z0-9_-]{0,31}$/, 'a Linux user name'),
        privateKey: z.string().max(16_384).refine((pem) => /-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem), 'a PEM private key'),
        directory: absolutePathSchema,
      })
      .optional()
      .openapi({ description: 'Not supported yet (422 UNSUPPORTED): write the snippet on each node over SSH.' }),
  })
  .superRefine((snippets, ctx) => {
    if ((snippets.directory === undefined) === (snippets.ssh === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['directory'], message: 'exactly one of directory and ssh' });
    }
  })
  .openapi('Snippets');

/** The VMIDs a connection may hand out, both ends included. */
export const vmidRangeSchema = z
  .strictObject({ start: vmidSchema, end: vmidSchema })
  .refine((range) => range.start <= range.end, { message: 'start must not exceed end', path: ['end'] })
  .openapi('VmidRange');

/** A node of a connection and the share of it we may allocate. */
export const nodeSpecSchema = z
  .strictObject({
    name: nodeNameSchema,
    vcpus: z.number().int().min(1).max(100_000),
    memoryMiB: z.number().int().min(128).max(2 ** 31 - 1),
    diskGiB: z.number().int().min(1).max(2 ** 31 - 1),
  })
  .openapi('NodeSpec');

/** `USER@REALM!TOKENID`, as Proxmox VE names API tokens. */
export const TOKEN_ID_PATTERN = /^[^\s@!:]{1,64}@[A-Za-z][A-Za-z0-9._-]{0,63}![A-Za-z][A-Za-z0-9._-]{0,63}$/;

export const consoleUserSchema = z
  .strictObject({
    username: z.string().regex(/^[^\s@!:]{1,64}@[A-Za-z][A-Za-z0-9._-]{0,63}$/, 'USER@REALM, e.g. console@pve'),
    password: z.string().min(5).max(256).openapi({ description: 'Write-only: stored encrypted, never returned.' }),
  })
  .openapi('ConsoleUser', {
    description:
      'A Proxmox VE user holding only VM.Console. Clusters whose access control predates token-owned console tickets (before Proxmox VE 9) give serial consoles only to users: the API logs in as this user for them. Without one, serial consoles there answer 422 CONSOLE_UNSUPPORTED.',
  });

export const createConnectionSchema = z
  .strictObject({
    name: nameSchema,
    url: z
      .url({ protocol: /^https?$/, error: 'an http(s) URL' })
      .max(512)
      .refine((url) => {
        if (!URL.canParse(url)) return true; // reported by the url check
        const parsed = new URL(url);
        return !parsed.username && !parsed.password && !parsed.search && !parsed.hash;
      }, 'no credentials, query or fragment in the URL')
      .transform((url) => url.replace(/\/+$/, '')),
    tokenId: z.string().regex(TOKEN_ID_PATTERN, 'USER@REALM!TOKENID'),
    tokenSecret: z.string().regex(/^[\x21-\x7e]{1,256}$/, 'printable characters, no spaces'),
    vmidRange: vmidRangeSchema,
    nodes: z
      .array(nodeSpecSchema)
      .min(1)
      .max(1024)
      .superRefine((nodes, ctx) => {
        const seen = new Set<string>();
        nodes.forEach((node, index) => {
          if (seen.has(node.name)) ctx.addIssue({ code: 'custom', path: [index, 'name'], message: 'duplicate node name' });
          seen.add(node.name);
        });
      }),
    storage: storageIdSchema.optional(),
    snippets: snippetsSchema.optional(),
    caCert: z
      .string()
      .max(65_536 - 4096)
      .refine((pem) => pem.includes('-----BEGIN CERTIFICATE-----'), 'a PEM certificate')
      .optional(),
    insecureTls: z.boolean().optional(),
    plaintextLab: z
      .boolean()
      .optional()
      .openapi({ description: 'Allows an http:// URL: a lab or a simulator, where the token secret may cross the network in clear. Default false: https only.' }),
    consoleUser: consoleUserSchema.optional(),
  })
  .openapi('CreateConnection', { description: '`url` must be https unless `plaintextLab` is true.' });

/** A connection's URL is https unless the connection is a plaintext lab endpoint. */
export function requireHttpsUnlessPlaintextLab(connection: { url: string; plaintextLab?: boolean }, ctx: z.RefinementCtx): void {
  if (connection.plaintextLab !== true && !connection.url.startsWith('https:')) {
    ctx.addIssue({ code: 'custom', path: ['url'], message: 'must be https (set plaintextLab for a plaintext lab endpoint)' });
  }
}

/** The create body as the route checks it (kept apart so the plain object schema can still be picked from or made partial). */
export const createConnectionRequestSchema = createConnectionSchema.superRefine(requireHttpsUnlessPlaintextLab);

export const createLocationSchema = z
  .strictObject({
    name: nameSchema,
    connectionId: idSchema,
    ipPools: z
      .array(idSchema)
      .min(1)
      .max(64)
      .refine((ids) => new Set(ids).size === ids.length, 'duplicate pool id')
      .openapi({ description: 'Pool ids; at least one IPv4 pool, each not yet in another location.' }),
    snapshotsSupported: z.boolean().optional().openapi({ description: "false when the connection's storage cannot take snapshots (thick LVM, raw images on a directory, NFS or CIFS): snapshot requests then answer 422 SNAPSHOTS_UNSUPPORTED. Default true." }),
    backupStorage: backupStorageSchema,
  })
  .openapi('CreateLocation');

const addressSchema = z.string().refine((address) => isIP(address) !== 0, 'an IP address');

/** What is wrong with a pool's network and gateway, by field (the first problem found). */
export function ipPoolProblems(pool: { cidr: string; gateway: string; family: 4 | 6 }): { field: string; message: string }[] {
  const net = parseNetwork(pool.cidr);
  if (!net) return [{ field: 'cidr', message: 'a network in CIDR notation, e.g. 198.51.100.0/24' }];
  if (net.family !== pool.family) return [{ field: 'family', message: `the CIDR is IPv${net.family}` }];
  const problems: { field: string; message: string }[] = [];
  if (!net.exact) problems.push({ field: 'cidr', message: `host bits are set; the network is ${net.cidr}` });
  if (net.family === 4 ? net.prefix < 8 || net.prefix > 30 : net.prefix < 32 || net.prefix > 126) {
    return [...problems, { field: 'cidr', message: net.family === 4 ? 'prefix length must be 8..30' : 'prefix length must be 32..126' }];
  }
  const ordinal = cidrContains(net, pool.gateway) ? ordinalOf(net, pool.gateway) : undefined;
  if (ordinal === undefined) {
    problems.push({ field: 'gateway', message: `an IPv${net.family} address inside ${net.cidr}` });
  } else if (ordinal === 0n || (net.family === 4 && ordinal === cidrSize(net) - 1n)) {
    problems.push({ field: 'gateway', message: 'a host address, not the network or broadcast address' });
  }
  return problems;
}

export const createIpPoolSchema = z
  .strictObject({
    cidr: z.string().max(64),
    gateway: z.string().max(64),
    bridge: z.string().regex(/^[A-Za-z][A-Za-z0-9_.-]{0,14}$/, 'a Linux bridge name'),
    vlan: z.number().int().min(1).max(4094).optional(),
    dns: z.array(addressSchema).max(8),
    family: z.union([z.literal(4), z.literal(6)]),
  })
  .superRefine((pool, ctx) => {
    for (const problem of ipPoolProblems(pool)) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  })
  .openapi('CreateIpPool');

// ---------- updates (PATCH: every field optional; `archived` archives or restores) ----------

const archivedField = z.boolean().optional().openapi({
  description: 'true archives: existing servers keep it, new creates refuse it (422 ARCHIVED) and customers no longer see it; false restores it.',
});

export const updatePlanSchema = z
  .strictObject({
    name: nameSchema.optional(),
    vcpus: z.number().int().min(1).max(512).optional(),
    memoryMiB: z.number().int().min(128).max(16 * 1024 * 1024).optional(),
    diskGiB: z.number().int().min(1).max(1024 * 1024).optional(),
    defaultUsername: usernameSchema.nullable().optional(),
    snapshotLimit: z.number().int().min(0).max(1000).optional().openapi({ description: 'Snapshots a server may hold at once; 0 (the default): none.' }),
    backupLimit: z.number().int().min(0).max(1000).optional().openapi({ description: 'Backups a server may hold at once; 0 (the default): none.' }),
    archived: archivedField,
  })
  .openapi('UpdatePlan', { description: 'Sizes cannot change while servers use the plan (409): make a new plan and archive this one.' });

export const updateImageSchema = z
  .strictObject({
    name: nameSchema.optional(),
    os: z.string().trim().min(1).max(64).optional(),
    version: z.string().trim().min(1).max(64).optional(),
    loginMethods: createImageSchema.shape.loginMethods.optional(),
    defaultUsername: usernameSchema.nullable().optional(),
    rootAllowed: z.boolean().optional(),
    templates: createImageSchema.shape.templates
      .optional()
      .openapi({ description: 'Templates to add or replace, by connection and node; the others stay. Servers rebuild from the template of their node.' }),
    archived: archivedField,
  })
  .openapi('UpdateImage');

export const updateConnectionSchema = z
  .strictObject({
    name: nameSchema.optional(),
    url: createConnectionSchema.shape.url.optional(),
    tokenId: createConnectionSchema.shape.tokenId.optional(),
    tokenSecret: createConnectionSchema.shape.tokenSecret.optional(),
    caCert: createConnectionSchema.shape.caCert.unwrap().nullable().optional(),
    insecureTls: z.boolean().optional(),
    plaintextLab: createConnectionSchema.shape.plaintextLab,
    storage: storageIdSchema.optional().openapi({ description: 'Where new servers get their disk; existing volumes stay where they are.' }),
    snippets: snippetsSchema.nullable().optional(),
    consoleUser: consoleUserSchema.nullable().optional().openapi({ description: 'null removes the console user.' }),
    archived: archivedField,
    force: z
      .boolean()
      .optional()
      .openapi({ description: 'Save even if the new settings reach a cluster of another name than the recorded one.' }),
  })
  .openapi('UpdateConnection', {
    description: 'A change of URL, token or TLS settings is saved only after Proxmox VE answered GET /cluster/status with them (400 token refused, 503 unreachable, 409 another cluster).',
  });

export const updateNodeSchema = z
  .strictObject({
    vcpus: z.number().int().min(1).max(100_000).optional(),
    memoryMiB: z.number().int().min(128).max(2 ** 31 - 1).optional(),
    diskGiB: z.number().int().min(1).max(2 ** 31 - 1).optional(),
    enabled: z.boolean().optional().openapi({ description: 'false: no new placements, and no resize or migration to it.' }),
    draining: z.boolean().optional().openapi({ description: 'true: no new servers are placed here (creates, migrations to it); the servers on it keep working.' }),
  })
  .openapi('UpdateNode', { description: 'Capacity below what servers hold on the node is refused (409, with the numbers).' });

export const updateLocationSchema = z
  .strictObject({
    name: nameSchema.optional(),
    addIpPools: z
      .array(idSchema)
      .min(1)
      .max(64)
      .refine((ids) => new Set(ids).size === ids.length, 'duplicate pool id')
      .optional()
      .openapi({ description: 'Pools to add to the location, each not yet in another location.' }),
    snapshotsSupported: z.boolean().optional().openapi({ description: "false when the connection's storage cannot take snapshots (thick LVM, raw images on a directory, NFS or CIFS): snapshot requests then answer 422 SNAPSHOTS_UNSUPPORTED. Default true." }),
    backupStorage: backupStorageSchema,
    archived: archivedField,
  })
  .openapi('UpdateLocation');

export const updateIpPoolSchema = z
  .strictObject({
    cidr: z.string().max(64).optional().openapi({ description: 'Only while no address was ever handed out from the pool.' }),
    gateway: z.string().max(64).optional(),
    bridge: z.string().regex(/^[A-Za-z][A-Za-z0-9_.-]{0,14}$/, 'a Linux bridge name').optional(),
    vlan: z.number().int().min(1).max(4094).nullable().optional(),
    dns: z.array(addressSchema).max(8).optional(),
    archived: archivedField,
  })
  .openapi('UpdateIpPool', { description: 'Bridge, VLAN and DNS apply to servers created or rebuilt from now on.' });

/** Admin lists: `?archived=true` only archived objects, `false` only current ones; both when absent. */
export const adminListQuerySchema = listQuerySchema.extend({
  archived: z.enum(['true', 'false']).optional().openapi({ description: 'Only archived (true) or only current (false) objects.' }),
});

// ---------- responses: customer views (no provider coordinates) ----------

const planFields = {
  id: z.string(),
  name: z.string(),
  vcpus: z.number().int(),
  memoryMiB: z.number().int(),
  diskGiB: z.number().int(),
  snapshotLimit: z.number().int().openapi({ description: 'Snapshots a server may hold at once (0: none).' }),
  backupLimit: z.number().int().openapi({ description: 'Backups a server may hold at once (0: none).' }),
};

export const planSchema = z.object(planFields).openapi('Plan');

const imageFields = {
  id: z.string(),
  name: z.string(),
  os: z.string(),
  version: z.string(),
  loginMethods: z.array(loginMethodSchema),
  defaultUsername: z.string().nullable(),
  rootAllowed: z.boolean(),
};

export const imageSchema = z.object(imageFields).openapi('Image');

export const locationSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    ipv4: z.boolean().openapi({ description: 'Instances here get an IPv4 address.' }),
    ipv6: z.boolean().openapi({ description: 'Instances here get an IPv6 address when one is free.' }),
    snapshots: z.boolean().openapi({ description: 'Servers here can take snapshots.' }),
    backups: z.boolean().openapi({ description: 'Servers here can be backed up.' }),
  })
  .openapi('Location');

// ---------- responses: admin views (the customer view plus provider coordinates) ----------

const timestamp = z.iso.datetime();

const archivedAt = timestamp.nullable().openapi({ description: 'When it was archived; null while it is offered.' });

export const adminPlanSchema = z.object({ ...planFields, defaultUsername: z.string().nullable(), createdAt: timestamp, archivedAt }).openapi('AdminPlan');

export const imageTemplateSchema = z
  .object({ id: z.string(), connectionId: z.string(), node: z.string(), templateVmid: z.number().int() })
  .openapi('ImageTemplate');

export const adminImageSchema = z.object({ ...imageFields, templates: z.array(imageTemplateSchema), createdAt: timestamp, archivedAt }).openapi('AdminImage');

export const nodeSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    vcpus: z.number().int(),
    memoryMiB: z.number().int(),
    diskGiB: z.number().int(),
    enabled: z.boolean(),
    draining: z.boolean(),
  })
  .openapi('Node');

export const adminConnectionSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    url: z.string(),
    tokenId: z.string(),
    hasTokenSecret: z.boolean().openapi({ description: 'The secret is stored encrypted and never returned.' }),
    clusterName: z.string().nullable().openapi({ description: "The cluster's name from /cluster/status, read when the connection was made; null for a standalone node." }),
    vmidRange: z.object({ start: z.number().int(), end: z.number().int() }),
    nodes: z.array(nodeSchema),
    storage: z.string(),
    caCert: z.string().nullable(),
    insecureTls: z.boolean(),
    plaintextLab: z.boolean(),
    snippets: z
      .object({ storage: z.string(), directory: z.string() })
      .nullable()
      .openapi({ description: 'Where custom cloud-init user data is written; null: creates with userData are refused here.' }),
    consoleUser: z
      .object({ username: z.string() })
      .nullable()
      .openapi({ description: 'The user serial consoles log in as on clusters before Proxmox VE 9 (its password is stored encrypted and never returned); null: none.' }),
    createdAt: timestamp,
    archivedAt,
  })
  .openapi('AdminConnection');

export const adminIpPoolSchema = z
  .object({
    id: z.string(),
    cidr: z.string(),
    family: z.union([z.literal(4), z.literal(6)]),
    gateway: z.string(),
    bridge: z.string(),
    vlan: z.number().int().nullable(),
    dns: z.array(z.string()),
    locationId: z.string().nullable(),
    createdAt: timestamp,
    archivedAt,
  })
  .openapi('AdminIpPool');

export const adminLocationSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    connectionId: z.string(),
    ipPools: z.array(adminIpPoolSchema),
    snapshotsSupported: z.boolean(),
    backupStorage: z.string().nullable(),
    createdAt: timestamp,
    archivedAt,
  })
  .openapi('AdminLocation');

// ---------- paths ----------

const admin = { tags: ['admin: catalog'], admin: true, errors: ['CONFLICT'], query: adminListQuerySchema } as const satisfies Partial<CollectionSpec>;
const connectionErrors = ['CONFLICT', 'CONNECTION_OVERLAP', 'CONNECTION_PRIVILEGES_MISSING', 'PROVIDER_UNAVAILABLE', 'SNIPPETS_NOT_VISIBLE', 'UNSUPPORTED'] as const;
registerCollection({ ...admin, path: '/v1/admin/plans', noun: 'plan', body: createPlanSchema, view: adminPlanSchema });
registerCollection({ ...admin, path: '/v1/admin/images', noun: 'image', body: createImageSchema, view: adminImageSchema });
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
update('/v1/admin/locations/{id}', 'location', updateLocationSchema, adminLocationSchema);
update('/v1/admin/ip-pools/{id}', 'IP pool', updateIpPoolSchema, adminIpPoolSchema);
registerRoute({
  tags: admin.tags,
  admin: true,
  method: 'post',
  path: '/v1/admin/connections/{id}/nodes',
  summary: 'Add a node of the cluster to the connection; audited',
  description: 'The node must be a member of the cluster, as GET /cluster/status answers the connection\'s token (400 otherwise, 503 when Proxmox VE cannot be reached).',
  request: { body: nodeSpecSchema },
  response: nodeSchema,
  status: 201,
  errors: ['NOT_FOUND', 'CONFLICT', 'PROVIDER_UNAVAILABLE'],
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
