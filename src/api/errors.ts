import { isGrpcServiceError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { isDatabaseUnavailable, isDataException } from '../db/errors';
import { AppError, serviceBusy, type ErrorCode } from '../domain/errors';
import type { Logger } from '../logger';

/** Seconds a client should wait before retrying when a dependency is away; sent as Retry-After. */
const RETRY_AFTER_SECONDS: Partial<Record<ErrorCode, number>> = { SERVICE_UNAVAILABLE: 5, PROVIDER_UNAVAILABLE: 5, SERVICE_BUSY: 1 };

/** Maps every error to the API's error envelope; unknown errors become a 500 with no internals. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const appError = toAppError(error);
    if (appError.code === 'INTERNAL') logger.error({ err: error, method: req.method, path: req.path }, 'unhandled error');
    else if (!(error instanceof AppError) && appError.status >= 500) logger.warn({ err: error, method: req.method, path: req.path, code: appError.code }, 'a dependency is unavailable');
    else if (!(error instanceof AppError) && isDataException(error)) logger.warn({ method: req.method, path: req.path }, 'PostgreSQL refused a value the input checks let through');
    // A body refused before it was read (too large, not JSON) is still arriving: close the
    // connection after answering, so the client does not send its next request into it.
    if (!req.complete) res.setHeader('Connection', 'close');
    const retryAfter = appError.details?.retryAfterSeconds ?? RETRY_AFTER_SECONDS[appError.code];
    if (typeof retryAfter === 'number') res.setHeader('Retry-After', String(retryAfter));
    res.status(appError.status).json({
      error: { code: appError.code, message: appError.message, ...(appError.details ? { details: appError.details } : {}) },
    });
  };
}

function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const status = (error as { status?: number; type?: string } | null)?.status;
  const type = (error as { type?: string } | null)?.type;
  // body-parser's own errors: too large, malformed JSON, unsupported charset or encoding.
  if (status === 413 || type === 'entity.too.large') return new AppError('PAYLOAD_TOO_LARGE', 'The request body is larger than 64 KiB.');
  if (type === 'entity.parse.failed') return new AppError('INVALID_INPUT', 'The request body is not valid JSON.');
  if (status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be JSON in UTF-8, not compressed.');
  if (status && status >= 400 && status < 500) return new AppError('INVALID_INPUT', 'The request could not be read.');
  if (isContention(error)) {
    return serviceBusy();
  }
  if (isDatabaseUnavailable(error)) return new AppError('SERVICE_UNAVAILABLE', 'The service is unavailable right now. Please retry.');
  if (isTemporalUnavailable(error)) return new AppError('PROVIDER_UNAVAILABLE', 'The service that runs operations is unavailable right now. Please retry.');
  if (isDataException(error)) return new AppError('INVALID_INPUT', 'The request contains a value that cannot be stored.');
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

const GRPC_DEADLINE_EXCEEDED = 4;
const GRPC_RESOURCE_EXHAUSTED = 8;
const GRPC_UNAVAILABLE = 14;

/** Temporal could not be reached in time (gRPC UNAVAILABLE, DEADLINE_EXCEEDED or RESOURCE_EXHAUSTED, anywhere in the cause chain). */
function isTemporalUnavailable(error: unknown): boolean {
  const unavailable: readonly number[] = [GRPC_UNAVAILABLE, GRPC_DEADLINE_EXCEEDED, GRPC_RESOURCE_EXHAUSTED];
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    if (current instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return true;
    if (isGrpcServiceError(current) && unavailable.includes(current.code)) return true;
  }
  return false;
}

export const notFoundRoute: RequestHandler = (_req, _res, next) => {
  next(new AppError('NOT_FOUND', 'No such route.'));
};
