import { extendZodWithOpenApi, OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { AppError, ERROR_STATUS, type ErrorCode } from '../domain/errors';
import { license, version } from '../../package.json';

extendZodWithOpenApi(z);

/**
 * The one registry every router's schemas describe themselves in. Modules register their paths
 * at import time; the document is built from it on demand (see buildOpenApiDocument).
 */
export const registry = new OpenAPIRegistry();

export const BEARER_SCHEME = 'bearerAuth';

registry.registerComponent('securitySchemes', BEARER_SCHEME, {
  type: 'http',
  scheme: 'bearer',
  description: 'An API token: `Authorization: Bearer <token>`.',
});

export const SESSION_SCHEME = 'sessionCookie';

registry.registerComponent('securitySchemes', SESSION_SCHEME, {
  type: 'apiKey',
  in: 'cookie',
  name: 'pvecp_session',
  description:
    'A console session (`POST /v1/sessions`), used when no Authorization header is sent. Every request that changes something also needs the `X-CSRF-Token` header. ' +
    'When the console is served over https (`PUBLIC_URL`), the cookie is `Secure` and named `__Host-pvecp_session`.',
});

/** Every route but the public ones takes either an API token or a session. */
const SIGNED_IN: Record<string, string[]>[] = [{ [BEARER_SCHEME]: [] }, { [SESSION_SCHEME]: [] }];

const errorCodes = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** The error envelope every failed request answers with. */
export const errorEnvelopeSchema = registry.register(
  'Error',
  z.object({
    error: z.object({
      code: z.enum(errorCodes),
      message: z.string().openapi({ description: 'Safe to show to the caller.' }),
      details: z.record(z.string(), z.unknown()).optional().openapi({
        description: 'Machine-readable context, e.g. `fields` (field path → problem) for INVALID_INPUT.',
      }),
    }),
  }),
);

// ---------- lists: keyset pagination, newest first ----------

export const DEFAULT_PAGE_SIZE = 50;

/** `?limit=1..200&cursor=`; extend it for list-specific filters (it stays strict). */
export const listQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(DEFAULT_PAGE_SIZE),
  cursor: z.string().min(1).max(512).optional().openapi({ description: 'Opaque: `meta.nextCursor` of the previous page.' }),
});

export const listMetaSchema = z.object({
  nextCursor: z.string().optional().openapi({ description: 'Set when more items remain.' }),
});

const INT64_MAX = 2n ** 63n - 1n;

/** A decimal sequence number that fits PostgreSQL's bigint (event and step ids). */
const SEQUENCE = /^(0|[1-9][0-9]{0,18})$/;
export const sequenceSchema = z
  .string()
  .regex(SEQUENCE, 'a sequence number')
  // zod runs every check, so this one must not trust the pattern above.
  .refine((text) => SEQUENCE.test(text) && BigInt(text) <= INT64_MAX, 'a sequence number');

export interface Cursor {
  createdAt: Date;
  id: string;
}

/** An opaque cursor: base64url of the last item's (createdAt, id). */
export function encodeCursor(row: Cursor): string {
  return Buffer.from(JSON.stringify([row.createdAt.toISOString(), row.id])).toString('base64url');
}

/** What encodeCursor writes: an ISO timestamp PostgreSQL can hold (years 0001-9999) and an id. */
const CURSOR_TIME = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CURSOR_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function decodeCursor(cursor: string): Cursor {
  const invalid = () => new AppError('INVALID_INPUT', 'The query is invalid.', { fields: { cursor: 'invalid cursor' } });
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw invalid();
  const [at, id] = parsed as unknown[];
  if (typeof at !== 'string' || typeof id !== 'string' || !CURSOR_TIME.test(at) || !CURSOR_ID.test(id)) throw invalid();
  const createdAt = new Date(at);
  // Rejects dates that only look right (2024-02-30) by asking for the same text back.
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== at) throw invalid();
  return { createdAt, id };
}

/** Prisma `where` for the rows after a cursor, in (createdAt desc, id desc) order. */
export function afterCursor(cursor: string | undefined): { OR?: ({ createdAt: { lt: Date } } | { createdAt: Date; id: { lt: string } })[] } {
  if (!cursor) return {};
  const { createdAt, id } = decodeCursor(cursor);
  return { OR: [{ createdAt: { lt: createdAt } }, { createdAt, id: { lt: id } }] };
}

/** Prisma `orderBy` that matches afterCursor. */
export function newestFirst(): [{ createdAt: 'desc' }, { id: 'desc' }] {
  return [{ createdAt: 'desc' }, { id: 'desc' }];
}

