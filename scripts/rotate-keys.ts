// Re-seals every stored secret (credential passwords, Proxmox token secrets, webhook signing
// secrets: every column of SEALED_COLUMNS in src/db/rotate-keys.ts) with the write key
// of the encryption key ring (ENCRYPTION_KEY_ID), so an old key can then leave the ring.
// Safe while API servers and workers run with the same ring; rerunnable.
//   npm run rotate-keys [-- --batch-size 100]
// Exit code 0: every secret is under the write key; 1: some rows could not be re-sealed (named by id).
import { loadConfig } from '../src/config';
import { createDb } from '../src/db/client';
import { rotateSecrets } from '../src/db/rotate-keys';
import { secretBoxOf } from '../src/security/secrets';

function batchSize(argv: string[]): number {
  const index = argv.indexOf('--batch-size');
  if (index < 0) return 100;
  const value = Number(argv[index + 1]);
  if (!Number.isInteger(value) || value < 1 || value > 10_000) throw new Error('--batch-size must be an integer from 1 to 10000');
  return value;
}

async function main(): Promise<number> {
  const config = loadConfig();
  const secrets = secretBoxOf(config);
  const db = createDb(config.DATABASE_URL, 2);
  try {
    console.log(`re-sealing stored secrets with the key "${secrets.writeKeyId}"`);
    const result = await rotateSecrets(db, secrets, { batchSize: batchSize(process.argv.slice(2)), onProgress: (line) => console.log(line) });
    for (const [column, count] of Object.entries(result.counts)) {
      console.log(`${column}: ${count.rotated} re-sealed, ${count.changedMeanwhile} changed by others meanwhile (looked at again)`);
    }
    for (const row of result.unreadable) console.error(`${row.column} ${row.id}: no key of the ring opens it; left as it is`);
    if (result.remaining > 0) {
      console.error(`${result.remaining} secrets are not under "${secrets.writeKeyId}" yet; run again (keep every old key in the ring until it succeeds)`);
      return 1;
    }
    console.log(`done: every stored secret is sealed with "${secrets.writeKeyId}"`);
    return 0;
  } finally {
    await db.$disconnect();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : 'rotation failed');
    process.exit(1);
  },
);
