import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { databaseUrl, dropDatabase, maintenanceSql } from '../../scripts/database';
import { createDb, type Db } from '../../src/db/client';

export interface TestDatabase {
  url: string;
  db: Db;
  drop(): Promise<void>;
}

/** A migrated database of this test file's own, copied from the run's template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `${inject('runId')}_${randomBytes(4).toString('hex')}`;
  const server = inject('adminDatabaseUrl');
  await maintenanceSql(server, `CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}`);
  const url = databaseUrl(server, name);
  const db = createDb(url, 20);
  return {
    url,
    db,
    async drop() {
      await db.$disconnect();
      await dropDatabase(server, name);
    },
  };
}