/**
 * Cuts a page from rows fetched with `take: limit + 1`: the extra row only tells that more remain.
 *
 *     const rows = await listTenants(deps, { where: afterCursor(q.cursor), orderBy: newestFirst(), take: q.limit + 1 });
 *     const { items, meta } = pageOf(rows, q.limit);
 *
 * (listHandler in http.ts does exactly this.)
 */
export function pageOf<T extends Cursor>(rows: T[], limit: number): { items: T[]; meta: { nextCursor?: string } } {
  if (rows.length <= limit) return { items: rows, meta: {} };
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, meta: last ? { nextCursor: encodeCursor(last) } : {} };
}

// ---------- routes ----------

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteSpec {
  method: HttpMethod;
  /** Full path as clients call it; Express (`/v1/tasks/:id`) or OpenAPI (`/v1/tasks/{id}`) style. */
  path: string;
  summary: string;
  description?: string;
  tags: readonly string[];
  /** Names the operation in generated clients; defaults to the method and the path (operationIdOf). */
  operationId?: string;
  request?: {
    body?: z.ZodType;
    query?: z.ZodObject;
    /** Defaults to one string parameter per `:name` in the path. */
    params?: z.ZodObject;
    headers?: z.ZodObject;
  };
  /** Schema of `data` (of one item when `list` is set). Omit for a response without a body. */
  response?: z.ZodType;
  /** `data` is an array of `response` and `meta.nextCursor` is documented. */
  list?: boolean;
  /** Schema of `meta` (defaults to an empty object, or the list meta). */
  meta?: z.ZodObject;
  /** Success status; defaults to 200. */
  status?: number;
  /** Other success statuses answered with the same body (an idempotent replay, a deletion already done). */
  alsoStatuses?: number[];
  /** A non-JSON success body, e.g. `text/event-stream` or `text/plain`: `response` is ignored. */
  contentType?: string;
  /** Response body documented as-is, not wrapped in `{ data, meta }` (health and similar). */
  raw?: boolean;
  /** No bearer token needed. */
  public?: boolean;
  /** Administrators only (adds 403 FORBIDDEN). */
  admin?: boolean;
  /** Error codes this route answers besides the ones implied by the options above. */
  errors?: ErrorCode[];
  /** Further responses documented as given, by status (e.g. a 503 with a body of its own). */
  extraResponses?: Record<string, ResponseConfig>;
}

function openApiPath(path: string): { path: string; names: string[] } {
  const names: string[] = [];
  const converted = path.replace(/:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, colon?: string, brace?: string) => {
    const name = (colon ?? brace) as string;
    names.push(name);
    return `{${name}}`;
  });
  return { path: converted, names };
}

const pascal = (words: string): string =>
  words
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

/**
 * A stable operationId from the method and the path, so every route has one without naming it by
 * hand and two routes can never share one: `POST /v1/instances/{id}/credentials/reveal` is
 * `postInstancesByIdCredentialsReveal`, `GET /openapi.json` is `getOpenapiJson`.
 */
function operationIdOf(method: HttpMethod, path: string): string {
  const segments = openApiPath(path)
    .path.split('/')
    .filter((segment) => segment && segment !== 'v1');
  return method + segments.map((segment) => (segment.startsWith('{') ? `By${pascal(segment)}` : pascal(segment))).join('');
}

/** The error codes a route can answer, grouped by HTTP status. */
function errorResponses(spec: RouteSpec) {
  const codes = new Set<ErrorCode>(spec.errors ?? []);
  if (!spec.public) codes.add('UNAUTHENTICATED');
  if (spec.admin) codes.add('FORBIDDEN');
  // Reads count against the token's RATE_LIMIT_READS_PER_MINUTE.
  if (!spec.public && spec.method === 'get') codes.add('RATE_LIMITED');
  if (spec.request?.body) {
    codes.add('INVALID_INPUT');
    codes.add('PAYLOAD_TOO_LARGE');
  }
  if (spec.request?.query || spec.request?.params || openApiPath(spec.path).names.length > 0) codes.add('INVALID_INPUT');
  // Every /v1 route reads PostgreSQL; every body it takes is JSON.
  if (!spec.public) codes.add('SERVICE_UNAVAILABLE');
  if (!spec.public && spec.method !== 'get') codes.add('UNSUPPORTED_MEDIA_TYPE');
  codes.add('INTERNAL');
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  const responses: Record<string, { description: string; content: { 'application/json': { schema: typeof errorEnvelopeSchema } } }> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: `Error: ${list.join(', ')}`,
      content: { 'application/json': { schema: errorEnvelopeSchema } },
    };
  }
  return responses;
}

function successBody(spec: RouteSpec): z.ZodType | undefined {
  if (!spec.response) return undefined;
  if (spec.raw) return spec.response;
  if (spec.list) return z.object({ data: z.array(spec.response), meta: spec.meta ?? listMetaSchema });
  return z.object({ data: spec.response, meta: spec.meta ?? z.object({}) });
}

