/**
 * Rows read on the `pg` pool in the shapes Prisma gives them, so code reading them keeps the
 * generated model types: TIMESTAMP(3) columns hold UTC (Prisma's convention; pg would read them
 * in the process's time zone), BIGINT comes as bigint (pg gives text), and JSON values of a
 * relation are revived field by field.
 */
import pg from 'pg';

const TIMESTAMP_OID = 1114;
const INT8_OID = 20;

const utc = (text: string) => new Date(`${text.replace(' ', 'T')}Z`);

export const PRISMA_LIKE_TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) => {
    if (oid === TIMESTAMP_OID) return utc;
    if (oid === INT8_OID) return (text: string) => BigInt(text);
    return pg.types.getTypeParser(oid, format as 'text');
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * Within the JSON of a relation, the models' DateTime fields (all named `…At`) come as UTC text
 * without a zone, and their BigInt field (an address's `ordinal`) as a number.
 */
export function revive(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revive);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => {
      if (key.endsWith('At') && typeof v === 'string') return [key, new Date(`${v}Z`)];
      if (key === 'ordinal' && typeof v === 'number') return [key, BigInt(v)];
      return [key, revive(v)];
    }),
  );
}
