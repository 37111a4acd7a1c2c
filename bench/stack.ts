/**
 * The system under test, minus the API and worker processes: a Temporal dev server, a fresh
 * PostgreSQL database, the Proxmox VE simulator in this process and the demo catalog with room
 * for the whole run. Everything listens on 127.0.0.1 and is registered for cleanup.
 */
import { randomBytes } from 'node:crypto';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import { createClient, type PvecpClient } from '../clients/typescript/index';
import { databaseUrl, dropDatabase, ensureMigratedDatabase } from '../scripts/database';
import type { RunningTemporal } from '../scripts/temporal';
import { configSchema, loadConfig, type Config } from '../src/config';
import { ensureBootstrapAdmin } from '../src/db/bootstrap';
import { createDb, type Db } from '../src/db/client';
import { DEMO_NODES, seedDemoCatalog, type SeedResult } from '../src/db/seed';
import { secretBoxOf } from '../src/security/secrets';
import { createSimulator, DEFAULT_SIM_TOKEN, parseToken, type Simulator } from '../src/simulator/server';
import { startTemporalFor, type TemporalMode } from '../test/support/temporal';
import type { Cleanups } from './cleanups';
import { UNCOUNTED_APPLICATION } from './query-count';

const ADMIN_DATABASE_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/** The simulator's run-time options (`POST /_sim/options`). */
export interface SimTiming {
  taskMs: number;
  taskMsByType: Record<string, number>;
}

export interface Stack {
  temporal: RunningTemporal;
  /** The bench's own Temporal client (floor workflows, provision results). */
  temporalClient: TemporalClient;
  /** The bench's own small pool on the run's database. */
  db: Db;
  simulator: Simulator;
  simulatorUrl: string;
  /** The product's task queue. */
  queue: string;
  /**
   * The environment of the API and worker processes; `pollMs` sets TASK_POLL_INTERVAL_MS, null
   * leaves it at the production default.
   */
  env(pollMs: number | null): NodeJS.ProcessEnv;
  /** `env` parsed, for the processes that run in this one. */
  config(pollMs: number | null): Config;
  adminToken: string;
  seed: Extract<SeedResult, { seeded: true }>;
  setSimTiming(timing: SimTiming): Promise<void>;
}

export interface Catalog {
  /** One customer token per client (own tenant). */
  customerTokens: string[];
  /** What a create asks for. */
  order: { planId: string; locationId: string; imageId: string };
}

/** Gives every demo node room for `servers` small servers, and the location a /18 and a /64. */
async function roomForTheRun(admin: PvecpClient, connectionId: string, servers: number): Promise<string> {
  for (const node of DEMO_NODES) {
    const { response } = await admin.PATCH('/v1/admin/connections/{id}/nodes/{node}', {
      params: { path: { id: connectionId, node } },
      body: { vcpus: servers * 2, memoryMiB: servers * 2048, diskGiB: servers * 20 },
    });
    if (!response.ok) throw new Error(`node ${node}: capacity not raised (${response.status})`);
  }
  const pool4 = created('ip pool v4', await admin.POST('/v1/admin/ip-pools', { body: { cidr: '10.64.0.0/18', gateway: '10.64.0.1', bridge: 'vmbr0', dns: ['192.0.2.53'], family: 4 } }));
  const pool6 = created('ip pool v6', await admin.POST('/v1/admin/ip-pools', { body: { cidr: '2001:db8:b00::/64', gateway: '2001:db8:b00::1', bridge: 'vmbr0', dns: ['2001:db8::53'], family: 6 } }));
  return created('location', await admin.POST('/v1/admin/locations', { body: { name: 'bench', connectionId, ipPools: [pool4.id, pool6.id], backupStorage: 'local' } })).id;
}

/** The created item of an admin call, or an error naming what was refused. */
function created<T>(what: string, answer: { data?: { data: T }; error?: unknown; response: Response }): T {
  if (answer.response.status !== 201 || !answer.data) throw new Error(`${what}: ${answer.response.status} ${JSON.stringify(answer.error)}`);
  return answer.data.data;
}

function catalogId(ids: Record<string, string>, name: string): string {
  const id = ids[name];
  if (!id) throw new Error(`the demo catalog has no ${name}`);
  return id;
}

