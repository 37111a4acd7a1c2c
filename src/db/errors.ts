import { AppError } from '../domain/errors';

/**
 * A unique constraint refused the write (Prisma error P2002, or SQLSTATE 23505 from a statement
 * of our own): another row already holds the value, usually because a concurrent request got
 * there first.
 */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'P2002' || sqlStates(error).includes('23505');
}

/**
 * The error and what it wraps, as far as they go: a Prisma error keeps the driver's error in
 * `meta.driverAdapterError` (raw queries) or is the driver adapter's error itself (model queries),
 * whose `cause` holds the SQLSTATE (`originalCode`) or its kind; pg's own errors come bare.
 */
function chainOf(error: unknown): Record<string, unknown>[] {
  const links: Record<string, unknown>[] = [];
  const pending: unknown[] = [error];
  while (pending.length > 0 && links.length < 8) {
    const link = pending.shift();
    if (typeof link !== 'object' || link === null) continue;
    const record = link as Record<string, unknown>;
    links.push(record);
    pending.push((record.meta as { driverAdapterError?: unknown } | undefined)?.driverAdapterError, record.cause);
  }
  return links;
}

/** The PostgreSQL SQLSTATEs anywhere in a Prisma or pg error. */
function sqlStates(error: unknown): string[] {
  return chainOf(error).flatMap((link) => [link.originalCode, link.code].filter((code): code is string => typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)));
}

const UNREACHABLE_PRISMA_CODES = ['P1001', 'P1002', 'P1008', 'P1017'];
/** The driver adapter's names for a refused, reset or timed-out socket. */
const UNREACHABLE_KINDS = ['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout'];
const SOCKET_ERRNOS = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', 'EHOSTUNREACH'];
/**
 * pg's words for a connection that ended: closed under a query, or used again after it broke
 * (its SQLSTATE, when there was one, went with the first query).
 */
const LOST_CONNECTION = /Can't reach database server|Connection terminated|Server has closed the connection|Client has encountered a connection error and is not queryable/i;

/**
 * PostgreSQL cannot be reached or dropped the connection: refused, reset, timed out, closed,
 * shutting down, starting up, or the backend terminated (Prisma P1001/P1002/P1008/P1017, SQLSTATE
 * class 08 and 57P0x, the adapter's socket kinds, or pg's own messages), in whatever wrapping
 * Prisma hands it over.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const links = chainOf(error);
  if (sqlStates(error).some((state) => state.startsWith('08') || /^57P0\d$/.test(state))) return true;
  return links.some(
    (link) =>
      UNREACHABLE_PRISMA_CODES.includes(link.code as string) ||
      UNREACHABLE_KINDS.includes(link.kind as string) ||
      (typeof link.syscall === 'string' && SOCKET_ERRNOS.includes(link.code as string)) ||
      (typeof link.message === 'string' && LOST_CONNECTION.test(link.message)),
  );
}

/**
 * PostgreSQL refused a value as data (SQLSTATE class 22: invalid byte sequence, date or number
 * out of range, too long; Prisma P2000/P2007/P2020). Input validation should have stopped it;
 * this keeps anything that slips through a client error instead of a 500.
 */
export function isDataException(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'P2000' || code === 'P2007' || code === 'P2020') return true;
  return sqlStates(error).some((state) => state.startsWith('22'));
}

/** PostgreSQL chose this transaction as a deadlock victim (SQLSTATE 40P01) and rolled it back. */
export function isDeadlock(error: unknown): boolean {
  if (sqlStates(error).includes('40P01')) return true;
  return /deadlock detected/i.test(error instanceof Error ? error.message : '');
}

/** A `.catch` handler: a unique violation on `field` is 409 CONFLICT naming it; anything else is rethrown. */
export function conflictOnDuplicate(what: string, field = 'name') {
  return (error: unknown): never => {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', `A ${what} with this ${field} already exists.`, { fields: { [field]: 'already in use' } });
    throw error;
  };
}
