/**
 * The simulator's control API under `/_sim` (no auth): faults, what the cluster holds, run-time
 * options and storages, files written onto guests and storages, traffic and uptime, tasks ended by
 * hand, the firewall's packet oracle, users for ticket logins, a reset. Tests and the local demo
 * steer the simulator through it; real Proxmox VE has nothing like it.
 */
import express, { type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import type { AccessControl } from './access';
import type { ClusterSettings, SimCluster, SimFileContent } from './cluster';
import { describeBytes } from './downloads';
import { FaultRegistry, faultSpecSchema } from './faults';
import { judgeGuestPacket } from './firewall';
import { isIpv4, isIpv6 } from './firewall-address';
import { inspectState } from './inspection';
import { putFile } from './storage';

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
  unmounted: z.boolean().optional(),
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

/** What the control API steers: the simulator's cluster, faults, access, call counts and options. */
export interface ControlContext {
  cluster: SimCluster;
  faults: FaultRegistry;
  access: AccessControl;
  calls: Map<string, number>;
  settings: ClusterSettings;
  pveVersion: string;
  authFailDelayMs: { get: () => number; set: (ms: number) => void };
  reset: () => void;
}

/** The `/_sim` router. */
export function controlApi({ cluster, faults, access, calls, settings, pveVersion, authFailDelayMs, reset }: ControlContext): Router {
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
    res.json({ ...settings, authFailDelayMs: authFailDelayMs.get(), pveVersion });
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
    if (o.authFailDelayMs !== undefined) authFailDelayMs.set(o.authFailDelayMs);
    if (o.urlTimeoutMs === null) delete settings.urlTimeoutMs;
    else if (o.urlTimeoutMs !== undefined) settings.urlTimeoutMs = o.urlTimeoutMs;
    res.json({ ...settings, authFailDelayMs: authFailDelayMs.get() });
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
  return control;
}
