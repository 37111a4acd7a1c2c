import { isIP } from 'node:net';
import { z } from 'zod';
import { addressToBigInt, type Cidr, cidrContains, cidrSize, cidrsOverlap, formatCidr, ordinalOf, parseCidr } from '../../domain/ip';
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
/** Proxmox VE node names (`pve-node` format). */
const nodeNameSchema = z.string().regex(/^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/, 'a Proxmox VE node name');

// ---------- addresses ----------

export { canonicalAddress } from '../../domain/ip';

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

/** `USER@REALM!TOKENID`, as Proxmox VE names API tokens. */
export const TOKEN_ID_PATTERN = /^[^\s@!:]{1,64}@[A-Za-z][A-Za-z0-9._-]{0,63}![A-Za-z][A-Za-z0-9._-]{0,63}$/;

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
    vmidRange: z
      .strictObject({ start: vmidSchema, end: vmidSchema })
      .refine((range) => range.start <= range.end, { message: 'start must not exceed end', path: ['end'] }),
    nodes: z
      .array(
        z.strictObject({
          name: nodeNameSchema,
          vcpus: z.number().int().min(1).max(100_000),
          memoryMiB: z.number().int().min(128).max(2 ** 31 - 1),
          diskGiB: z.number().int().min(1).max(2 ** 31 - 1),
        }),
      )
      .min(1)
      .max(1024)
      .superRefine((nodes, ctx) => {
        const seen = new Set<string>();
        nodes.forEach((node, index) => {
          if (seen.has(node.name)) ctx.addIssue({ code: 'custom', path: [index, 'name'], message: 'duplicate node name' });
          seen.add(node.name);
        });
      }),
    storage: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9._-]{0,63}$/, 'a Proxmox VE storage id')
      .optional(),
    caCert: z
      .string()
      .max(65_536 - 4096)
      .refine((pem) => pem.includes('-----BEGIN CERTIFICATE-----'), 'a PEM certificate')
      .optional(),
    insecureTls: z.boolean().optional(),
  })
  .openapi('CreateConnection');

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
  })
  .openapi('CreateLocation');

const addressSchema = z.string().refine((address) => isIP(address) !== 0, 'an IP address');

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
    const net = parseNetwork(pool.cidr);
    if (!net) {
      ctx.addIssue({ code: 'custom', path: ['cidr'], message: 'a network in CIDR notation, e.g. 198.51.100.0/24' });
      return;
    }
    if (net.family !== pool.family) {
      ctx.addIssue({ code: 'custom', path: ['family'], message: `the CIDR is IPv${net.family}` });
      return;
    }
    if (!net.exact) {
      ctx.addIssue({ code: 'custom', path: ['cidr'], message: `host bits are set; the network is ${net.cidr}` });
    }
    if (net.family === 4 ? net.prefix < 8 || net.prefix > 30 : net.prefix < 32 || net.prefix > 126) {
      ctx.addIssue({ code: 'custom', path: ['cidr'], message: net.family === 4 ? 'prefix length must be 8..30' : 'prefix length must be 32..126' });
      return;
    }
    const ordinal = cidrContains(net, pool.gateway) ? ordinalOf(net, pool.gateway) : undefined;
    if (ordinal === undefined) {
      ctx.addIssue({ code: 'custom', path: ['gateway'], message: `an IPv${net.family} address inside ${net.cidr}` });
    } else if (ordinal === 0n || (net.family === 4 && ordinal === cidrSize(net) - 1n)) {
      ctx.addIssue({ code: 'custom', path: ['gateway'], message: 'a host address, not the network or broadcast address' });
    }
  })
  .openapi('CreateIpPool');

// ---------- responses: customer views (no provider coordinates) ----------

const planFields = { id: z.string(), name: z.string(), vcpus: z.number().int(), memoryMiB: z.number().int(), diskGiB: z.number().int() };

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
  })
  .openapi('Location');

// ---------- responses: admin views (the customer view plus provider coordinates) ----------

const timestamp = z.iso.datetime();

export const adminPlanSchema = z.object({ ...planFields, defaultUsername: z.string().nullable(), createdAt: timestamp }).openapi('AdminPlan');

export const imageTemplateSchema = z
  .object({ id: z.string(), connectionId: z.string(), node: z.string(), templateVmid: z.number().int() })
  .openapi('ImageTemplate');

export const adminImageSchema = z.object({ ...imageFields, templates: z.array(imageTemplateSchema), createdAt: timestamp }).openapi('AdminImage');

export const nodeSchema = z
  .object({ id: z.string(), name: z.string(), vcpus: z.number().int(), memoryMiB: z.number().int(), diskGiB: z.number().int(), enabled: z.boolean() })
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
    createdAt: timestamp,
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
  })
  .openapi('AdminIpPool');

export const adminLocationSchema = z
  .object({ id: z.string(), name: z.string(), connectionId: z.string(), ipPools: z.array(adminIpPoolSchema), createdAt: timestamp })
  .openapi('AdminLocation');

// ---------- paths ----------

const admin = { tags: ['admin: catalog'], admin: true, errors: ['CONFLICT'] } as const satisfies Partial<CollectionSpec>;
registerCollection({ ...admin, path: '/v1/admin/plans', noun: 'plan', body: createPlanSchema, view: adminPlanSchema });
registerCollection({ ...admin, path: '/v1/admin/images', noun: 'image', body: createImageSchema, view: adminImageSchema });
registerCollection({
  ...admin,
  path: '/v1/admin/connections',
  noun: 'Proxmox VE connection',
  body: createConnectionSchema,
  view: adminConnectionSchema,
  errors: ['CONFLICT', 'CONNECTION_OVERLAP', 'PROVIDER_UNAVAILABLE'],
});
registerCollection({ ...admin, path: '/v1/admin/locations', noun: 'location', body: createLocationSchema, view: adminLocationSchema });
registerCollection({ ...admin, path: '/v1/admin/ip-pools', noun: 'IP pool', body: createIpPoolSchema, view: adminIpPoolSchema });

const catalog = { tags: ['catalog'] } as const;
registerRoute({ ...catalog, method: 'get', path: '/v1/plans', summary: 'Plans to choose from', request: { query: listQuerySchema }, response: planSchema, list: true });
registerRoute({ ...catalog, method: 'get', path: '/v1/locations', summary: 'Locations to choose from', request: { query: listQuerySchema }, response: locationSchema, list: true });
registerRoute({ ...catalog, method: 'get', path: '/v1/images', summary: 'Images to choose from', request: { query: listQuerySchema }, response: imageSchema, list: true });
