import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Config } from '../../src/config';
import type { SeedResult } from '../../src/db/seed';
import { ownerOf } from '../../src/domain/ownership';
import { createSimulator, DEFAULT_SIM_TOKEN, parseToken, type SimulatorOptions } from '../../src/simulator/server';
import { LEAST_PRIVILEGE_SIM_TOKEN } from '../../src/simulator/spec';
import { startWorker, type RunningWorker } from '../../src/worker';
import { reconcileScheduleId, trafficScheduleId } from '../../src/temporal/workflow-ids';
import type { Instance, InstanceStatus, paths, PvecpClient } from '../../clients/typescript/index';
import { startTestApi, type StartTestApiOptions, type TestApi, type TestCustomer } from './api';

type CreateOperation = paths['/v1/instances']['post'];
export type CreateInstanceRequest = CreateOperation['requestBody']['content']['application/json'];
export type CreatedInstance = CreateOperation['responses'][202]['content']['application/json'];

type Seeded = Extract<SeedResult, { seeded: true }>;

export interface SimulatorHandle {
  url: string;
  fault(spec: { op: string; mode: string; count?: number; node?: string; message?: string; delayMs?: number; call?: string; param?: string; skip?: number }): Promise<void>;
  clearFaults(): Promise<void>;
  /** Changes one storage of the simulated cluster (POST /_sim/storages/{storage}; `null` clears a setting). */
  changeStorage(storage: string, change: { nodes?: string[] | null; shared?: boolean; totalGiB?: number; snippetsDir?: string | null; snippetsDirByNode?: Record<string, string> | null }): Promise<void>;
  state(): Promise<SimState>;
  /** Writes a file on a guest's disk, as its owner would from inside. */
  writeGuestFile(vmid: number, path: string, content: string): Promise<void>;
  /** Every file on a guest's disk gone, as a customer's `rm -rf /` would leave it. */
  wipeGuestDisk(vmid: number): Promise<void>;
  /** Makes a running guest up for `seconds` already, so its usage history (rrddata) reaches back that far. */
  setGuestUptime(vmid: number, seconds: number): Promise<void>;
  /** From now on the guest receives and sends at these rates (bytes per second; its NICs' `rate` caps them); `null`: the default traffic again. */
  setGuestTraffic(vmid: number, traffic: { inBytesPerSecond: number; outBytesPerSecond: number } | null): Promise<void>;
  /** Removes a VMID's usage history (rrddata), as an operator deletes its RRD file by hand. */
  dropUsageHistory(vmid: number): Promise<void>;
  /** Ends a running (or hung) task now: with `exitstatus` as an operator's Stop would, or normally. */
  endTask(upid: string, exitstatus?: string): Promise<void>;
  /** A user who logs in with a password, holding `privs` (default VM.Console) on `/vms`. */
  addUser(user: { userid: string; password: string; privs?: string[] }): Promise<void>;
  /** Changes how long the simulator's tasks run (all of them, or per type). */
  options(options: { taskMs?: number; taskMsByType?: Record<string, number> }): Promise<void>;
  close(): Promise<void>;
}

export interface SimState {
  guests: {
    vmid: number;
    node: string;
    name?: string;
    status: string;
    tags?: string;
    lock?: string;
    cipassword?: string;
    userData?: string;
    config: Record<string, string | number>;
    files: Record<string, string>;
    snapshots: string[];
    /** The traffic set by setGuestTraffic; null: the default. */
    traffic: { inBytesPerSecond: number; outBytesPerSecond: number } | null;
  }[];
  backups: { node: string; storage: string; volid: string; vmid: number; size: number; notes: string; protected: boolean }[];
  tasks: { upid: string; type: string; user: string; status: string; exitstatus?: string; startedAtMs: number; endedAtMs?: number }[];
  consoles: { vmid: number; keys: number[]; typed: string; resizes: { cols: number; rows: number }[] }[];
  calls: Record<string, number>;
}

