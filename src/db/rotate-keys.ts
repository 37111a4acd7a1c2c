import type { SecretBox } from '../security/secrets';
import type { Db } from './client';
import { recordAudit } from './audit';

/** One kind of sealed secret: how to read a page of rows not yet under the write key, and how to replace one. */
interface SealedColumn {
  name: string;
  /** Rows after `afterId` (by id) whose secret is not sealed with the write key. */
  page(afterId: string, take: number): Promise<{ id: string; sealed: string; associatedData: string }[]>;
  /** Replaces the secret only if it is still `from`; false when someone changed it meanwhile. */
  replace(id: string, from: string, to: string): Promise<boolean>;
  /** How many rows are not under the write key. */
  countStale(): Promise<number>;
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

function sealedColumns(db: Db, secrets: SecretBox): SealedColumn[] {
  const stale = { not: { startsWith: secrets.currentPrefix() } };
  return [
    {
      name: 'credentials.secretCipher',
      page: async (afterId, take) =>
        (
          await db.credential.findMany({
            where: { id: { gt: afterId }, secretCipher: { ...stale } },
            orderBy: { id: 'asc' },
            take,
            select: { id: true, instanceId: true, secretCipher: true },
          })
        ).map((row) => ({ id: row.id, sealed: row.secretCipher ?? '', associatedData: row.instanceId })),
      replace: async (id, from, to) => (await db.credential.updateMany({ where: { id, secretCipher: from }, data: { secretCipher: to } })).count === 1,
      countStale: () => db.credential.count({ where: { secretCipher: { ...stale } } }),
    },
    {
      name: 'proxmox_connections.tokenSecretCipher',
      page: async (afterId, take) =>
        (
          await db.proxmoxConnection.findMany({
            where: { id: { gt: afterId }, tokenSecretCipher: { ...stale } },
            orderBy: { id: 'asc' },
            take,
            select: { id: true, tokenSecretCipher: true },
          })
        ).map((row) => ({ id: row.id, sealed: row.tokenSecretCipher, associatedData: row.id })),
      replace: async (id, from, to) =>
        (await db.proxmoxConnection.updateMany({ where: { id, tokenSecretCipher: from }, data: { tokenSecretCipher: to } })).count === 1,
      countStale: () => db.proxmoxConnection.count({ where: { tokenSecretCipher: { ...stale } } }),
    },
  ];
}

/**
 * Re-seals every credential password and Proxmox token secret with the ring's write key, in
 * batches of `batchSize` rows. Each row is written only if it is unchanged since it was read, so
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
  const columns = sealedColumns(db, secrets);
  const counts: Record<string, RotationCount> = Object.fromEntries(columns.map((c) => [c.name, { rotated: 0, changedMeanwhile: 0 }]));
  const unreadable = new Map<string, { column: string; id: string }>();
  let passes = 0;
  let changedThisPass = 0;
  do {
    passes += 1;
    changedThisPass = 0;
    for (const column of columns) {
      const count = counts[column.name] as RotationCount;
      let afterId = '';
      for (;;) {
        const rows = await column.page(afterId, batchSize);
        if (rows.length === 0) break;
        for (const row of rows) {
          afterId = row.id;
          let plaintext: string;
          try {
            plaintext = secrets.open(row.sealed, row.associatedData);
          } catch {
            unreadable.set(`${column.name}/${row.id}`, { column: column.name, id: row.id });
            continue;
          }
          if (await column.replace(row.id, row.sealed, secrets.seal(plaintext, row.associatedData))) count.rotated += 1;
          else {
            count.changedMeanwhile += 1;
            changedThisPass += 1;
          }
        }
        onProgress(`${column.name}: ${count.rotated} re-sealed so far (up to ${afterId})`);
      }
    }
  } while (changedThisPass > 0 && passes < maxPasses);
  const remaining = (await Promise.all(columns.map((column) => column.countStale()))).reduce((sum, n) => sum + n, 0);
  await recordAudit(db, { action: 'secrets.rotated', details: { writeKeyId: secrets.writeKeyId, counts, unreadable: unreadable.size, remaining } });
  return { writeKeyId: secrets.writeKeyId, counts, unreadable: [...unreadable.values()], remaining, passes };
}