/**
 * Documents one route: the success body is wrapped in the `{ data, meta }` envelope and the
 * error responses implied by auth, role and validation are added.
 *
 *     registerRoute({ method: 'post', path: '/v1/admin/plans', summary: 'Create a plan', tags: ['catalog'],
 *       admin: true, request: { body: createPlanSchema }, response: adminPlanSchema, status: 201, errors: ['CONFLICT'] });
 */
export function registerRoute(spec: RouteSpec): void {
  const { path, names } = openApiPath(spec.path);
  const params =
    spec.request?.params ?? (names.length > 0 ? z.object(Object.fromEntries(names.map((name) => [name, z.string()]))) : undefined);
  const body = successBody(spec);
  const status = spec.status ?? 200;
  const success = spec.contentType
    ? { description: 'Success', content: { [spec.contentType]: { schema: spec.response ?? z.string() } } }
    : body
      ? { description: 'Success', content: { 'application/json': { schema: body } } }
      : { description: 'Success' };
  registry.registerPath({
    method: spec.method,
    path,
    operationId: spec.operationId ?? operationIdOf(spec.method, path),
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: [...spec.tags],
    security: spec.public ? [] : SIGNED_IN,
    request: {
      ...(spec.request?.body ? { body: { required: true, content: { 'application/json': { schema: spec.request.body } } } } : {}),
      ...(spec.request?.query ? { query: spec.request.query } : {}),
      ...(params ? { params } : {}),
      ...(spec.request?.headers ? { headers: spec.request.headers } : {}),
    },
    responses: {
      [String(status)]: success,
      ...Object.fromEntries((spec.alsoStatuses ?? []).map((other) => [String(other), success])),
      ...errorResponses(spec),
      ...spec.extraResponses,
    },
  });
}

export interface CollectionSpec {
  /** Full path of the collection, e.g. `/v1/admin/plans`. */
  path: string;
  /** Singular noun for the summaries: "Create a <noun>", "List <noun>s, newest first". */
  noun: string;
  tags: readonly string[];
  admin?: boolean;
  /** Body of the create request. */
  body: z.ZodType;
  /** One item, as created and as listed. */
  view: z.ZodType;
  /** List query; defaults to listQuerySchema. */
  query?: z.ZodObject;
  /** Error codes of the create route besides the implied ones. */
  errors?: ErrorCode[];
}

/** Documents a collection's create (POST, 201) and list (GET, newest first) routes. */
export function registerCollection(spec: CollectionSpec): void {
  const common = { tags: spec.tags, ...(spec.admin ? { admin: true } : {}) };
  const errors = spec.errors ? { errors: spec.errors } : {};
  registerRoute({ ...common, method: 'post', path: spec.path, summary: `Create a ${spec.noun}`, request: { body: spec.body }, response: spec.view, status: 201, ...errors });
  registerRoute({ ...common, method: 'get', path: spec.path, summary: `List ${spec.noun}s, newest first`, request: { query: spec.query ?? listQuerySchema }, response: spec.view, list: true });
}

export interface ReadsSpec {
  /** Full path of the collection; an item is at `<path>/:id`. */
  path: string;
  tags: readonly string[];
  /** One item, as read and as listed. */
  view: z.ZodType;
  query: z.ZodObject;
  listSummary: string;
  itemSummary: string;
}

/** Documents a collection's list (GET, newest first) and item (GET `/:id`, 404 when unknown) routes. */
export function registerReads(spec: ReadsSpec): void {
  registerRoute({ method: 'get', path: spec.path, summary: spec.listSummary, tags: spec.tags, request: { query: spec.query }, response: spec.view, list: true });
  registerRoute({ method: 'get', path: `${spec.path}/:id`, summary: spec.itemSummary, tags: spec.tags, response: spec.view, errors: ['NOT_FOUND'] });
}

let document: ReturnType<OpenApiGeneratorV31['generateDocument']> | undefined;

/**
 * The OpenAPI 3.1 document of everything registered so far. Call it after every router module
 * has been imported (the HTTP route builds it on the first request); the result is cached.
 */
export function buildOpenApiDocument(): ReturnType<OpenApiGeneratorV31['generateDocument']> {
  document ??= new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Proxmox VE control plane API',
      version,
      description:
        'Provision and operate virtual machines on Proxmox VE. Success bodies are `{ data, meta }`; errors are `{ error: { code, message, details } }`.',
      license: { name: license, identifier: license },
    },
    // Relative: the API is wherever this document was fetched from.
    servers: [{ url: '/', description: 'The server that serves this document' }],
    security: SIGNED_IN,
  });
  return document;
}
