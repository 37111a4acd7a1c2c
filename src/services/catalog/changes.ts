import { recordAudit, type PlatformAuditAction } from '../../db/audit';
import type { Tx } from '../../db/client';
import { conflictOnDuplicate } from '../../db/errors';
import { AppError, notFound } from '../../domain/errors';
import type { Prisma } from '../../generated/prisma/client';
import type { ServiceDeps } from '../deps';

/**
 * How every catalog object is created and changed: in one transaction, with an audit row; a
 * duplicate name (or CIDR) is 409 CONFLICT and a reference to a missing object 400 INVALID_INPUT
 * naming the field. Archiving (`archived: true`) keeps an object working for what uses it and
 * out of new creates.
 */

export type CatalogDeps = Pick<ServiceDeps, 'db'>;

/** A reference in the body to an object that does not exist is the caller's input error. */
export const badReference = (fields: Record<string, string>) => new AppError('INVALID_INPUT', 'The request body is invalid.', { fields });

export async function audit(tx: Tx, actorUserId: string | null, action: PlatformAuditAction, details: Prisma.InputJsonObject): Promise<void> {
  await recordAudit(tx, { action, actorUserId, details });
}

/** Fields whose values are secret or bulky: an audit row names them, never their value. */
const UNAUDITED_VALUES = new Set(['tokenSecret', 'consoleUser', 'caCert', 'snippets', 'templates']);

export interface Changes {
  changed: string[];
  before: Prisma.InputJsonObject;
  after: Prisma.InputJsonObject;
}

/**
 * What an update changed, for its audit row: the names of the fields the body sets to a new
 * value, and the old and new values of those that are neither secret nor bulky.
 */
export function changesOf(before: Record<string, unknown>, body: Record<string, unknown>): Changes {
  const changed = Object.keys(body).filter((key) => key !== 'force' && body[key] !== undefined && JSON.stringify(body[key]) !== JSON.stringify(before[key]));
  const shown = changed.filter((key) => !UNAUDITED_VALUES.has(key));
  const pick = (from: Record<string, unknown>) => Object.fromEntries(shown.map((key) => [key, (from[key] ?? null) as Prisma.InputJsonValue]));
  return { changed, before: pick(before), after: pick(body) };
}

/** The row's archived state as an update would say it, so `changesOf` compares like with like. */
export const asBody = <T extends { archivedAt: Date | null }>(row: T) => ({ ...row, archived: row.archivedAt !== null });

/** `archived` of an update as the archivedAt column: archiving keeps an earlier date, restoring clears it. */
const archiveChange = (archived: boolean | undefined, current: Date | null) =>
  archived === undefined ? {} : { archivedAt: archived ? (current ?? new Date()) : null };

/** Creates one object in one transaction (`create` writes its audit row too); a duplicate is 409 CONFLICT. */
export function createRow<Row>(deps: CatalogDeps, duplicate: Parameters<typeof conflictOnDuplicate>, create: (tx: Tx) => Promise<Row>): Promise<Row> {
  return deps.db.$transaction(create).catch(conflictOnDuplicate(...duplicate));
}

/** The update of one kind of catalog object: how its row is locked and named, and what its own rules add. */
export interface RowUpdate<Body extends { archived?: boolean }, Current extends { archivedAt: Date | null }, Row> {
  duplicate: Parameters<typeof conflictOnDuplicate>;
  /** Reads the row `FOR UPDATE`. */
  lock: (tx: Tx, id: string) => Promise<Current | undefined>;
  /** What a 404 calls it. */
  noun: string;
  action: PlatformAuditAction;
  /** The audit detail that names the row, e.g. `planId`. */
  subject: string;
  /**
   * Refuses what the type's rules forbid and writes the update: `fields` is the body without
   * `archived`, `archive` its archivedAt column, `changes` what the audit row will record.
   */
  apply: (tx: Tx, update: { id: string; current: Current; fields: Omit<Body, 'archived'>; archive: ReturnType<typeof archiveChange>; changes: Changes }) => Promise<Row>;
  /** The row as the body would say it, for `changesOf`; `asBody` unless a field needs its own reading. */
  asBody?: (current: Current) => Record<string, unknown>;
  /** Audit details beyond the changed fields. */
  moreDetails?: (current: Current) => Prisma.InputJsonObject;
}

/**
 * Updates one object: in one transaction it locks the row (404 when there is none), lets `apply`
 * refuse what the type's rules forbid and write the update, and writes the `action` audit row
 * with what the body changed; a duplicate is 409 CONFLICT.
 */
export function updateRow<Body extends { archived?: boolean }, Current extends { archivedAt: Date | null }, Row>(
  deps: CatalogDeps,
  actorUserId: string,
  id: string,
  body: Body,
  spec: RowUpdate<Body, Current, Row>,
): Promise<Row> {
  return deps.db
    .$transaction(async (tx) => {
      const current = await spec.lock(tx, id);
      if (!current) throw notFound(spec.noun);
      const { archived, ...fields } = body;
      const changes = changesOf((spec.asBody ?? asBody)(current), body);
      const updated = await spec.apply(tx, { id, current, fields, archive: archiveChange(archived, current.archivedAt), changes });
      await audit(tx, actorUserId, spec.action, { [spec.subject]: id, ...changes, ...spec.moreDetails?.(current) });
      return updated;
    })
    .catch(conflictOnDuplicate(...spec.duplicate));
}
