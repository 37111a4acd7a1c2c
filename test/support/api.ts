import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, inject } from 'vitest';
import { createClient, type PvecpClient } from '../../clients/typescript/index';
import { attachConsoleSockets, type ConsoleSockets } from '../../src/api/console-relay';
import { createApp } from '../../src/api/app';
import type { ApiDeps } from '../../src/api/deps';
import { loadConfig, type Config } from '../../src/config';
import { ensureBootstrapAdmin } from '../../src/db/bootstrap';
import type { Db } from '../../src/db/client';
import { seedDemoCatalog, type DemoProxmox, type SeedResult } from '../../src/db/seed';
import { createLogger } from '../../src/logger';
import { INTERACTIVE_TIMEOUT_MS, proxmoxClientFactory } from '../../src/proxmox/factory';
import { secretBoxOf } from '../../src/security/secrets';
import { connectTemporalClient } from '../../src/temporal/connection';
import { createTestDatabase, type TestDatabase } from './database';

export interface StartTestApiOptions {
  /** Extra configuration variables, applied over the test defaults (e.g. RATE_LIMIT_CREATE_PER_MINUTE). */
  env?: Record<string, string>;
  /** A database to use instead of a fresh one; it is not dropped on close. */
  database?: TestDatabase;
  /**
   * Replace any dependency the app gets (a Prisma client pointing elsewhere, a stub Temporal
   * client, ...). The bootstrap admin token is still made in `database`.
   */
  deps?: Partial<ApiDeps>;
}

export interface TestRequestOptions {
  /** Bearer token; none when omitted. */
  token?: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as-is (with content-type application/json unless headers say otherwise); wins over body. */
  rawBody?: string;
  headers?: Record<string, string>;
}

 
export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response is JSON, else the text. */
  body: T;
  text: string;
}

export interface Quota {
  instances: number;
  vcpus: number;
  memoryMiB: number;
  diskGiB: number;
}

export interface TestCustomer {
  tenantId: string;
  userId: string;
  email: string;
  token: string;
}

export interface TestApi {
  baseUrl: string;
  db: Db;
  database: TestDatabase;
  deps: ApiDeps;
  config: Config;
  temporal: Client;
  /** The BOOTSTRAP_ADMIN_TOKEN this app started with (the one of the database's first app, unless env names another). */
  adminToken: string;
  /** The typed client (clients/typescript) with this token. */
  client(token: string): PvecpClient;
  /** Untyped HTTP, for what the typed client cannot send: malformed input, unknown fields, raw headers. */
  request<T = any>(method: string, path: string, options?: TestRequestOptions): Promise<TestResponse<T>>;
  /** A new tenant (default quota: 10 instances, 40 vCPUs, 64 GiB, 1000 GiB) with one customer and a token, made through the admin API. */
  createCustomer(quota?: Partial<Quota>, options?: { tenantId?: string; email?: string }): Promise<TestCustomer>;
  /** The demo catalog (see src/db/seed.ts), pointing at the given Proxmox VE (or simulator) endpoint. */
  seedDemo(proxmox?: Partial<DemoProxmox>): Promise<SeedResult>;
  /** The guest console WebSocket of this API (attached as src/server.ts attaches it). */
  consoles: ConsoleSockets;
  close(): Promise<void>;
}

export const DEFAULT_TEST_QUOTA: Quota = { instances: 10, vcpus: 40, memoryMiB: 65_536, diskGiB: 1_000 };

const random = (bytes = 6) => randomBytes(bytes).toString('hex');

const bootstrapTokens = new WeakMap<TestDatabase, string>();

/**
 * The API on a random port against its own migrated database and the run's Temporal dev server,
 * with a bootstrap admin token. Call close() in afterAll.
 *
 *     const api = await startTestApi();
 *     const res = await api.request('GET', '/v1/plans', { token: api.adminToken });
 */
