import type { Request, Response } from 'express';
import { z } from 'zod';
import { AppError } from '../domain/errors';
import type { PageArgs } from '../services/pages';
import { afterCursor, type Cursor, listQuerySchema, newestFirst, pageOf } from './openapi';

export type { PageArgs } from '../services/pages';

/** The success envelope: `{ data, meta }`. */
export function send(res: Response, data: unknown, meta: Record<string, unknown> = {}, status = 200): void {
  res.status(status).json({ data, meta });
}

function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
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