/** Starts everything but the API and the worker, with the demo catalog seeded. */
export async function startStack(cleanups: Cleanups, log: (line: string) => void, mode: TemporalMode): Promise<Stack> {
  const databaseName = `pvecp_bench_${randomBytes(4).toString('hex')}`;
  log(mode === 'cluster' ? `starting the Temporal cluster (databases ${databaseName}_temporal*)` : 'starting the Temporal dev server');
  if (mode === 'cluster') {
    for (const own of ['temporal', 'temporal_visibility']) cleanups.add(`database ${own}`, () => dropDatabase(ADMIN_DATABASE_URL, `${databaseName}_${own}`));
  }
  const temporal = await startTemporalFor(mode, databaseName, ADMIN_DATABASE_URL);
  cleanups.add('temporal', temporal.stop);

  log(`creating database ${databaseName}`);
  cleanups.add('database', () => dropDatabase(ADMIN_DATABASE_URL, databaseName));
  const url = databaseUrl(ADMIN_DATABASE_URL, databaseName);
  await ensureMigratedDatabase(url);

  // Zero task latency unless a phase says otherwise: what remains is the control plane's own time.
  const simulator = createSimulator({ token: DEFAULT_SIM_TOKEN, taskMs: 0, maxRecordedRequests: 0 });
  const listening = await simulator.listen(0, '127.0.0.1');
  cleanups.add('simulator', listening.close);

  const connection = await Connection.connect({ address: temporal.address });
  cleanups.add('bench temporal client', () => connection.close());
  const temporalClient = new TemporalClient({ connection, namespace: temporal.namespace });

  const adminToken = `bench_${randomBytes(24).toString('base64url')}`;
  const queue = `bench-${randomBytes(4).toString('hex')}`;
  // No setting of the product's comes from the bench's own environment: every one is at its
  // default but for where the processes reach and identify things, and the rate limits, which
  // would refuse the bench's clients (each figure is measured at the product's defaults).
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !(name in configSchema.shape)));
  const baseEnv: NodeJS.ProcessEnv = {
    ...inherited,
    NODE_ENV: 'production',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error',
    DATABASE_URL: url,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_NAMESPACE: temporal.namespace,
    TEMPORAL_TASK_QUEUE: queue,
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    BOOTSTRAP_ADMIN_TOKEN: adminToken,
    RATE_LIMIT_CREATE_PER_MINUTE: '1000000',
    RATE_LIMIT_CREATE_PER_HOUR: '1000000',
    RATE_LIMIT_READS_PER_MINUTE: '1000000',
  };
  const env = (pollMs: number | null): NodeJS.ProcessEnv => (pollMs === null ? { ...baseEnv } : { ...baseEnv, TASK_POLL_INTERVAL_MS: String(pollMs) });
  const config = (pollMs: number | null) => loadConfig(env(pollMs));

  // Named, so its statements (the bench's own) are left out of the query counts.
  const benchUrl = new URL(url);
  benchUrl.searchParams.set('application_name', UNCOUNTED_APPLICATION);
  const db: Db = createDb(benchUrl.toString(), 4);
  cleanups.add('bench db pool', () => db.$disconnect());
  await ensureBootstrapAdmin(db, adminToken);
  const { tokenId, secret } = parseToken(DEFAULT_SIM_TOKEN);
  const seed = await seedDemoCatalog(db, secretBoxOf(config(null)), { proxmoxUrl: listening.url, tokenId, tokenSecret: secret, plaintextLab: true });
  if (!seed.seeded) throw new Error('the demo catalog was not seeded');

  const setSimTiming = async (timing: SimTiming) => {
    const response = await fetch(`${listening.url}/_sim/options`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(timing) });
    if (!response.ok) throw new Error(`simulator options refused: ${response.status}`);
  };
  return { temporal, temporalClient, db, simulator, simulatorUrl: listening.url, queue, env, config, adminToken, setSimTiming, seed };
}

/** Room for `servers` small servers and one customer (own tenant, own token) per client, set up through an API at `apiUrl`. */
export async function prepareCatalog(stack: Stack, apiUrl: string, room: { servers: number; customers: number }): Promise<Catalog> {
  const admin = createClient({ baseUrl: apiUrl, token: stack.adminToken });
  const locationId = await roomForTheRun(admin, stack.seed.connectionId, room.servers);
  const quota = { instances: 100_000, vcpus: 1_000_000, memoryMiB: 2 ** 31 - 1, diskGiB: 2 ** 31 - 1 };
  const customerTokens: string[] = [];
  for (let i = 0; i < room.customers; i++) {
    const tenant = created('tenant', await admin.POST('/v1/admin/tenants', { body: { name: `bench-${i}`, quota } }));
    const user = created('user', await admin.POST('/v1/admin/users', { body: { tenantId: tenant.id, email: `bench-${i}@example.com`, role: 'customer' } }));
    customerTokens.push(created('token', await admin.POST('/v1/admin/users/{id}/tokens', { params: { path: { id: user.id } }, body: {} })).token);
  }
  return { customerTokens, order: { planId: catalogId(stack.seed.plans, 'small'), locationId, imageId: catalogId(stack.seed.images, 'debian-12') } };
}
