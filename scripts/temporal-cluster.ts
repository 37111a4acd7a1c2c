/**
 * Temporal's own server on PostgreSQL: frontend, history, matching and worker as four processes,
 * with persistence and visibility in databases of their own (temporal-cluster/).
 *
 *   npx tsx scripts/temporal-cluster.ts build   # build the server and its SQL tool when missing
 *   npx tsx scripts/temporal-cluster.ts start   # set up the databases, run the four services
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { temporal as proto } from '@temporalio/proto';
import { parse } from 'yaml';
import { z } from 'zod';
import { databaseUrl, maintenanceSql } from './database';
import { ensureGoBinaries, ensureTemporalCli, projectRoot, readTemporalDevConfig, temporalScript, waitForPort, type RunningTemporal } from './temporal';

export const CLUSTER_SERVICES = ['history', 'matching', 'frontend', 'worker'] as const;
export type ClusterService = (typeof CLUSTER_SERVICES)[number];

const clusterDir = path.join(projectRoot, 'temporal-cluster');
const ports = z.object({ grpc: z.number().int(), membership: z.number().int() });
const clusterConfigSchema = z.object({
  server: z.object({ module: z.string(), version: z.string(), schemaDir: z.string() }),
  namespace: z.string(),
  retentionDays: z.number().int().positive(),
  host: z.string(),
  ports: z.object({ frontend: ports.extend({ http: z.number().int() }), history: ports, matching: ports, worker: ports }),
  databases: z.object({ persistence: z.string(), visibility: z.string() }),
  historyShards: z.number().int().positive(),
  logLevel: z.string(),
});
export type TemporalClusterConfig = z.infer<typeof clusterConfigSchema>;

export function readTemporalClusterConfig(file = path.join(clusterDir, 'cluster.yaml')): TemporalClusterConfig {
  return clusterConfigSchema.parse(parse(fs.readFileSync(file, 'utf8')));
}

export interface TemporalServerBinaries {
  server: string;
  sqlTool: string;
}

/** The version of go.temporal.io/server linked into the CLI binary (`go version -m`). */
function serverVersionInCli(go: string, cli: string): string | undefined {
  const info = spawnSync(go, ['version', '-m', cli], { encoding: 'utf8' });
  return /^\s*dep\s+go\.temporal\.io\/server\s+(\S+)/m.exec(info.stdout ?? '')?.[1];
}

/** The server and temporal-sql-tool, built the first time (about 2.5 minutes after the CLI's build, which fills the module cache). */
export function ensureTemporalServer(config = readTemporalClusterConfig()): TemporalServerBinaries {
  const bin = path.join(projectRoot, '.tools', 'temporal-server', config.server.version);
  const binaries = { server: path.join(bin, 'server'), sqlTool: path.join(bin, 'sql') };
  ensureGoBinaries({
    what: `the Temporal server ${config.server.version}`,
    gobin: bin,
    targets: [`${config.server.module}/cmd/server@${config.server.version}`, `${config.server.module}/cmd/tools/sql@${config.server.version}`],
    binaries: Object.values(binaries),
    check: (go) => {
      // The schema files in the repository and the dev server's behaviour are those of this version.
      const embedded = serverVersionInCli(go, ensureTemporalCli());
      if (embedded && embedded !== config.server.version) {
        throw new Error(`temporal-cluster/cluster.yaml pins server ${config.server.version}, but the CLI embeds ${embedded}: change them together`);
      }
    },
  });
  return binaries;
}

export interface ClusterOverrides {
  /** PostgreSQL server (any database in the URL; the cluster's own databases are named below). */
  databaseServerUrl?: string;
  databases?: { persistence: string; visibility: string };
  ports?: TemporalClusterConfig['ports'];
  /** Where the services' logs go; null discards them. */
  logDir?: string | null;
}

interface ClusterPlan {
  config: TemporalClusterConfig;
  binaries: TemporalServerBinaries;
  env: NodeJS.ProcessEnv;
  logDir: string | null;
}

