import { Prisma } from '../generated/prisma/client';
import type { SecretBox } from '../security/secrets';
import type { Db } from './client';
import { recordAudit } from './audit';

/**
 * Every column holding a SecretBox text, with the column of its row that is its associated data:
 * the fields prisma/schema.prisma documents `/// sealed, associated data: <field>`
 * (test/e2e/key-rotation.test.ts holds this list to the schema and to the database).
 */
export const SEALED_COLUMNS = [
  { table: 'credentials', column: 'secretCipher', associatedData: 'instanceId' },
  { table: 'proxmox_connections', column: 'tokenSecretCipher', associatedData: 'id' },
  { table: 'proxmox_connections', column: 'consoleUserPasswordCipher', associatedData: 'id' },
  { table: 'webhook_endpoints', column: 'secretCipher', associatedData: 'id' },
  { table: 'rescue_credentials', column: 'secretCipher', associatedData: 'id' },
  { table: 'user_invites', column: 'linkCipher', associatedData: 'id' },
] as const;

type SealedColumn = (typeof SEALED_COLUMNS)[number];

export const sealedColumnName = (c: SealedColumn) => `${c.table}.${c.column}`;

// The identifiers come from SEALED_COLUMNS above, never from input.
const identifiers = (c: SealedColumn) => ({ table: Prisma.raw(`"${c.table}"`), column: Prisma.raw(`"${c.column}"`), associatedData: Prisma.raw(`"${c.associatedData}"`) });

/** Rows after `afterId` (by id) whose secret is not sealed with the write key. */
function stalePage(db: Db, c: SealedColumn, prefix: string, afterId: string, take: number) {
  const { table, column, associatedData } = identifiers(c);
  return db.$queryRaw<{ id: string; sealed: string; associatedData: string }[]>`
    SELECT id, ${column} AS sealed, ${associatedData} AS "associatedData" FROM ${table}
    WHERE id > ${afterId} AND ${column} IS NOT NULL AND NOT starts_with(${column}, ${prefix})
    ORDER BY id LIMIT ${take}`;
}

/** Replaces the secret only if it is still `from`; false when someone changed it meanwhile. */
async function replaceSealed(db: Db, c: SealedColumn, id: string, from: string, to: string): Promise<boolean> {
  const { table, column } = identifiers(c);
  return (await db.$executeRaw`UPDATE ${table} SET ${column} = ${to} WHERE id = ${id} AND ${column} = ${from}`) === 1;
}

/** How many rows are not under the write key. */
async function countStale(db: Db, c: SealedColumn, prefix: string): Promise<number> {
  const { table, column } = identifiers(c);
  const [row] = await db.$queryRaw<{ stale: bigint }[]>`SELECT count(*) AS stale FROM ${table} WHERE ${column} IS NOT NULL AND NOT starts_with(${column}, ${prefix})`;
  return Number(row?.stale ?? 0);
}

// A type, not an interface, so it can be stored as JSON in the audit row.
export type RotationCount = {
  /** Re-sealed with the write key. */
  rotated: number;
  /** Changed by someone else between our read and our write; the next pass looks again. */
  changedMeanwhile: number;
};

export interface RotationResult {
  writeKeyId: string;
  counts: Record<string, RotationCount>;
  /** Rows no key of the ring opens (ids only): they stay as they are. */
  unreadable: { column: string; id: string }[];
  /** Rows not under the write key when the rotation ended (unreadable ones, or ones written meanwhile with another key). */
  remaining: number;
  passes: number;
}

/**
 * Re-seals every secret of SEALED_COLUMNS with the ring's write key, in batches of `batchSize`
 * rows. Each row is written only if it is unchanged since it was read, so
 * it runs safely next to API servers and workers (which must already have the write key in their
 * ring); a row changed meanwhile is looked at again in the next pass. Rerunning it finds nothing
 * to do. Never logs a secret: `onProgress` gets counts and ids; the audit row `secrets.rotated` the totals.
 */
export async function rotateSecrets(
  db: Db,
  secrets: SecretBox,
  options: { batchSize?: number; maxPasses?: number; onProgress?: (message: string) => void } = {},
): Promise<RotationResult> {
  const { batchSize = 100, maxPasses = 5, onProgress = () => undefined } = options;
  const prefix = secrets.currentPrefix();
  const counts: Record<string, RotationCount> = Object.fromEntries(SEALED_COLUMNS.map((c) => [sealedColumnName(c), { rotated: 0, changedMeanwhile: 0 }]));
  const unreadable = new Map<string, { column: string; id: string }>();
  let passes = 0;
  let changedThisPass = 0;
  do {
    passes += 1;
    changedThisPass = 0;
    for (const column of SEALED_COLUMNS) {
      const name = sealedColumnName(column);
      const count = counts[name] as RotationCount;
      let afterId = '';
      for (;;) {
        const rows = await stalePage(db, column, prefix, afterId, batchSize);
        if (rows.length === 0) break;
        for (const row of rows) {
          afterId = row.id;
          let plaintext: string;
          try {
            plaintext = secrets.open(row.sealed, row.associatedData);
          } catch {
            unreadable.set(`${name}/${row.id}`, { column: name, id: row.id });
            continue;
          }
          if (await replaceSealed(db, column, row.id, row.sealed, secrets.seal(plaintext, row.associatedData))) count.rotated += 1;
          else {
            count.changedMeanwhile += 1;
            changedThisPass += 1;
          }
        }
        onProgress(`${name}: ${count.rotated} re-sealed so far (up to ${afterId})`);
      }
    }
  } while (changedThisPass > 0 && passes < maxPasses);
  const remaining = (await Promise.all(SEALED_COLUMNS.map((column) => countStale(db, column, prefix)))).reduce((sum, n) => sum + n, 0);
  await recordAudit(db, { action: 'secrets.rotated', details: { writeKeyId: secrets.writeKeyId, counts, unreadable: unreadable.size, remaining } });
  return { writeKeyId: secrets.writeKeyId, counts, unreadable: [...unreadable.values()], remaining, passes };
}