export interface Stack {
  api: TestApi;
  sim: SimulatorHandle;
  /** The simulator token the demo connection uses (the least-privilege one), `USER@REALM!TOKENID=SECRET`. */
  simToken: string;
  seed: Seeded;
  customer: TestCustomer;
  worker: RunningWorker | null;
  /** The typed client as the customer. */
  client: PvecpClient;
  /** The typed client as the bootstrap admin. */
  adminClient: PvecpClient;
  /** The create request body: a debian-12 server on the small plan in the demo location, named web-1, with `body` over it. */
  createBody(body?: Partial<CreateInstanceRequest>): CreateInstanceRequest;
  /** POST /v1/instances as the customer (createBody), whatever it answers: `data` on success, `error` otherwise. */
  createAnswer(body?: Partial<CreateInstanceRequest>, headers?: { 'Idempotency-Key'?: string }): ReturnType<PvecpClient['POST']>;
  /** createAnswer that throws unless the create was accepted (202) or replayed (200). */
  create(body?: Partial<CreateInstanceRequest>, headers?: { 'Idempotency-Key'?: string }): Promise<{ status: 200 | 202; body: CreatedInstance }>;
  /** Polls GET /v1/instances/{id} as the customer until its status is one of `statuses`. */
  waitForStatus(instanceId: string, statuses: InstanceStatus[], timeoutMs?: number): Promise<Instance>;
  /** A worker in this process; `overrides` change its configuration (e.g. DATABASE_URL through a relay). */
  startWorker(overrides?: Partial<Config>): Promise<RunningWorker>;
  /** A worker in its own process, so a test can kill it like a crash would. */
  spawnWorkerProcess(): WorkerProcess;
  close(): Promise<void>;
}

export interface WorkerProcess {
  child: ChildProcess;
  exited: Promise<void>;
  kill(): Promise<void>;
}

/** The guests in a simulator state that belong to an instance (by their ownership marker). */
export function guestsOf(state: Pick<SimState, 'guests'>, instanceId: string): SimState['guests'] {
  return state.guests.filter((g) => ownerOf({ name: g.name, description: String(g.config.description ?? '') }) === instanceId);
}

/** The id of a demo catalog entry by name (src/db/seed.ts). */
export function seededId(ids: Record<string, string>, name: string): string {
  const id = ids[name];
  if (!id) throw new Error(`the demo catalog has no ${name}`);
  return id;
}

/** Test settings: short budgets and quick polling, so failures show up in seconds. */
export const FAST_ENV: Record<string, string> = {
  STAGE_TIMEOUT_SCALE: '0.05',
  TASK_POLL_INTERVAL_MS: '25',
  RATE_LIMIT_CREATE_PER_MINUTE: '1000',
  RATE_LIMIT_CREATE_PER_HOUR: '10000',
  // Tests reuse VMIDs and addresses at once unless their subject is the cooldown.
  VMID_REUSE_COOLDOWN_SECONDS: '0',
  ADDRESS_REUSE_COOLDOWN_SECONDS: '0',
  // Tests serve images and their checksum files from 127.0.0.1.
  CHECKSUM_URL_ALLOW_PRIVATE_TARGETS: 'true',
};

export async function startSimulator(options: { taskMs?: number } & Pick<SimulatorOptions, 'extraTokens' | 'cluster' | 'access' | 'pveVersion'> = {}): Promise<SimulatorHandle> {
  const simulator = createSimulator({ token: DEFAULT_SIM_TOKEN, taskMs: options.taskMs ?? 20, extraTokens: options.extraTokens, cluster: options.cluster, access: options.access, pveVersion: options.pveVersion });
  const listening = await simulator.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${listening.port}`;
  const control = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`${url}/_sim/${route}`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`simulator ${method} ${route}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<unknown>;
  };
  return {
    url,
    fault: async (spec) => void (await control('POST', 'faults', spec)),
    clearFaults: async () => void (await control('DELETE', 'faults')),
    changeStorage: async (storage, change) => void (await control('POST', `storages/${storage}`, change)),
    state: () => control('GET', 'state') as Promise<SimState>,
    writeGuestFile: async (vmid, path, content) => void (await control('PUT', `guests/${vmid}/files`, { path, content })),
    wipeGuestDisk: async (vmid) => void (await control('DELETE', `guests/${vmid}/files`)),
    setGuestUptime: async (vmid, seconds) => void (await control('PUT', `guests/${vmid}/uptime`, { seconds })),
    setGuestTraffic: async (vmid, traffic) => void (await (traffic ? control('POST', `guests/${vmid}/traffic`, traffic) : control('DELETE', `guests/${vmid}/traffic`))),
    dropUsageHistory: async (vmid) => void (await control('DELETE', `rrd/${vmid}`)),
    endTask: async (upid, exitstatus) => void (await control('POST', `tasks/${encodeURIComponent(upid)}/end`, exitstatus ? { exitstatus } : {})),
    addUser: async (user) => void (await control('POST', 'users', user)),
    options: async (options) => void (await control('POST', 'options', options)),
    close: listening.close,
  };
}

