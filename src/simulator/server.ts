/**
 * The Proxmox VE API simulator: `/api2/json/...` like a real cluster, plus the control API
 * under `/_sim` (faults, state, reset; no auth).
 */
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express, type Request, type Response } from 'express';
import { AccessControl, type AccessSpec } from './access';
import { SimCluster } from './cluster';
import { controlApi, taskMsByTypeSchema } from './control-api';
import { FaultRegistry } from './faults';
import { refuseTunnels } from '../net/request-target';
import { consoleWebSocketServer, handleConsoleUpgrade } from './consoles';
import { authenticate, handleApi } from './http-api';
import type { ApiContext, RecordedRequest } from './routes';
import { DEFAULT_PVE_VERSION, loadSchema, resolveSchemaDir, type PveSchema, type PveVersion } from './schema';
import { demoAccess, demoCluster, type ClusterSpec } from './spec';

/** Default API token: `USER@REALM!TOKENID=SECRET`. */
export const DEFAULT_SIM_TOKEN = 'root@pam!controlplane=sim-secret-change-me';
export const DEFAULT_TASK_MS = 50;
export const DEFAULT_CLUSTER_NAME = 'pvecp-sim';
/** Proxmox's active task file keeps about this many ended tasks besides the running ones. */
export const DEFAULT_ACTIVE_TASK_LIST_ENDED = 25;

export interface SimulatorOptions {
  /**
   * `USER@REALM!TOKENID=SECRET`; default {@link DEFAULT_SIM_TOKEN}. This token and `extraTokens`
   * are without privilege separation, their users holding Administrator on `/` unless the
   * access spec gives them ACL entries.
   */
  token?: string;
  /** More accepted tokens (each sees only its own tasks). */
  extraTokens?: string[];
  /** Users' tokens, roles and ACL entries; default the demo cluster's ({@link demoAccess}). */
  access?: AccessSpec;
  /** How long tasks run; default 50 ms; 0 finishes on the next tick. */
  taskMs?: number;
  /** How long tasks of a type run (`{ qmclone: 5000, qmstart: 2000 }`); other types take `taskMs`. */
  taskMsByType?: Record<string, number>;
  /** Schema to validate against and report; default 9.2.3. */
  pveVersion?: PveVersion;
  /** Directory holding pve-<version>.json; default PVE_API_SCHEMA_DIR or <repo>/vendor/pve-api. */
  schemaDir?: string;
  /** Delay before answering 401 (real Proxmox waits ~3 s); default 0. */
  authFailDelayMs?: number;
  /** Status reads of a new task answered 400 "no such task" before it shows up; default 0. */
  hiddenTaskPolls?: number;
  /** How many recently ended tasks a node's `source=active` task list keeps showing (as Proxmox's active file does); default {@link DEFAULT_ACTIVE_TASK_LIST_ENDED}. */
  activeTaskListEnded?: number;
  /** How long after start the guest agent answers pings; default 0. */
  agentReadyMs?: number;
  /** How long a node waits for a URL's server (download-url, query-url-metadata); default as wget (900 s) and LWP (180 s). */
  urlTimeoutMs?: number;
  /** Cluster name in /cluster/status (how clients tell clusters apart); default {@link DEFAULT_CLUSTER_NAME}. */
  clusterName?: string;
  /** Cluster layout; missing parts come from the demo cluster. */
  cluster?: Partial<ClusterSpec>;
  /** How many API requests to keep for inspection (`requests`); default 10000, 0 disables. */
  maxRecordedRequests?: number;
}

export interface ListeningSimulator {
  port: number;
  url: string;
  close: () => Promise<void>;
}

export interface Simulator {
  app: Express;
  state: SimCluster;
  faults: FaultRegistry;
  schema: PveSchema;
  /** Calls per "<VERB> <path template>". */
  calls: Map<string, number>;
  /** Recent API requests (method, concrete path, template, parameters). */
  requests: RecordedRequest[];
  tokenId: string;
  /** Back to the initial cluster; clears faults, tasks, call counts and recorded requests. */
  reset: () => void;
  listen: (port?: number, host?: string) => Promise<ListeningSimulator>;
}

export function parseToken(token: string): { tokenId: string; secret: string } {
  const m = /^([^\s@!=]+@[^\s@!=]+![A-Za-z][A-Za-z0-9._-]*)=(\S+)$/.exec(token);
  if (!m) throw new Error('simulator token must look like USER@REALM!TOKENID=SECRET');
  return { tokenId: m[1] as string, secret: m[2] as string };
}

/** The option tokens join the access spec without privilege separation; a user of theirs without ACL entries gets Administrator on `/`. */
function withOptionTokens(spec: AccessSpec, tokens: { tokenId: string; secret: string }[]): AccessSpec {
  const out: AccessSpec = { tokens: [...spec.tokens], users: [...(spec.users ?? [])], roles: [...spec.roles], acl: [...spec.acl] };
  for (const { tokenId, secret } of tokens) {
    out.tokens = out.tokens.filter((t) => t.tokenid !== tokenId);
    out.tokens.push({ tokenid: tokenId, secret, privsep: false });
    const user = tokenId.slice(0, tokenId.indexOf('!'));
    if (!out.acl.some((e) => e.ugid === user)) out.acl.push({ path: '/', ugid: user, roleid: 'Administrator' });
  }
  return out;
}

