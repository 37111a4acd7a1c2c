import { type Request, type Response, Router } from 'express';
import { z } from 'zod';
import type { PageArgs } from '../db/pages';
import { AppError } from '../domain/errors';
import { principal } from './auth';
import { afterCursor, type Cursor, listQuerySchema, newestFirst, pageOf } from './openapi';
import { adminListQuerySchema } from './schemas/catalog-fields';

export type { PageArgs } from '../db/pages';

/** The success envelope: `{ data, meta }`. */
export function send(res: Response, data: unknown, meta: Record<string, unknown> = {}, status = 200): void {
  res.status(status).json({ data, meta });
}

/** Of a value that fits none of a union's shapes, the problems of the shape it came closest to (fewest wrong or missing fields). */
function closestUnionBranch(issue: z.core.$ZodIssueInvalidUnion): z.core.$ZodIssue[] | undefined {
  const misfits = (branch: z.core.$ZodIssue[]) => branch.filter((i) => i.code === 'unrecognized_keys' || i.code === 'invalid_type').length;
  const best = [...issue.errors].sort((a, b) => misfits(a) - misfits(b))[0];
  return best?.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }));
}

function fieldErrors(error: { issues: z.core.$ZodIssue[] }): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const branch = issue.code === 'invalid_union' ? closestUnionBranch(issue) : undefined;
    if (branch) {
      Object.assign(fields, { ...fieldErrors({ issues: branch }), ...fields });
    } else if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) fields[[...issue.path, key].join('.')] = 'unknown field';
    } else {
      fields[issue.path.join('.') || '(body)'] ??= issue.message;
    }
  }
  return fields;
}

/** Validates one part of a request; any problem is a 400 INVALID_INPUT naming each field. */
export function parse<T extends z.ZodType>(schema: T, value: unknown, what = 'request'): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new AppError('INVALID_INPUT', `The ${what} is invalid.`, { fields: fieldErrors(result.error) });
  }
  return result.data;
}

export const parseBody = <T extends z.ZodType>(schema: T, req: Request): z.infer<T> => parse(schema, req.body ?? {}, 'request body');
export const parseQuery = <T extends z.ZodType>(schema: T, req: Request): z.infer<T> => parse(schema, req.query, 'query');

export function pathParam(req: Request, name: string): string {
  const value = req.params[name];
  if (typeof value !== 'string') throw new AppError('INVALID_INPUT', `Missing path parameter ${name}.`);
  return value;
}

type ListQuery = z.infer<typeof listQuerySchema>;

/**
 * A GET handler for a keyset-paginated list, newest first: `fetch` asks a service for the rows
 * of the page (with the query's filters), `view` renders each one.
 *
 *     router.get('/tenants', listHandler((page) => listTenants(deps, page), tenantView));
 */
export function listHandler<Row extends Cursor, Q extends ListQuery = ListQuery>(
  fetch: (page: PageArgs, query: Q) => Promise<Row[]>,
  view: (row: Row) => unknown,
  querySchema: z.ZodType<Q> = listQuerySchema as unknown as z.ZodType<Q>,
): (req: Request, res: Response) => Promise<void> {
  return async (req, res) => {
    const query = parseQuery(querySchema, req);
    const rows = await fetch({ where: afterCursor(query.cursor), orderBy: newestFirst(), take: query.limit + 1 }, query);
    const { items, meta } = pageOf(rows, query.limit);
    send(res, items.map(view), meta);
  };
}

/** The admin routes of one kind of catalog object, each answering with `view`. */
export interface AdminCollection<Create extends z.ZodType, Update extends z.ZodType, Row extends Cursor> {
  /** POST `path`: 201 with the new object. */
  create: [schema: Create, create: (actorUserId: string, body: z.infer<Create>) => Promise<Row>];
  /** GET `path`: a page of every object (`archived` undefined), of the archived ones (true) or of the current ones (false). */
  list: (page: PageArgs, archived: boolean | undefined) => Promise<Row[]>;
  /** PATCH `path/:id`. */
  update: [schema: Update, update: (actorUserId: string, id: string, body: z.infer<Update>) => Promise<Row>];
  view: (row: Row) => unknown;
}

/** A router for the admin routes of one kind of catalog object at `path`; the caller may add more. */
export function adminCollectionRouter<Create extends z.ZodType, Update extends z.ZodType, Row extends Cursor>(path: string, spec: AdminCollection<Create, Update, Row>): Router {
  const router = Router();
  const [createSchema, create] = spec.create;
  const [updateSchema, update] = spec.update;
  router.post(path, async (req, res) => {
    const body = parseBody(createSchema, req);
    send(res, spec.view(await create(principal(req).userId, body)), {}, 201);
  });
  router.get(
    path,
    listHandler((page, query: z.infer<typeof adminListQuerySchema>) => spec.list(page, query.archived === undefined ? undefined : query.archived === 'true'), spec.view, adminListQuerySchema),
  );
  router.patch(`${path}/:id`, async (req, res) => {
    const body = parseBody(updateSchema, req);
    const id = pathParam(req, 'id');
    send(res, spec.view(await update(principal(req).userId, id, body)));
  });
  return router;
}