/** The variables temporal-cluster/config/development.yaml reads. */
function serviceEnvironment(config: TemporalClusterConfig, serverUrl: string): NodeJS.ProcessEnv {
  const db = new URL(serverUrl);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TEMPORAL_CLUSTER_LOG_LEVEL: config.logLevel,
    TEMPORAL_CLUSTER_HISTORY_SHARDS: String(config.historyShards),
    TEMPORAL_CLUSTER_HOST: config.host,
    TEMPORAL_CLUSTER_DB: config.databases.persistence,
    TEMPORAL_CLUSTER_VISIBILITY_DB: config.databases.visibility,
    TEMPORAL_CLUSTER_DB_HOST: db.hostname,
    TEMPORAL_CLUSTER_DB_PORT: db.port || '5432',
    TEMPORAL_CLUSTER_DB_USER: decodeURIComponent(db.username) || 'postgres',
    TEMPORAL_CLUSTER_DB_PASSWORD: decodeURIComponent(db.password),
    TEMPORAL_CLUSTER_DYNAMIC_CONFIG: path.join(clusterDir, 'config', 'dynamicconfig.yaml'),
    TEMPORAL_CLUSTER_FRONTEND_HTTP_PORT: String(config.ports.frontend.http),
  };
  for (const service of CLUSTER_SERVICES) {
    const upper = service.toUpperCase();
    env[`TEMPORAL_CLUSTER_${upper}_PORT`] = String(config.ports[service].grpc);
    env[`TEMPORAL_CLUSTER_${upper}_MEMBERSHIP_PORT`] = String(config.ports[service].membership);
  }
  return env;
}

/** Creates the two databases when missing and brings their schemas to the server's version (update-schema is a no-op when current). */
async function prepareDatabases(plan: ClusterPlan, serverUrl: string): Promise<void> {
  const { config, binaries, env } = plan;
  const connection = ['--plugin', 'postgres12', '--ep', env.TEMPORAL_CLUSTER_DB_HOST!, '-p', env.TEMPORAL_CLUSTER_DB_PORT!, '-u', env.TEMPORAL_CLUSTER_DB_USER!];
  const sqlTool = (database: string, args: string[]) => {
    // The password goes by environment (SQL_PASSWORD), never on a command line.
    const result = spawnSync(binaries.sqlTool, [...connection, '--db', database, ...args], {
      encoding: 'utf8',
      env: { ...process.env, SQL_PASSWORD: env.TEMPORAL_CLUSTER_DB_PASSWORD },
    });
    if (result.status !== 0) throw new Error(`temporal-sql-tool ${args[0]} on ${database} failed:\n${result.stdout}${result.stderr}`);
  };
  const schemas = [
    { database: config.databases.persistence, dir: path.resolve(projectRoot, config.server.schemaDir, 'temporal', 'versioned') },
    { database: config.databases.visibility, dir: path.resolve(projectRoot, config.server.schemaDir, 'visibility', 'versioned') },
  ];
  for (const { database, dir } of schemas) {
    const exists = await maintenanceSql(serverUrl, 'SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.length === 0) {
      sqlTool(database, ['create-database']);
      sqlTool(database, ['setup-schema', '-v', '0.0']);
    }
    sqlTool(database, ['update-schema', '-d', dir]);
  }
}

function spawnService(plan: ClusterPlan, service: ClusterService): ChildProcess {
  const log = plan.logDir ? fs.openSync(path.join(plan.logDir, `${service}.log`), 'a') : 'ignore';
  // --config is relative to --root.
  const args = ['--root', projectRoot, '--config', path.relative(projectRoot, path.join(clusterDir, 'config')), '--env', 'development', '--allow-no-auth', 'start', '--service', service];
  const child = spawn(plan.binaries.server, args, { env: plan.env, stdio: ['ignore', log, log] });
  if (typeof log === 'number') fs.closeSync(log);
  return child;
}

function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });
}

