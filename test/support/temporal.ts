import os from 'node:os';
import path from 'node:path';
import { startTemporalCluster, type RunningTemporalCluster, type TemporalClusterConfig } from '../../scripts/temporal-cluster';
import { startTemporalDevServer, type RunningTemporal } from '../../scripts/temporal';
import { freePort, freePortIn } from './ports';

/** Which Temporal the tests and the bench run on: the dev server (default) or the four-process cluster on PostgreSQL. */
export type TemporalMode = 'dev' | 'cluster';

export function temporalModeOf(value: string | undefined, source: string): TemporalMode {
  if (value === undefined || value === '' || value === 'dev') return 'dev';
  if (value === 'cluster') return 'cluster';
  throw new Error(`${source} must be dev or cluster, not ${value}`);
}

async function freeClusterPorts(): Promise<TemporalClusterConfig['ports']> {
  // The cluster_membership table keeps membership ports as smallint: below 32768.
  const service = async () => ({ grpc: await freePort(), membership: await freePortIn(20_000, 32_000) });
  return {
    frontend: { ...(await service()), http: await freePort() },
    history: await service(),
    matching: await service(),
    worker: await service(),
  };
}

/**
 * A cluster of our own: databases `<name>_temporal` and `<name>_temporal_visibility` on the
 * PostgreSQL server at `databaseServerUrl`, every port free, service logs in the temporary directory.
 */
export async function startOwnTemporalCluster(name: string, databaseServerUrl: string): Promise<RunningTemporalCluster> {
  return startTemporalCluster({
    databaseServerUrl,
    databases: { persistence: `${name}_temporal`, visibility: `${name}_temporal_visibility` },
    ports: await freeClusterPorts(),
    logDir: path.join(os.tmpdir(), `${name}-temporal`),
  });
}

/** The dev server in memory without its UI, or a cluster of our own named `name`. */
export async function startTemporalFor(mode: TemporalMode, name: string, databaseServerUrl: string): Promise<RunningTemporal> {
  if (mode === 'cluster') return startOwnTemporalCluster(name, databaseServerUrl);
  return startTemporalDevServer({ port: await freePort(), dbFilename: null, headless: true }, { stdio: 'ignore' });
}
