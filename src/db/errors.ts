/**
 * A unique constraint refused the write (Prisma error P2002): another row already holds the
 * value, usually because a concurrent request got there first.
 */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'P2002';
}

/** The PostgreSQL SQLSTATE behind a Prisma error, when the driver adapter kept it. */
function sqlState(error: unknown): string | undefined {
  const meta = (error as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown; code?: unknown } } } } | null)?.meta;
  const cause = meta?.driverAdapterError?.cause;
  const code = cause?.originalCode ?? cause?.code ?? (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/**
 * PostgreSQL cannot be reached or dropped the connection: refused, timed out, closed, shutting
 * down (Prisma P1001/P1002/P1008/P1017, SQLSTATE class 08 and 57P0x, or pg's own messages for them).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'P1001' || code === 'P1002' || code === 'P1008' || code === 'P1017') return true;
  const state = sqlState(error);
  if (state && (state.startsWith('08') || /^57P0[1-3]$/.test(state))) return true;
  const message = error instanceof Error ? error.message : '';
  return /Can't reach database server|Connection terminated unexpectedly|Server has closed the connection/i.test(message);
}

/**
 * PostgreSQL refused a value as data (SQLSTATE class 22: invalid byte sequence, date or number
 * out of range, too long; Prisma P2000/P2007/P2020). Input validation should have stopped it;
 * this keeps anything that slips through a client error instead of a 500.
 */
export function isDataException(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'P2000' || code === 'P2007' || code === 'P2020') return true;
  return sqlState(error)?.startsWith('22') ?? false;
}

/** PostgreSQL chose this transaction as a deadlock victim (SQLSTATE 40P01) and rolled it back. */
export function isDeadlock(error: unknown): boolean {
  if (sqlState(error) === '40P01') return true;
  return /deadlock detected/i.test(error instanceof Error ? error.message : '');
}