export async function startTestApi(options: StartTestApiOptions = {}): Promise<TestApi> {
  const ownDatabase = !options.database;
  const database = options.database ?? (await createTestDatabase());
  // APIs on one database share their bootstrap token, as replicas of one deployment share their
  // environment (a different one would revoke it); options.env may name another.
  const adminToken = options.env?.BOOTSTRAP_ADMIN_TOKEN ?? bootstrapTokens.get(database) ?? `admin_${randomBytes(24).toString('base64url')}`;
  bootstrapTokens.set(database, adminToken);
  const temporalAddress = inject('temporalAddress');
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: database.url,
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_NAMESPACE: 'default',
    TEMPORAL_TASK_QUEUE: `test-${random()}`,
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    BOOTSTRAP_ADMIN_TOKEN: adminToken,
    WORKFLOW_BUNDLE_PATH: inject('workflowBundlePath'),
    // Tests read and operate far faster than any client should; a test of the limits sets its own.
    RATE_LIMIT_READS_PER_MINUTE: '100000',
    RATE_LIMIT_OPERATIONS_PER_MINUTE: '100000',
    ...options.env,
  });

  // A client given by the test is the test's to close.
  const ownsTemporal = !options.deps?.temporal;
  const temporal = options.deps?.temporal ?? (await connectTemporalClient(config));

  const secrets = options.deps?.secrets ?? secretBoxOf(config);
  const deps: ApiDeps = {
    db: database.db,
    temporal,
    config,
    logger: createLogger('api-test', config.LOG_LEVEL),
    secrets,
    proxmox: proxmoxClientFactory(secrets, INTERACTIVE_TIMEOUT_MS),
    ...options.deps,
  };
  await ensureBootstrapAdmin(database.db, config.BOOTSTRAP_ADMIN_TOKEN);

  const app = createApp(deps);
  const server: Server = await new Promise((resolve, reject) => {
    const listening = app.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(listening)));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // People reach this API where it listens, unless the test names another public address: the
  // console WebSocket takes browser pages from that origin only.
  if (!options.env?.PUBLIC_URL) config.PUBLIC_URL = baseUrl;
  const consoles = attachConsoleSockets(server, deps, app);

   
  async function request<T = any>(method: string, path: string, req: TestRequestOptions = {}): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...req.headers };
    if (req.token !== undefined) headers.authorization = `Bearer ${req.token}`;
    let body: string | undefined;
    if (req.rawBody !== undefined) body = req.rawBody;
    else if (req.body !== undefined) body = JSON.stringify(req.body);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await res.text();
    const isJson = (res.headers.get('content-type') ?? '').includes('json');
    return { status: res.status, headers: res.headers, body: (isJson && text ? JSON.parse(text) : text) as T, text };
  }

  const admin = createClient({ baseUrl, token: adminToken });
  const answered = <T>(what: string, answer: { data?: T; error?: unknown; response: Response }): T => {
    if (answer.data === undefined) throw new Error(`${what}: ${answer.response.status} ${JSON.stringify(answer.error)}`);
    return answer.data;
  };

  async function createCustomer(quota: Partial<Quota> = {}, opts: { tenantId?: string; email?: string } = {}): Promise<TestCustomer> {
    const tenantId =
      opts.tenantId ?? answered('create tenant', await admin.POST('/v1/admin/tenants', { body: { name: `tenant-${random()}`, quota: { ...DEFAULT_TEST_QUOTA, ...quota } } })).data.id;
    const email = opts.email ?? `customer-${random()}@example.com`;
    const userId = answered('create user', await admin.POST('/v1/admin/users', { body: { tenantId, email, role: 'customer' } })).data.id;
    const { token } = answered('issue token', await admin.POST('/v1/admin/users/{id}/tokens', { params: { path: { id: userId } }, body: {} })).data;
    return { tenantId, userId, email, token };
  }

  return {
    baseUrl,
    db: deps.db,
    database,
    deps,
    config,
    temporal,
    adminToken,
    client: (token) => createClient({ baseUrl, token }),
    request,
    createCustomer,
    seedDemo: (proxmox = {}) =>
      seedDemoCatalog(deps.db, deps.secrets, {
        proxmoxUrl: 'https://127.0.0.1:8006',
        tokenId: 'root@pam!controlplane',
        tokenSecret: random(16),
        ...proxmox,
      }),
    consoles,
    async close() {
      await consoles.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      if (ownsTemporal) await temporal.connection.close();
      if (ownDatabase) await database.drop();
    },
  };
}

/**
 * For a test file: the API (startTestApi) with an admin and one customer, started in beforeAll
 * and closed in afterAll. The returned objects are filled in when beforeAll has run.
 *
 *     const { api, admin, customer } = useTestApiWithCustomer();
 *     it('...', async () => { await api.request('GET', '/v1/admin/plans', admin); });
 */
export function useTestApiWithCustomer(): { api: TestApi; admin: { token: string }; customer: TestCustomer } {
  const api = {} as TestApi;
  const admin = {} as { token: string };
  const customer = {} as TestCustomer;
  beforeAll(async () => {
    Object.assign(api, await startTestApi());
    admin.token = api.adminToken;
    Object.assign(customer, await api.createCustomer());
  });
  afterAll(async () => {
    await api.close?.();
  });
  return { api, admin, customer };
}
