import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { inject } from 'vitest';
import { createDb, type Db } from '../../src/db/client';

export interface TestDatabase {
  url: string;
  db: Db;
  drop(): Promise<void>;
}

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: inject('adminDatabaseUrl') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A migrated database of this test file's own, copied from the run's template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `${inject('runId')}_${randomBytes(4).toString('hex')}`;
  await admin(`CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}`);
  const url = new URL(inject('adminDatabaseUrl'));
  url.pathname = `/${name}`;
  const db = createDb(url.toString(), 20);
  return {
    url: url.toString(),
    db,
    async drop() {
      await db.$disconnect();
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
