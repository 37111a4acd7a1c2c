import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { TestProject } from 'vitest/node';
import { buildWorkflowBundle } from '../../scripts/build-workflows';
import { projectRoot, startTemporalDevServer, type RunningDevServer } from '../../scripts/temporal';
import { freePort } from './ports';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
    workflowBundlePath: string;
    adminDatabaseUrl: string;
    templateDatabase: string;
    runId: string;
  }
}

const adminDatabaseUrl = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export function databaseUrl(name: string): string {
  const url = new URL(adminDatabaseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function adminQuery(sql: string): Promise<string[]> {
  const client = new Client({ connectionString: adminDatabaseUrl });
  await client.connect();
  try {
    const result = await client.query(sql);
    return result.rows.map((row: Record<string, string>) => Object.values(row)[0] as string);
  } finally {
    await client.end();
  }
}

/**
 * One real Temporal dev server (in memory, no UI) and one migrated template database per test
 * run; each test file clones the template into a database of its own.
 */
export default async function setup(project: TestProject) {
  const runId = `cp_test_${randomBytes(4).toString('hex')}`;
  const templateDatabase = `${runId}_tpl`;
  let temporal: RunningDevServer | undefined;
  // Bundled once for the run: every worker in every test file (and spawned ones) loads it.
  const workflowBundlePath = path.join(os.tmpdir(), `${runId}-workflows.js`);
  try {
    await buildWorkflowBundle(workflowBundlePath);
    temporal = await startTemporalDevServer({ port: await freePort(), dbFilename: null, headless: true }, { stdio: 'ignore' });
    await adminQuery(`CREATE DATABASE ${templateDatabase}`);
    const migrate = spawnSync('npx', ['prisma', 'migrate', 'deploy'], {
      cwd: projectRoot,
      env: { ...process.env, DATABASE_URL: databaseUrl(templateDatabase) },
      encoding: 'utf8',
    });
    if (migrate.status !== 0) throw new Error(`prisma migrate deploy failed:\n${migrate.stdout}\n${migrate.stderr}`);
  } catch (error) {
    await temporal?.stop();
    throw error;
  }
  project.provide('temporalAddress', temporal.address);
  project.provide('adminDatabaseUrl', adminDatabaseUrl);
  project.provide('templateDatabase', templateDatabase);
  project.provide('runId', runId);
  project.provide('workflowBundlePath', workflowBundlePath);

  return async () => {
    await temporal?.stop();
    fs.rmSync(workflowBundlePath, { force: true });
    const leftovers = await adminQuery(`SELECT datname FROM pg_database WHERE datname LIKE '${runId}%'`);
    for (const name of leftovers) await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
}
