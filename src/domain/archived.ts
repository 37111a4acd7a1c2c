import { AppError } from './errors';

/**
 * Archived catalog objects keep serving what uses them but take no new use: each field named
 * with an archive date is refused, 422 ARCHIVED.
 */
export function assertNotArchived(archivedAt: Record<string, Date | null>): void {
  const archived = Object.fromEntries(Object.entries(archivedAt).flatMap(([field, at]) => (at ? [[field, 'archived']] : [])));
  if (Object.keys(archived).length > 0) {
    throw new AppError('ARCHIVED', 'The request names something that is no longer offered.', { fields: archived });
  }
}