/**
 * The real stack for end-to-end tests: API over HTTP, a worker, the run's Temporal dev server,
 * a database of this file's own, and the Proxmox VE simulator with the demo catalog.
 */
export async function startStack(
  options: StartTestApiOptions & { worker?: boolean; taskMs?: number; simulator?: Pick<SimulatorOptions, 'extraTokens' | 'cluster' | 'access' | 'pveVersion'> } = {},
): Promise<Stack> {
  const sim = await startSimulator({ taskMs: options.taskMs, ...options.simulator });
  const api = await startTestApi({ ...options, env: { ...FAST_ENV, ...options.env } });
  // The connection uses the least-privilege token: every test proves the minimal role is enough.
  const { tokenId, secret } = parseToken(LEAST_PRIVILEGE_SIM_TOKEN);
  const seed = await api.seedDemo({ proxmoxUrl: sim.url, tokenId, tokenSecret: secret, plaintextLab: true });
  if (!seed.seeded) throw new Error('demo catalog was not seeded');
  const customer = await api.createCustomer({ instances: 500, vcpus: 2000, memoryMiB: 4_000_000, diskGiB: 100_000 });
  const workers: RunningWorker[] = [];
  const processes: WorkerProcess[] = [];
  const client = api.client(customer.token);
  const createBody = (body: Partial<CreateInstanceRequest> = {}): CreateInstanceRequest => ({
    planId: seededId(seed.plans, 'small'),
    locationId: seed.locationId,
    imageId: seededId(seed.images, 'debian-12'),
    hostname: 'web-1',
    ...body,
  });

  const stack: Stack = {
    api,
    sim,
    simToken: LEAST_PRIVILEGE_SIM_TOKEN,
    seed,
    customer,
    worker: null,
    client,
    adminClient: api.client(api.adminToken),
    createBody,
    createAnswer: (body = {}, headers = {}) => client.POST('/v1/instances', { body: createBody(body), params: { header: headers } }),
    async create(body = {}, headers = {}) {
      const { data, error, response } = await stack.createAnswer(body, headers);
      if (!data || (response.status !== 200 && response.status !== 202)) throw new Error(`create: expected 202, got ${response.status}: ${JSON.stringify(error)}`);
      return { status: response.status, body: data };
    },
    async waitForStatus(instanceId, statuses, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      let last: Instance | undefined;
      while (Date.now() < deadline) {
        last = (await client.GET('/v1/instances/{id}', { params: { path: { id: instanceId } } })).data?.data;
        if (last && statuses.includes(last.status)) return last;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`instance ${instanceId} did not reach ${statuses.join('|')}; last: ${JSON.stringify(last?.status)} ${JSON.stringify(last?.task?.steps.slice(-3))}`);
    },
    async startWorker(overrides = {}) {
      const worker = await startWorker({ ...api.config, ...overrides });
      workers.push(worker);
      return worker;
    },
    spawnWorkerProcess: () => {
      const handle = spawnWorkerProcess(api.config);
      processes.push(handle);
      return handle;
    },
    async close() {
      for (const handle of processes) await handle.kill();
      for (const worker of workers) await worker.shutdown().catch(() => undefined);
      // Workers set up a reconcile schedule for the stack's connection; the dev server outlives this file.
      await api.temporal.schedule.getHandle(reconcileScheduleId(seed.connectionId)).delete().catch(() => undefined);
      await api.temporal.schedule.getHandle(trafficScheduleId(seed.connectionId)).delete().catch(() => undefined);
      await api.close();
      await sim.close();
    },
  };
  if (options.worker !== false) stack.worker = await stack.startWorker();
  return stack;
}

/** `stdout: 'pipe'` keeps the worker's log lines readable on `child.stdout`. */
export function spawnWorkerProcess(config: Config, stdout: 'ignore' | 'pipe' = 'ignore'): WorkerProcess {
  const root = path.resolve(__dirname, '..', '..');
  const env = Object.fromEntries(Object.entries(config).map(([key, value]) => [key, String(value ?? '')]));
  delete env.BOOTSTRAP_ADMIN_TOKEN;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src', 'worker.ts')], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', stdout, 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    exited,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
