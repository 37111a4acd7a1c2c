/**
 * The Proxmox VE API simulator: `/api2/json/...` like a real cluster, plus the control API
 * under `/_sim` (faults, state, reset; no auth).
 */
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express, type Request, type Response } from 'express';
import { AccessControl, type AccessSpec } from './access';
import { SimCluster, type SimFileContent } from './cluster';
import { describeBytes } from './downloads';
import { putFile } from './storage';
import { FaultRegistry, faultSpecSchema } from './faults';
import { refuseTunnels } from '../net/request-target';
import { consoleWebSocketServer, handleConsoleUpgrade } from './consoles';
import { isIpv4, isIpv6 } from './firewall-address';
import { judgeGuestPacket } from './firewall';
import { authenticate, handleApi } from './http-api';
import { inspectState } from './inspection';
import type { ApiContext, RecordedRequest } from './routes';
import { DEFAULT_PVE_VERSION, loadSchema, resolveSchemaDir, type PveSchema, type PveVersion } from './schema';
import { demoAccess, demoCluster, type ClusterSpec } from './spec';
import { z } from 'zod';

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

const durationSchema = z.number().int().min(0);
export const taskMsByTypeSchema = z.record(z.string().regex(/^[a-z][a-z0-9]*$/), durationSchema);

const guestFileSchema = z.object({ path: z.string().min(1).max(4096), content: z.string().max(1_000_000) });
const simUserSchema = z.strictObject({
  userid: z.string().regex(/^[^\s@!:]{1,64}@[A-Za-z][A-Za-z0-9._-]{0,63}$/),
  password: z.string().min(5).max(256),
  path: z.string().startsWith('/').default('/vms'),
  privs: z.array(z.string()).default(['VM.Console']),
});
const guestUptimeSchema = z.object({ seconds: z.number().int().min(0).max(400 * 86_400) });
/** Bytes per second; up to 100 Gbit/s. */
const bytesPerSecondSchema = z.number().min(0).max(12.5e9);
const guestTrafficSchema = z.strictObject({ inBytesPerSecond: bytesPerSecondSchema, outBytesPerSecond: bytesPerSecondSchema });

const optionsSchema = z.object({
  taskMs: durationSchema.optional(),
  /** Replaces the whole map; `{}` puts every type back on `taskMs`. */
  taskMsByType: taskMsByTypeSchema.optional(),
  hiddenTaskPolls: z.number().int().min(0).optional(),
  activeTaskListEnded: z.number().int().min(0).optional(),
  agentReadyMs: z.number().int().min(0).optional(),
  authFailDelayMs: z.number().int().min(0).optional(),
  urlTimeoutMs: z.number().int().min(1).nullable().optional(),
});

/** A run-time change of one storage (`null` clears a setting); a reset brings back the spec. */
const storageChangeSchema = z.strictObject({
  nodes: z.array(z.string().min(1)).nullable().optional(),
  shared: z.boolean().optional(),
  totalGiB: z.number().positive().optional(),
  snippetsDir: z.string().min(1).nullable().optional(),
  snippetsDirByNode: z.record(z.string().min(1), z.string().min(1)).nullable().optional(),
});

const ipAddress = z.string().refine((v) => isIpv4(v) || isIpv6(v), 'not an IP address');
/** `POST /_sim/firewall/packet`: a packet at a guest's NIC, for the firewall oracle. */
const packetSchema = z
  .strictObject({
    vmid: z.number().int().min(100),
    direction: z.enum(['in', 'out']),
    iface: z.string().regex(/^net\d+$/).default('net0'),
    kind: z.enum(['ip', 'arp']).default('ip'),
    source: ipAddress,
    dest: ipAddress.optional(),
    sourceMac: z.string().regex(/^[0-9a-f]{2}(?::[0-9a-f]{2}){5}$/i).optional(),
    protocol: z.string().min(1).optional(),
    dport: z.number().int().min(0).max(65535).optional(),
    sport: z.number().int().min(0).max(65535).optional(),
    icmpType: z.string().min(1).optional(),
  })
  .refine((p) => p.kind === 'arp' || p.dest !== undefined, { message: 'an IP packet needs dest', path: ['dest'] })
  .refine((p) => p.dest === undefined || isIpv4(p.source) === isIpv4(p.dest), { message: 'source and dest are of different IP versions', path: ['dest'] })
  .refine((p) => p.kind === 'ip' || isIpv4(p.source), { message: 'ARP carries an IPv4 source', path: ['source'] });

/** `PUT /_sim/storages/{storage}/volumes`: a file copied onto a storage by hand (`node` for a local storage). */
const storageFileSchema = z.strictObject({
  node: z.string().min(1).optional(),
  volume: z.string().regex(/^(?:iso|import|vztmpl)\/[^/]+$/),
  contentBase64: z.string().max(16 * 1024 * 1024),
});

