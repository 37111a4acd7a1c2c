import type { ErrorRequestHandler, RequestHandler } from 'express';
import { isUniqueViolation } from '../db/errors';
import { AppError } from '../domain/errors';
import type { Logger } from '../logger';

/** Maps every error to the API's error envelope; unknown errors become a 500 with no internals. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const appError = toAppError(error);
    if (appError.code === 'INTERNAL') logger.error({ err: error, method: req.method, path: req.path }, 'unhandled error');
    if (typeof appError.details?.retryAfterSeconds === 'number') {
      res.setHeader('Retry-After', String(appError.details.retryAfterSeconds));
    }
    res.status(appError.status).json({
      error: { code: appError.code, message: appError.message, ...(appError.details ? { details: appError.details } : {}) },
    });
  };
}

function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const status = (error as { status?: number; type?: string } | null)?.status;
  const type = (error as { type?: string } | null)?.type;
  // body-parser's own errors: too large, malformed JSON, unsupported charset.
  if (status === 413 || type === 'entity.too.large') return new AppError('PAYLOAD_TOO_LARGE', 'The request body is larger than 64 KiB.');
  if (type === 'entity.parse.failed') return new AppError('INVALID_INPUT', 'The request body is not valid JSON.');
  if (status && status >= 400 && status < 500) return new AppError('INVALID_INPUT', 'The request could not be read.');
  if (isContention(error)) {
    return new AppError('SERVICE_BUSY', 'Too many requests are being handled right now; nothing was changed. Please retry.', { retryAfterSeconds: 1 });
  }
  return new AppError('INTERNAL', 'Something went wrong on our side; the request was not completed.');
}

/**
 * The database could not give this request its turn in time (the connection pool or the
 * transaction queue was full) or chose it as a deadlock victim: the transaction rolled back.
 */
function isContention(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'P2028' || code === 'P2034' || code === '40P01' || code === '40001') return true;
  const message = error instanceof Error ? error.message : '';
  return /deadlock detected|could not serialize access|Unable to start a transaction in the given time/i.test(message);
}

export const notFoundRoute: RequestHandler = (_req, _res, next) => {
  next(new AppError('NOT_FOUND', 'No such route.'));
};

/** A `.catch` handler: a unique violation on `field` is 409 CONFLICT naming it; anything else is rethrown. */
export function conflictOnDuplicate(what: string, field = 'name') {
  return (error: unknown): never => {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', `A ${what} with this ${field} already exists.`, { fields: { [field]: 'already in use' } });
    throw error;
  };
}
