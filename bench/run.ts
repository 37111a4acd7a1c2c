/**
 * Benchmark of the whole control plane on one machine: the API and a worker in this process,
 * the Proxmox VE simulator in this process with zero task latency, a Temporal dev server (in
 * memory, headless) and a fresh PostgreSQL database of its own. Everything listens on 127.0.0.1;
 * the run stops by itself, drops its database and stops Temporal.
 *
 *   npm run bench
 *   npm run bench -- --creates=400 --concurrency=16 --provisions=100 --poll-ms=50
 *
 * Measures
 *   (a) create-API latency: POST /v1/instances from `concurrency` clients, `creates` requests,
 *       with no worker serving those workflows (the API's own cost: validation, one reservation
 *       transaction, starting the workflow);
 *   (b) end-to-end provisioning: `provisions` creates from `concurrency` clients with the worker
 *       running, timed from the first request until every server is `running`;
 *   (c) peak resident memory of this process (API + worker + simulator), and of the Temporal
 *       dev server.
 * Writes bench/results.json and prints a table. See bench/README.md.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import { createClient, type PvecpClient } from '../clients/typescript/index';
import { databaseUrl, dropDatabase, ensureMigratedDatabase } from '../scripts/database';
import { startTemporalDevServer, type RunningDevServer } from '../scripts/temporal';
import { createApp } from '../src/api/app';
import { loadConfig, type Config } from '../src/config';
import { ensureBootstrapAdmin } from '../src/db/bootstrap';
import { createDb, type Db } from '../src/db/client';
import { DEMO_NODES, seedDemoCatalog } from '../src/db/seed';
import { createLogger } from '../src/logger';
import { secretBoxOf } from '../src/security/secrets';
import { createSimulator, DEFAULT_SIM_TOKEN, parseToken } from '../src/simulator/server';
import { startWorker, type RunningWorker } from '../src/worker';
import { freePort } from '../test/support/ports';

// ---------------------------------------------------------------- options

interface Options {
  creates: number;
  concurrency: number;
  provisions: number;
  /** Proxmox task polling interval of the worker (TASK_POLL_INTERVAL_MS). */
  pollMs: number;
  /** Give up on phase (b) after this long. */
  timeoutS: number;
}

const DEFAULTS: Options = { creates: 400, concurrency: 16, provisions: 100, pollMs: 50, timeoutS: 300 };
const LIMITS: Record<keyof Options, [number, number]> = {
  creates: [1, 5000],
  concurrency: [1, 256],
  provisions: [1, 2000],
  pollMs: [1, 5000],
  timeoutS: [10, 3600],
};
const FLAG_NAMES: Record<string, keyof Options> = {
  creates: 'creates',
  concurrency: 'concurrency',
  provisions: 'provisions',
  'poll-ms': 'pollMs',
  'timeout-s': 'timeoutS',
};

function parseOptions(argv: string[]): Options {
  const options = { ...DEFAULTS };
  for (const arg of argv) {
    const match = /^--([a-z-]+)=(\d+)$/.exec(arg);
    const key = match?.[1] ? FLAG_NAMES[match[1]] : undefined;
    if (!match || !key) throw new Error(`unknown argument ${arg}; use --creates=N --concurrency=N --provisions=N --poll-ms=N --timeout-s=N`);
    const value = Number(match[2]);
    const [min, max] = LIMITS[key];
    if (value < min || value > max) throw new Error(`--${match[1]} must be ${min}..${max}`);
    options[key] = value;
  }
  return options;
}

// ---------------------------------------------------------------- small tools

const ADMIN_DATABASE_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/** Nearest-rank percentile of ascending values. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const mib = (bytes: number) => round(bytes / 1024 / 1024);

/** Runs `count` jobs on `concurrency` clients; each client takes the next job when its last one ends. */
async function runClients<T>(count: number, concurrency: number, job: (index: number, client: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  const client = async (id: number) => {
    while (next < count) {
      const index = next++;
      results[index] = await job(index, id);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, (_, id) => client(id)));
  return results;
}

/** The Temporal dev server's peak resident memory (Linux), or null elsewhere. */
function peakRssOfPid(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1];
    return kib ? Number(kib) * 1024 : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- the system under test

interface Api {
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * The HTTP API as src/server.ts starts it (same app, own database pool and Temporal client),
 * bound to 127.0.0.1 only.
 */
async function startApi(config: Config): Promise<Api> {
  const db = createDb(config.DATABASE_URL);
  const connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
  const temporal = new TemporalClient({ connection, namespace: config.TEMPORAL_NAMESPACE });
  const app = createApp({ db, temporal, config, logger: createLogger('api', config.LOG_LEVEL), secrets: secretBoxOf(config) });
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(listening)));
  });
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await connection.close();
      await db.$disconnect();
    },
  };
}

