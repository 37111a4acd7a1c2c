/** PostgreSQL housekeeping for scripts and tests: databases of our own, created, migrated, dropped. */
import { spawnSync } from 'node:child_process';
import { Client } from 'pg';
import { projectRoot } from './temporal';

/** The same server's URL with another database name. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs statements on the server's maintenance database; returns the first column of each row. */
export async function maintenanceSql(serverUrl: string, sql: string, values: unknown[] = []): Promise<unknown[]> {
  const client = new Client({ connectionString: databaseUrl(serverUrl, 'postgres') });
  await client.connect();
  try {
    const result = await client.query(sql, values);
    return result.rows.map((row: Record<string, unknown>) => Object.values(row)[0]);
  } finally {
    await client.end();
  }
}

export function migrate(url: string): void {
  const result = spawnSync('npx', ['prisma', 'migrate', 'deploy'], { cwd: projectRoot, env: { ...process.env, DATABASE_URL: url }, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`prisma migrate deploy failed:\n${result.stdout}\n${result.stderr}`);
}

/** Creates the database in `url` when it is missing, then applies every migration. */
export async function ensureMigratedDatabase(url: string): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const exists = await maintenanceSql(url, 'SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (exists.length === 0) await maintenanceSql(url, `CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  migrate(url);
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await maintenanceSql(serverUrl, `DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
}