export function createSimulator(options: SimulatorOptions = {}): Simulator {
  const version = options.pveVersion ?? DEFAULT_PVE_VERSION;
  const schema = loadSchema(version, options.schemaDir ?? resolveSchemaDir());
  const demo = demoCluster();
  const spec: ClusterSpec = {
    nodes: options.cluster?.nodes ?? demo.nodes,
    storages: options.cluster?.storages ?? demo.storages,
    bridges: options.cluster?.bridges ?? demo.bridges,
    templates: options.cluster?.templates ?? demo.templates,
    pools: options.cluster?.pools ?? demo.pools,
  };
  const clusterName = options.clusterName ?? DEFAULT_CLUSTER_NAME;
  // what `pvecm create` accepts
  if (!/^[A-Za-z0-9-]{1,15}$/.test(clusterName)) throw new Error('simulator cluster name must be 1-15 letters, digits or dashes');
  const primary = parseToken(options.token ?? DEFAULT_SIM_TOKEN);
  const accessSpec = withOptionTokens(options.access ?? demoAccess(), [primary, ...(options.extraTokens ?? []).map(parseToken)]);

  const configMethod = schema.match('PUT', '/nodes/n/qemu/100/config')?.method;
  const configTypes = (key: string): string | undefined => {
    if (!configMethod) return undefined;
    const exact = configMethod.params.get(key);
    if (exact) return exact.type;
    const ix = configMethod.indexed.find((i) => key.startsWith(i.base) && /^\d+$/.test(key.slice(i.base.length)));
    return ix?.def.type;
  };

  const settings = {
    clusterName,
    taskMs: options.taskMs ?? DEFAULT_TASK_MS,
    taskMsByType: taskMsByTypeSchema.parse(options.taskMsByType ?? {}),
    hiddenTaskPolls: options.hiddenTaskPolls ?? 0,
    activeTaskListEnded: options.activeTaskListEnded ?? DEFAULT_ACTIVE_TASK_LIST_ENDED,
    agentReadyMs: options.agentReadyMs ?? 0,
    pveVersion: schema.version,
    ...(options.urlTimeoutMs !== undefined ? { urlTimeoutMs: options.urlTimeoutMs } : {}),
  };
  let authFailDelayMs = options.authFailDelayMs ?? 0;
  const cluster = new SimCluster(spec, settings, configTypes);
  const access = new AccessControl(accessSpec, cluster.majorRelease);
  const faults = new FaultRegistry();
  const calls = new Map<string, number>();
  const requests: RecordedRequest[] = [];
  const held = new Set<ServerResponse>();

  const api: ApiContext = {
    cluster,
    faults,
    schema: () => schema,
    access,
    authFailDelayMs: () => authFailDelayMs,
    calls,
    requests,
    maxRecordedRequests: options.maxRecordedRequests ?? 10_000,
    held,
  };

  const reset = (): void => {
    cluster.reset();
    faults.clear();
    calls.clear();
    requests.length = 0;
  };

  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');

  app.use(
    '/_sim',
    controlApi({
      cluster,
      faults,
      access,
      calls,
      settings,
      pveVersion: schema.version,
      authFailDelayMs: { get: () => authFailDelayMs, set: (ms: number) => (authFailDelayMs = ms) },
      reset,
    }),
  );

  app.use((req: Request, res: Response, next) => {
    const url = new URL(req.originalUrl, 'http://sim.invalid');
    const prefix = '/api2/json';
    if (url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) {
      next();
      return;
    }
    const apiPath = url.pathname.slice(prefix.length) || '/';
    handleApi(api, req, res, apiPath, url.searchParams).catch((e: unknown) => {
      if (!res.headersSent && !res.destroyed) {
        res.statusCode = 500;
        res.end(JSON.stringify({ data: null, message: e instanceof Error ? e.message : 'internal error' }));
      }
    });
  });

  const listen = (port = 0, host = '127.0.0.1'): Promise<ListeningSimulator> =>
    new Promise((resolve, reject) => {
      const server: Server = app.listen(port, host);
      const consoleSockets = consoleWebSocketServer();
      // As pveproxy does, a malformed upgrade is refused on its own socket and never ends the server.
      server.on('upgrade', (req, socket, head: Buffer) => {
        socket.on('error', () => socket.destroy());
        try {
          const user = authenticate(req, access);
          handleConsoleUpgrade(cluster, consoleSockets, { user, can: (u, path, privs) => access.can(u, path, privs) }, req, socket, head);
        } catch {
          socket.destroy();
        }
      });
      refuseTunnels(server);
      server.once('error', reject);
      server.once('listening', () => {
        const addr = server.address() as AddressInfo;
        const shownHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
        resolve({
          port: addr.port,
          url: `http://${shownHost}:${addr.port}`,
          close: () =>
            new Promise<void>((done) => {
              cluster.consoles.clear();
              cluster.abortDownloads();
              cluster.tasks.stop();
              for (const res of held) res.destroy();
              held.clear();
              server.close(() => done());
              server.closeAllConnections();
            }),
        });
      });
    });

  return { app, state: cluster, faults, schema, calls, requests, tokenId: primary.tokenId, reset, listen };
}