/** `POST /_sim/guests`: plain guests for a large cluster. */
const seedGuestsSchema = z.strictObject({
  count: z.number().int().min(1).max(100_000),
  firstVmid: z.number().int().min(100).max(999_000_000),
  status: z.enum(['running', 'stopped']).optional(),
});

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

  const control = express.Router();
  // room for a file written onto a storage (PUT /storages/{storage}/volumes)
  control.use(express.json({ limit: '24mb' }));
  control.get('/faults', (_req: Request, res: Response) => {
    res.json({ faults: faults.list() });
  });
  control.post('/faults', (req: Request, res: Response) => {
    const parsed = faultSpecSchema.safeParse(req.body);
    if (!parsed.success) {
      res.status(400).json({ error: 'invalid fault', issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) });
      return;
    }
    res.status(201).json({ fault: faults.add(parsed.data) });
  });
  control.delete('/faults', (_req: Request, res: Response) => {
    const n = faults.list().length;
    faults.clear();
    res.json({ cleared: n });
  });
  control.get('/state', (_req: Request, res: Response) => {
    res.json({ ...inspectState(cluster), calls: Object.fromEntries(calls) });
  });
  // What a guest's disks hold: a file written from inside the guest, or every file gone (a wiped disk).
  const guestFor = (req: Request, res: Response) => {
    const guest = cluster.guests.get(Number(req.params.vmid));
    if (!guest) res.status(404).json({ error: 'no such guest' });
    return guest;
  };
  /** The request's body as `schema` reads it and the guest it is for, or undefined once the refusal is answered. */
  const bodyForGuest = <T>(schema: z.ZodType<T>, what: string, req: Request, res: Response) => {
    const parsed = schema.safeParse(req.body);
    if (!parsed.success) {
      res.status(400).json({ error: `invalid ${what}` });
      return undefined;
    }
    const guest = guestFor(req, res);
    return guest && { body: parsed.data, guest };
  };
  control.put('/guests/:vmid/files', (req: Request, res: Response) => {
    const found = bodyForGuest(guestFileSchema, 'file', req, res);
    if (!found) return;
    found.guest.files[found.body.path] = found.body.content;
    res.json({ files: found.guest.files });
  });
  control.delete('/guests/:vmid/files', (req: Request, res: Response) => {
    const guest = guestFor(req, res);
    if (!guest) return;
    guest.files = {};
    res.json({ files: guest.files });
  });
  // How long a running guest has been up: its usage history (rrddata) reaches back that far.
  control.put('/guests/:vmid/uptime', (req: Request, res: Response) => {
    const found = bodyForGuest(guestUptimeSchema, 'uptime', req, res);
    if (!found) return;
    if (found.guest.status !== 'running') {
      res.status(409).json({ error: 'the guest is not running' });
      return;
    }
    cluster.usage.rewind(found.guest, Date.now() - found.body.seconds * 1000);
    res.json({ uptime: found.body.seconds });
  });
  // The traffic the guest sends and receives from now on (its NICs' `rate` caps it); DELETE: the default again.
  control.post('/guests/:vmid/traffic', (req: Request, res: Response) => {
    const found = bodyForGuest(guestTrafficSchema, 'traffic', req, res);
    if (!found) return;
    found.guest.traffic = found.body;
    cluster.usage.observe(found.guest);
    res.json({ traffic: found.guest.traffic });
  });
  control.delete('/guests/:vmid/traffic', (req: Request, res: Response) => {
    const guest = guestFor(req, res);
    if (!guest) return;
    delete guest.traffic;
    cluster.usage.observe(guest);
    res.json({ traffic: null });
  });
  // The VMID's usage history goes, as an operator removes its RRD file by hand (404 when it has
  // none); pmxcfs starts a new file at the next update of a guest that holds the VMID.
  control.delete('/rrd/:vmid', (req: Request, res: Response) => {
    const vmid = Number(req.params.vmid);
    if (!cluster.usage.drop(vmid)) {
      res.status(404).json({ error: 'no usage history for this VMID' });
      return;
    }
    const guest = cluster.guests.get(vmid);
    if (guest) cluster.usage.observe(guest);
    res.json({ dropped: vmid });
  });
  // A running task ends now, as an operator's Stop in the Proxmox UI would end a hung one (`exitstatus` set) or as it would have in time.
  control.post('/tasks/:upid/end', (req: Request, res: Response) => {
    const parsed = z.object({ exitstatus: z.string().min(1).optional() }).safeParse(req.body ?? {});
    const task = cluster.tasks.get(String(req.params.upid));
    if (!parsed.success || task?.status !== 'running') {
      res.status(parsed.success ? 404 : 400).json({ error: parsed.success ? 'no such running task' : 'invalid exitstatus' });
      return;
    }
    cluster.tasks.finish(task.upid, parsed.data.exitstatus);
    res.json(cluster.tasks.get(task.upid));
  });
  // A user who logs in with a password (POST /access/ticket), holding `privs` on `path` (default `/vms`).
  control.post('/users', (req: Request, res: Response) => {
    const parsed = simUserSchema.safeParse(req.body);
    if (!parsed.success) {
      res.status(400).json({ error: 'invalid user', issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) });
      return;
    }
    const { userid, password, path, privs } = parsed.data;
    access.addUser({ userid, password }, { path, privs });
    res.status(201).json({ userid, path, privs });
  });
  // Whether a packet would pass a guest's NIC, decided as pve-firewall's compiled chains would.
  control.post('/firewall/packet', (req: Request, res: Response) => {
    const parsed = packetSchema.safeParse(req.body);
    if (!parsed.success) {
      res.status(400).json({ error: 'invalid packet', issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) });
      return;
    }
    const { vmid, ...packet } = parsed.data;
    const guest = cluster.guests.get(vmid);
    if (!guest) {
      res.status(404).json({ error: 'no such guest' });
      return;
    }
    if (guest.config[packet.iface] === undefined) {
      res.status(400).json({ error: `the guest has no ${packet.iface}` });
      return;
    }
    res.json(judgeGuestPacket(cluster, guest, packet));
  });
  control.post('/reset', (_req: Request, res: Response) => {
    reset();
    res.json({ ok: true });
  });
  control.post('/guests', (req: Request, res: Response) => {
    const parsed = seedGuestsSchema.safeParse(req.body);
    if (!parsed.success) {
      res.status(400).json({ error: 'invalid guests', issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) });
      return;
    }
    try {
      cluster.seedGuests({ status: 'stopped', ...parsed.data });
    } catch (error) {
      res.status(409).json({ error: error instanceof Error ? error.message : String(error) });
      return;
    }
    res.status(201).json({ guests: cluster.guests.size });
  });
  control.get('/options', (_req: Request, res: Response) => {
    res.json({ ...settings, authFailDelayMs, pveVersion: schema.version });
  });
  control.post('/options', (req: Request, res: Response) => {
    const parsed = optionsSchema.safeParse(req.body);
    if (!parsed.success) {
      res.status(400).json({ error: 'invalid options' });
      return;
    }
    const o = parsed.data;
    if (o.taskMs !== undefined) settings.taskMs = o.taskMs;
    if (o.taskMsByType !== undefined) settings.taskMsByType = o.taskMsByType;
    if (o.hiddenTaskPolls !== undefined) settings.hiddenTaskPolls = o.hiddenTaskPolls;
    if (o.activeTaskListEnded !== undefined) settings.activeTaskListEnded = o.activeTaskListEnded;
    if (o.agentReadyMs !== undefined) settings.agentReadyMs = o.agentReadyMs;
    if (o.authFailDelayMs !== undefined) authFailDelayMs = o.authFailDelayMs;
    if (o.urlTimeoutMs === null) delete settings.urlTimeoutMs;
    else if (o.urlTimeoutMs !== undefined) settings.urlTimeoutMs = o.urlTimeoutMs;
    res.json({ ...settings, authFailDelayMs });
  });
  control.post('/storages/:storage', (req: Request, res: Response) => {
    const storage = cluster.storages.get(String(req.params.storage));
    if (!storage) {
      res.status(404).json({ error: 'no such storage' });
      return;
    }
    const parsed = storageChangeSchema.safeParse(req.body);
    if (!parsed.success) {
      res.status(400).json({ error: 'invalid storage change', issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) });
      return;
    }
    for (const [key, value] of Object.entries(parsed.data)) {
      if (value === null) delete storage[key as keyof typeof parsed.data];
      else Object.assign(storage, { [key]: value });
    }
    res.json({ storage });
  });
  // A file someone copied onto a storage (scp): an ISO image, or an image to import that may be anything.
  control.put('/storages/:storage/volumes', (req: Request, res: Response) => {
    const storage = cluster.storages.get(String(req.params.storage));
    const parsed = storageFileSchema.safeParse(req.body);
    if (!storage || !parsed.success) {
      res.status(storage ? 400 : 404).json({ error: storage ? 'invalid volume' : 'no such storage' });
      return;
    }
    const { node, volume, contentBase64 } = parsed.data;
    if (!storage.shared && (node === undefined || !cluster.nodes.has(node))) {
      res.status(400).json({ error: 'a local storage needs the node the file is on' });
      return;
    }
    const [content, name] = volume.split('/') as [SimFileContent, string];
    const file = { storage: storage.storage, ...(storage.shared ? {} : { node }), content, name, ctime: Math.floor(Date.now() / 1000), ...describeBytes(Buffer.from(contentBase64, 'base64')) };
    putFile(cluster, file);
    res.status(201).json({ volid: `${storage.storage}:${volume}`, size: file.size });
  });
  app.use('/_sim', control);

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
