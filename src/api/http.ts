import type { Request, Response } from 'express';
import { z } from 'zod';
import { AppError } from '../domain/errors';

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
