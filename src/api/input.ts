import type { RequestHandler } from 'express';
import { AppError } from '../domain/errors';
import { isSafeLine, isSafeText } from '../domain/validation';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Every route under /v1 that takes a body takes JSON: any other body (a form, text, none named)
 * is 415, so it can never be read as an empty request and run with defaults.
 */
export const requireJsonBody: RequestHandler = (req, _res, next) => {
  const length = req.headers['content-length'];
  const hasBody = req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
  if (!BODY_METHODS.has(req.method) || !hasBody || req.is('application/json')) return next();
  next(new AppError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be JSON (Content-Type: application/json).'));
};

const invalid = (where: string, field: string) =>
  new AppError('INVALID_INPUT', `The ${where} is invalid.`, { fields: { [field]: 'contains a control character or invalid Unicode' } });

/** The path of the first string in `value` (keys included) that `safe` refuses; iterative, as bodies may nest deeply. */
function firstUnsafe(value: unknown, safe: (text: string) => boolean): string | undefined {
  const pending: [unknown, string][] = [[value, '']];
  while (pending.length > 0) {
    const [item, path] = pending.pop() as [unknown, string];
    if (typeof item === 'string') {
      if (!safe(item)) return path || '(body)';
    } else if (Array.isArray(item)) {
      item.forEach((element, index) => pending.push([element, path ? `${path}.${index}` : String(index)]));
    } else if (item !== null && typeof item === 'object') {
      for (const [key, element] of Object.entries(item)) {
        const keyPath = path ? `${path}.${key}` : key;
        if (!safe(key)) return keyPath;
        pending.push([element, keyPath]);
      }
    }
  }
  return undefined;
}

/**
 * One check for every string a request carries before any of it reaches PostgreSQL (which
 * cannot store NUL or a lone surrogate) or a Proxmox guest: path segments and query values are
 * single lines of safe text, body strings are safe text (tab and line breaks allowed, for user
 * data, certificates and notes). Anything else is 400 INVALID_INPUT naming where it was.
 */
export const rejectUnsafeText: RequestHandler = (req, _res, next) => {
  for (const segment of req.path.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return next(new AppError('INVALID_INPUT', 'The path is not valid percent-encoded UTF-8.'));
    }
    if (!isSafeLine(decoded)) return next(invalid('path', '(path)'));
  }
  const query = firstUnsafe(req.query, isSafeLine);
  if (query !== undefined) return next(invalid('query', query));
  const body = firstUnsafe(req.body, isSafeText);
  if (body !== undefined) return next(invalid('request body', body));
  next();
};
