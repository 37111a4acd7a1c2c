/**
 * A unique constraint refused the write (Prisma error P2002): another row already holds the
 * value, usually because a concurrent request got there first.
 */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'P2002';
}