/** One create as a client saw it. */
interface CreateAnswer {
  status: number;
  id?: string;
  errorCode?: string;
  ms: number;
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

// ---------------------------------------------------------------- the run

interface Results {
  date: string;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; platform: string; node: string };
  options: Options;
  createLatency: { requests: number; concurrency: number; accepted: number; refused: Record<string, number>; p50Ms: number; p90Ms: number; p99Ms: number; maxMs: number; requestsPerS: number };
  endToEnd: {
    instances: number;
    running: number;
    failed: number;
    wallS: number;
    provisionsPerS: number;
    createP50Ms: number;
    createP99Ms: number;
    provisionP50Ms: number;
    provisionP99Ms: number;
  };
  memory: { peakRssMiB: number; temporalPeakRssMiB: number | null };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const cleanups: { name: string; run: () => Promise<void> }[] = [];
  const cleanUp = async () => {
    for (const { name, run } of cleanups.splice(0).reverse()) {
      await run().catch((error: unknown) => console.error(`cleanup (${name}) failed:`, error instanceof Error ? error.message : error));
    }
  };
  let interrupted = false;
  const onSignal = () => {
    if (interrupted) return;
    interrupted = true;
    console.error('interrupted; cleaning up');
    void cleanUp().then(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const log = (line: string) => console.error(`[bench] ${line}`);

  let temporal: RunningDevServer | undefined;
  try {
    // -- Temporal: in memory, no UI, on a free port of 127.0.0.1.
    log('starting the Temporal dev server');
    temporal = await startTemporalDevServer({ port: await freePort(), dbFilename: null, headless: true }, { stdio: 'ignore' });
    cleanups.push({ name: 'temporal', run: (temporal as RunningDevServer).stop });

    // -- PostgreSQL: a database of our own, migrated, dropped at the end.
    const databaseName = `pvecp_bench_${randomBytes(4).toString('hex')}`;
    log(`creating database ${databaseName}`);
    cleanups.push({ name: 'database', run: () => dropDatabase(ADMIN_DATABASE_URL, databaseName) });
    await ensureMigratedDatabase(databaseUrl(ADMIN_DATABASE_URL, databaseName));

    // -- The simulator with zero task latency: what remains is the control plane's own time.
    const simulator = createSimulator({ token: DEFAULT_SIM_TOKEN, taskMs: 0 });
    const sim = await simulator.listen(0, '127.0.0.1');
    cleanups.push({ name: 'simulator', run: sim.close });

    const adminToken = `bench_${randomBytes(24).toString('base64url')}`;
    const queue = `bench-${randomBytes(4).toString('hex')}`;
    const config = loadConfig({
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error',
      DATABASE_URL: databaseUrl(ADMIN_DATABASE_URL, databaseName),
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_NAMESPACE: temporal.namespace,
      TEMPORAL_TASK_QUEUE: queue,
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      BOOTSTRAP_ADMIN_TOKEN: adminToken,
      RATE_LIMIT_CREATE_PER_MINUTE: '1000000',
      RATE_LIMIT_CREATE_PER_HOUR: '1000000',
      TASK_POLL_INTERVAL_MS: String(options.pollMs),
      STAGE_TIMEOUT_SCALE: '1',
    });

    // -- The demo catalog, with room for every server the run makes.
    const db: Db = createDb(config.DATABASE_URL, 4);
    cleanups.push({ name: 'bench db pool', run: () => db.$disconnect() });
    await ensureBootstrapAdmin(db, adminToken);
    const { tokenId, secret } = parseToken(DEFAULT_SIM_TOKEN);
    const seed = await seedDemoCatalog(db, secretBoxOf(config), { proxmoxUrl: sim.url, tokenId, tokenSecret: secret, plaintextLab: true });
    if (!seed.seeded) throw new Error('the demo catalog was not seeded');
    const total = options.creates + options.provisions + options.concurrency;

    // -- Two APIs on one database: one whose workflows no worker serves (phase a), one served (phase b).
    const unserved = await startApi({ ...config, TEMPORAL_TASK_QUEUE: `${queue}-unserved` });
    cleanups.push({ name: 'api (a)', run: unserved.close });
    const served = await startApi(config);
    cleanups.push({ name: 'api (b)', run: served.close });

    // A location with address room for the whole run (the demo /24 holds 253).
    const admin = createClient({ baseUrl: served.baseUrl, token: adminToken });
    // The demo nodes hold 96 small servers in all: give each room for the whole run, as an admin would.
    for (const node of DEMO_NODES) {
      const { response } = await admin.PATCH('/v1/admin/connections/{id}/nodes/{node}', {
        params: { path: { id: seed.connectionId, node } },
        body: { vcpus: total * 2, memoryMiB: total * 2048, diskGiB: total * 20 },
      });
      if (!response.ok) throw new Error(`node ${node}: capacity not raised (${response.status})`);
    }
    const pool4 = created('ip pool v4', await admin.POST('/v1/admin/ip-pools', { body: { cidr: '10.64.0.0/18', gateway: '10.64.0.1', bridge: 'vmbr0', dns: ['192.0.2.53'], family: 4 } }));
    const pool6 = created('ip pool v6', await admin.POST('/v1/admin/ip-pools', { body: { cidr: '2001:db8:b00::/64', gateway: '2001:db8:b00::1', bridge: 'vmbr0', dns: ['2001:db8::53'], family: 6 } }));
    const location = created('location', await admin.POST('/v1/admin/locations', { body: { name: 'bench', connectionId: seed.connectionId, ipPools: [pool4.id, pool6.id] } }));

    // One customer (own tenant, own token) per client, as independent panels would be.
    const quota = { instances: 100_000, vcpus: 1_000_000, memoryMiB: 2 ** 31 - 1, diskGiB: 2 ** 31 - 1 };
    const customers: { unserved: PvecpClient; served: PvecpClient }[] = [];
    for (let i = 0; i < options.concurrency; i++) {
      const tenant = created('tenant', await admin.POST('/v1/admin/tenants', { body: { name: `bench-${i}`, quota } }));
      const user = created('user', await admin.POST('/v1/admin/users', { body: { tenantId: tenant.id, email: `bench-${i}@example.com`, role: 'customer' } }));
      const { token } = created('token', await admin.POST('/v1/admin/users/{id}/tokens', { params: { path: { id: user.id } }, body: {} }));
      customers.push({ unserved: createClient({ baseUrl: unserved.baseUrl, token }), served: createClient({ baseUrl: served.baseUrl, token }) });
    }
    const planId = catalogId(seed.plans, 'small');
    const imageId = catalogId(seed.images, 'debian-12');
    const create = async (api: 'unserved' | 'served', index: number, clientId: number, prefix: string): Promise<CreateAnswer> => {
      const client = customers[clientId]?.[api];
      if (!client) throw new Error(`no client ${clientId}`);
      const started = performance.now();
      const { data, error, response } = await client.POST('/v1/instances', { body: { planId, locationId: location.id, imageId, hostname: `${prefix}-${index}` } });
      return { status: response.status, id: data?.data.id, errorCode: error?.error.code, ms: performance.now() - started };
    };

    // -- (a) create-API latency.
    log(`(a) warming up, then ${options.creates} creates from ${options.concurrency} clients (no worker)`);
    await runClients(options.concurrency, options.concurrency, (i, c) => create('unserved', i, c, 'warm'));
    const aStarted = performance.now();
    const aAnswers = await runClients(options.creates, options.concurrency, (i, c) => create('unserved', i, c, 'lat'));
    const aSeconds = (performance.now() - aStarted) / 1000;
    const aLatencies = aAnswers.map((a) => a.ms).sort((x, y) => x - y);
    const refused: Record<string, number> = {};
    for (const answer of aAnswers.filter((a) => a.status !== 202)) {
      const key = `${answer.status} ${answer.errorCode ?? ''}`.trim();
      refused[key] = (refused[key] ?? 0) + 1;
    }

    // -- (b) end to end: creates with the worker running, until every server runs.
    log('starting the worker');
    const worker: RunningWorker = await startWorker(config);
    cleanups.push({ name: 'worker', run: worker.shutdown });
    log(`(b) ${options.provisions} creates from ${options.concurrency} clients, until all are running`);
    const bStarted = performance.now();
    const bAnswers = await runClients(options.provisions, options.concurrency, (i, c) => create('served', i, c, 'e2e'));
    const ids = bAnswers.flatMap((a) => (a.status === 202 && a.id ? [a.id] : []));
    const deadline = Date.now() + options.timeoutS * 1000;
    let settled = { running: 0, failed: 0 };
    for (;;) {
      const groups = await db.instance.groupBy({ by: ['status'], where: { id: { in: ids } }, _count: { _all: true } });
      const count = (status: string) => groups.find((g) => g.status === status)?._count._all ?? 0;
      settled = { running: count('running'), failed: count('failed') + count('rollback_failed') };
      if (settled.running + settled.failed >= ids.length) break;
      if (Date.now() > deadline) {
        log(`(b) gave up after ${options.timeoutS} s: ${JSON.stringify(Object.fromEntries(groups.map((g) => [g.status, g._count._all])))}`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const bSeconds = (performance.now() - bStarted) / 1000;
    const tasks = await db.task.findMany({ where: { instanceId: { in: ids }, type: 'INSTANCE_CREATE', status: 'succeeded' }, select: { createdAt: true, finishedAt: true } });
    const provisionMs = tasks.flatMap((t) => (t.finishedAt ? [t.finishedAt.getTime() - t.createdAt.getTime()] : [])).sort((x, y) => x - y);
    const bLatencies = bAnswers.map((a) => a.ms).sort((x, y) => x - y);

    const cpus = os.cpus();
    const results: Results = {
      date: new Date().toISOString(),
      machine: { cpus: cpus.length, cpuModel: cpus[0]?.model.trim() ?? 'unknown', memoryGiB: round(os.totalmem() / 2 ** 30), platform: `${os.platform()} ${os.release()}`, node: process.version },
      options,
      createLatency: {
        requests: options.creates,
        concurrency: options.concurrency,
        accepted: aAnswers.filter((a) => a.status === 202).length,
        refused,
        p50Ms: round(percentile(aLatencies, 50)),
        p90Ms: round(percentile(aLatencies, 90)),
        p99Ms: round(percentile(aLatencies, 99)),
        maxMs: round(aLatencies[aLatencies.length - 1] ?? Number.NaN),
        requestsPerS: round(options.creates / aSeconds),
      },
      endToEnd: {
        instances: options.provisions,
        running: settled.running,
        failed: settled.failed + (options.provisions - ids.length),
        wallS: round(bSeconds, 2),
        provisionsPerS: round(settled.running / bSeconds, 2),
        createP50Ms: round(percentile(bLatencies, 50)),
        createP99Ms: round(percentile(bLatencies, 99)),
        provisionP50Ms: round(percentile(provisionMs, 50)),
        provisionP99Ms: round(percentile(provisionMs, 99)),
      },
      memory: {
        peakRssMiB: mib(process.resourceUsage().maxRSS * 1024),
        temporalPeakRssMiB: (() => {
          const bytes = peakRssOfPid(temporal?.process.pid);
          return bytes === null ? null : mib(bytes);
        })(),
      },
    };

    fs.writeFileSync(path.join(__dirname, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
    printTable(results);
  } finally {
    await cleanUp();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

function printTable(r: Results): void {
  const { createLatency: a, endToEnd: b, memory: m } = r;
  const rows: [string, string][] = [
    ['machine', `${r.machine.cpus} × ${r.machine.cpuModel}, ${r.machine.memoryGiB} GiB, ${r.machine.node}`],
    ['(a) create API, requests', `${a.requests} from ${a.concurrency} clients, ${a.accepted} accepted${Object.keys(a.refused).length ? `, refused ${JSON.stringify(a.refused)}` : ''}`],
    ['(a) latency p50 / p90 / p99 / max', `${a.p50Ms} / ${a.p90Ms} / ${a.p99Ms} / ${a.maxMs} ms`],
    ['(a) throughput', `${a.requestsPerS} creates/s`],
    ['(b) end to end', `${b.running} of ${b.instances} running${b.failed ? `, ${b.failed} failed` : ''} in ${b.wallS} s`],
    ['(b) provisions per second', `${b.provisionsPerS}`],
    ['(b) create latency p50 / p99 (worker busy)', `${b.createP50Ms} / ${b.createP99Ms} ms`],
    ['(b) create → running p50 / p99', `${b.provisionP50Ms} / ${b.provisionP99Ms} ms`],
    ['(c) peak RSS, API + worker + simulator', `${m.peakRssMiB} MiB`],
    ['(c) peak RSS, Temporal dev server', m.temporalPeakRssMiB === null ? 'n/a' : `${m.temporalPeakRssMiB} MiB`],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  console.log('');
  for (const [name, value] of rows) console.log(`${name.padEnd(width)}  ${value}`);
  console.log('\nwritten to bench/results.json');
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