/** Until the frontend answers for the namespace, registering it and our search attributes when missing. */
async function ensureNamespace(address: string, config: TemporalClusterConfig): Promise<void> {
  const connection = await Connection.connect({ address });
  const { IndexedValueType } = proto.api.enums.v1;
  try {
    const deadline = Date.now() + 90_000;
    for (;;) {
      try {
        await connection.workflowService.registerNamespace({
          namespace: config.namespace,
          workflowExecutionRetentionPeriod: msToTs(`${config.retentionDays} days`),
        });
        break;
      } catch (error) {
        if ((error as { code?: number }).code === 6 /* ALREADY_EXISTS */) break;
        // The frontend answers before history and matching have joined the ring.
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
    const wanted = readTemporalDevConfig().searchAttributes;
    const types: Record<string, number> = {
      Keyword: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
      Text: IndexedValueType.INDEXED_VALUE_TYPE_TEXT,
      Int: IndexedValueType.INDEXED_VALUE_TYPE_INT,
      Double: IndexedValueType.INDEXED_VALUE_TYPE_DOUBLE,
      Bool: IndexedValueType.INDEXED_VALUE_TYPE_BOOL,
      Datetime: IndexedValueType.INDEXED_VALUE_TYPE_DATETIME,
      KeywordList: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD_LIST,
    };
    for (;;) {
      try {
        const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace: config.namespace });
        const missing = Object.entries(wanted).filter(([name]) => !(name in customAttributes));
        if (missing.length > 0) {
          await connection.operatorService.addSearchAttributes({
            namespace: config.namespace,
            searchAttributes: Object.fromEntries(missing.map(([name, type]) => [name, types[type]!])),
          });
        }
        // A namespace is usable once the frontend's registry has it.
        await connection.workflowService.describeNamespace({ namespace: config.namespace });
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  } finally {
    await connection.close();
  }
}

export interface RunningTemporalCluster extends RunningTemporal {
  config: TemporalClusterConfig;
  /** The running process of each service. */
  services: Record<ClusterService, ChildProcess>;
  /** Kills one service as a crash would (SIGKILL) and waits for it to be gone. */
  kill(service: ClusterService): Promise<void>;
  /** Starts a service again with the same configuration and waits for its membership port. */
  restart(service: ClusterService): Promise<void>;
}

/** Sets up the databases and runs the four services until `stop()`. */
export async function startTemporalCluster(overrides: ClusterOverrides = {}): Promise<RunningTemporalCluster> {
  const base = readTemporalClusterConfig();
  const config: TemporalClusterConfig = { ...base, databases: overrides.databases ?? base.databases, ports: overrides.ports ?? base.ports };
  const serverUrl = overrides.databaseServerUrl ?? process.env.TEMPORAL_CLUSTER_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const logDir = overrides.logDir === undefined ? path.join(projectRoot, '.data', 'temporal-cluster') : overrides.logDir;
  if (logDir) fs.mkdirSync(logDir, { recursive: true });
  const plan: ClusterPlan = { config, binaries: ensureTemporalServer(base), env: serviceEnvironment(config, databaseUrl(serverUrl, 'postgres')), logDir };
  await prepareDatabases(plan, serverUrl);

  const services = {} as Record<ClusterService, ChildProcess>;
  const stopAll = async () => {
    // The frontend first, so that clients see one clean refusal instead of half a cluster.
    for (const service of ['frontend', 'worker', 'matching', 'history'] as const) if (services[service]) await stopProcess(services[service]);
  };
  const launch = async (service: ClusterService) => {
    const child = spawnService(plan, service);
    services[service] = child;
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code, signal) => reject(new Error(`temporal ${service} service exited early (${code ?? signal})${logDir ? `; see ${logDir}/${service}.log` : ''}`))),
    );
    exited.catch(() => undefined);
    // Every service gossips on its membership port; the worker service serves no gRPC of its own.
    await Promise.race([waitForPort(config.host, config.ports[service].membership, 60_000), exited]);
  };
  const address = `${config.host}:${config.ports.frontend.grpc}`;
  try {
    // The first service writes the cluster's metadata into a fresh database; started together,
    // all but one would lose that race and exit.
    const [first, ...others] = CLUSTER_SERVICES;
    await launch(first);
    await Promise.all(others.map(launch));
    await ensureNamespace(address, config);
  } catch (error) {
    await stopAll();
    throw error;
  }
  return {
    address,
    namespace: config.namespace,
    config,
    services,
    pids: () => CLUSTER_SERVICES.map((service) => services[service].pid).filter((pid): pid is number => pid !== undefined),
    kill: (service) => stopProcess(services[service], 'SIGKILL'),
    restart: (service) => launch(service),
    stop: stopAll,
  };
}

if (require.main === module) {
  temporalScript('scripts/temporal-cluster.ts', () => ensureTemporalServer().server, async () => {
    const cluster = await startTemporalCluster();
    console.error(`Temporal cluster on ${cluster.address} (namespace ${cluster.namespace}); service logs in .data/temporal-cluster`);
    return cluster;
  });
}
