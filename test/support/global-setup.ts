import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { buildWorkflowBundle } from '../../scripts/build-workflows';
import { databaseUrl, dropDatabase, ensureMigratedDatabase, maintenanceSql } from '../../scripts/database';
import type { RunningTemporal } from '../../scripts/temporal';
import { startTemporalFor, temporalModeOf } from './temporal';

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

/**
 * One real Temporal server per test run (the dev server in memory, or with TEST_TEMPORAL=cluster
 * the four-process cluster on PostgreSQL) and one migrated template database; each test file
 * clones the template into a database of its own.
 */
export default async function setup(project: TestProject) {
  const runId = `cp_test_${randomBytes(4).toString('hex')}`;
  const templateDatabase = `${runId}_tpl`;
  const mode = temporalModeOf(process.env.TEST_TEMPORAL, 'TEST_TEMPORAL');
  let temporal: RunningTemporal | undefined;
  // Bundled once for the run: every worker in every test file (and spawned ones) loads it.
  const workflowBundlePath = path.join(os.tmpdir(), `${runId}-workflows.js`);
  // The template, every file's own database and the cluster's two when TEST_TEMPORAL=cluster.
  const dropRunDatabases = async () => {
    const leftovers = await maintenanceSql(adminDatabaseUrl, 'SELECT datname FROM pg_database WHERE datname LIKE $1', [`${runId}%`]);
    for (const name of leftovers) await dropDatabase(adminDatabaseUrl, String(name));
  };
  try {
    await buildWorkflowBundle(workflowBundlePath);
    temporal = await startTemporalFor(mode, runId, adminDatabaseUrl);
    await ensureMigratedDatabase(databaseUrl(adminDatabaseUrl, templateDatabase));
  } catch (error) {
    await temporal?.stop();
    await dropRunDatabases();
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
    await dropRunDatabases();
  };
}
