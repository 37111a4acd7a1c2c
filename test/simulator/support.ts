/**
 * Starts an in-process simulator on a free port with a client pointed at it.
 */
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { ProxmoxClient, type ProxmoxClientOptions } from '../../src/proxmox';
import { createSimulator, DEFAULT_SIM_TOKEN, loadSchema, PVE_VERSIONS, type SimulatorOptions } from '../../src/simulator';

export const SIM_SECRET = DEFAULT_SIM_TOKEN.slice(DEFAULT_SIM_TOKEN.indexOf('=') + 1);
export const SIM_TOKEN_ID = DEFAULT_SIM_TOKEN.slice(0, DEFAULT_SIM_TOKEN.indexOf('='));
export const AUTH = `PVEAPIToken=${DEFAULT_SIM_TOKEN}`;

export interface RawAnswer {
  status: number;
  statusText: string;
  body: { data?: unknown; errors?: Record<string, string>; message?: string } & Record<string, unknown>;
  text: string;
}

const SCHEMAS = PVE_VERSIONS.map((version) => loadSchema(version));

/** An answer's `data` against the `returns` of both Proxmox VE releases' schemas: the errors by release, `{}` when it is valid for both. */
export function returnsErrors(method: string, path: string, data: unknown): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const schema of SCHEMAS) {
    const m = schema.match(method, path)?.method;
    const errors = m ? schema.validateReturns(m, data) : { [path]: `no ${method} in the schema` };
    if (errors) out[schema.version] = errors;
  }
  return out;
}

/** How a task ended and what it wrote, as GET …/tasks/{upid}/status and …/log answer. */
export interface TaskEnd {
  exitstatus: string;
  log: string[];
}

export async function startSim(options: SimulatorOptions = {}, clientOptions: Partial<ProxmoxClientOptions> = {}) {
  const sim = createSimulator({ taskMs: 5, ...options });
  const server = await sim.listen(0);
  const client = new ProxmoxClient({
    baseUrl: server.url,
    tokenId: SIM_TOKEN_ID,
    tokenSecret: SIM_SECRET,
    plaintextLab: true,
    timeoutMs: 2_000,
    retryBaseDelayMs: 5,
    ...clientOptions,
  });

  /** A raw API call (form-encoded body for POST/PUT). */
  async function api(method: string, path: string, params: Record<string, string> = {}, auth: string | null = AUTH): Promise<RawAnswer> {
    const qs = new URLSearchParams(params).toString();
    const inQuery = method === 'GET' || method === 'DELETE';
    const res = await fetch(`${server.url}/api2/json${path}${inQuery && qs ? `?${qs}` : ''}`, {
      method,
      headers: {
        ...(auth ? { Authorization: auth } : {}),
        ...(inQuery ? {} : { 'Content-Type': 'application/x-www-form-urlencoded' }),
      },
      ...(inQuery ? {} : { body: qs }),
    });
    const text = await res.text();
    let body: RawAnswer['body'] = {};
    try {
      body = JSON.parse(text) as RawAnswer['body'];
    } catch {
      // leave empty
    }
    return { status: res.status, statusText: res.statusText, body, text };
  }

  async function control<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${server.url}/_sim${path}`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await res.json()) as T;
  }

  const wait = (upid: string) => client.tasks.wait(upid, { pollIntervalMs: 3, timeoutMs: 5_000 });

  /** A raw API call whose answer, when it is one, must be valid against both releases' schemas. */
  async function call(method: string, path: string, params: Record<string, string> = {}, auth: string | null = AUTH): Promise<RawAnswer> {
    const r = await api(method, path, params, auth);
    if (r.status === 200) expect(returnsErrors(method, path, r.body.data), `${method} ${path}`).toEqual({});
    return r;
  }

  /** Waits for a task to end (it may fail) and reads its exit status and log, both answers checked against the schemas. */
  async function taskEnd(upid: string, auth: string | null = AUTH, timeoutMs = 10_000): Promise<TaskEnd> {
    const node = upid.split(':')[1] as string;
    const path = `/nodes/${node}/tasks/${encodeURIComponent(upid)}`;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const status = await call('GET', `${path}/status`, {}, auth);
      const data = status.body.data as { status?: string; exitstatus?: string } | null;
      if (data?.status === 'stopped') {
        const log = (await call('GET', `${path}/log`, { limit: '1000' }, auth)).body.data as { t: string }[];
        return { exitstatus: data.exitstatus ?? '', log: log.map((l) => l.t) };
      }
      if (Date.now() > deadline) throw new Error(`task ${upid} still runs`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  async function close(): Promise<void> {
    client.close();
    await server.close();
  }

  return { sim, server, client, api, call, control, wait, taskEnd, close };
}

export type SimHarness = Awaited<ReturnType<typeof startSim>>;

/**
 * For a test file: one simulator and client, started in beforeAll, reset before each test and
 * closed in afterAll. The returned harness is filled in when beforeAll has run.
 */
export function useSim(options: SimulatorOptions = {}, clientOptions: Partial<ProxmoxClientOptions> = {}): SimHarness {
  const h = {} as SimHarness;
  beforeAll(async () => {
    Object.assign(h, await startSim(options, clientOptions));
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(() => {
    h.sim.reset();
  });
  return h;
}
