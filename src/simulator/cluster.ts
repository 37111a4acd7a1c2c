/**
 * In-memory Proxmox VE cluster: nodes, storages, bridges, guests and tasks, with the rules
 * Proxmox enforces on the calls the control plane makes.
 */
import crypto from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Fault } from './faults';
import { TaskManager, type SimTask } from './tasks';

// ------------------------------------------------------------------ specification

export interface SimNodeSpec {
  name: string;
  status?: 'online' | 'offline';
  cpus: number;
  memoryGiB: number;
  cpuModel?: string;
  cpuFlags: string[];
  /** Address the cluster resolves the node name to; default 192.0.2.<11 + position>. */
  ip?: string;
}

export interface SimStorageSpec {
  storage: string;
  type?: string;
  shared?: boolean;
  totalGiB?: number;
  /** Content types; default `images,rootdir`. */
  content?: string;
  /**
   * For a storage with content `snippets`: the directory its `snippets/` volumes are read from
   * (e.g. one the control plane also writes to, as a shared storage mounted on both).
   */
  snippetsDir?: string;
}

export interface SimBridgeSpec {
  iface: string;
  vlanAware?: boolean;
}

export interface SimTemplateSpec {
  vmid: number;
  node: string;
  name: string;
  ostype?: string;
  diskGiB?: number;
  storage?: string;
}

export interface SimPoolSpec {
  poolid: string;
  comment?: string;
}

export interface ClusterSpec {
  nodes: SimNodeSpec[];
  storages: SimStorageSpec[];
  bridges: SimBridgeSpec[];
  templates: SimTemplateSpec[];
  /** Resource pools a clone can join (`pool`); members are listed by GET /pools. */
  pools: SimPoolSpec[];
}

const BASE_FLAGS =
  'fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ht syscall nx pdpe1gb rdtscp lm constant_tsc rep_good nopl xtopology cpuid pni pclmulqdq';
const V2_FLAGS = 'ssse3 cx16 sse4_1 sse4_2 popcnt aes lahf_lm';
const V3_FLAGS = 'fma movbe xsave avx f16c avx2 bmi1 bmi2 abm rdrand';

/** x86-64-v3 capable flags (Haswell-class and later). */
export const CPU_FLAGS_V3 = `${BASE_FLAGS} ${V2_FLAGS} ${V3_FLAGS}`.split(' ');
/** x86-64-v2 capable flags (Nehalem/Westmere-class, with AES-NI). */
export const CPU_FLAGS_V2 = `${BASE_FLAGS} ${V2_FLAGS}`.split(' ');

export const DEMO_TEMPLATE_IMAGES = [
  { name: 'debian-12', ostype: 'l26' },
  { name: 'ubuntu-24.04', ostype: 'l26' },
  { name: 'rocky-9', ostype: 'l26' },
] as const;

/**
 * Demo cluster: pve1, pve2 (x86-64-v3) and pve3 (x86-64-v2), storage local-lvm (not shared),
 * VLAN-aware bridge vmbr0, an empty resource pool `customers`. Cloud-init templates debian-12 /
 * ubuntu-24.04 / rocky-9 are 9000/9001/9002 on pve1, 9010/9011/9012 on pve2 and 9020/9021/9022
 * on pve3.
 */
export function demoCluster(): ClusterSpec {
  const nodes: SimNodeSpec[] = [
    { name: 'pve1', cpus: 32, memoryGiB: 128, cpuModel: 'AMD EPYC 7302P 16-Core Processor', cpuFlags: CPU_FLAGS_V3 },
    { name: 'pve2', cpus: 32, memoryGiB: 128, cpuModel: 'AMD EPYC 7302P 16-Core Processor', cpuFlags: CPU_FLAGS_V3 },
    { name: 'pve3', cpus: 16, memoryGiB: 64, cpuModel: 'Intel(R) Xeon(R) CPU X5670 @ 2.93GHz', cpuFlags: CPU_FLAGS_V2 },
  ];
  const templates: SimTemplateSpec[] = [];
  nodes.forEach((n, i) => {
    DEMO_TEMPLATE_IMAGES.forEach((img, j) => {
      templates.push({ vmid: 9000 + i * 10 + j, node: n.name, name: img.name, ostype: img.ostype, diskGiB: 4, storage: 'local-lvm' });
    });
  });
  return {
    nodes,
    storages: [{ storage: 'local-lvm', type: 'lvmthin', shared: false, totalGiB: 2048 }],
    bridges: [{ iface: 'vmbr0', vlanAware: true }],
    templates,
    pools: [{ poolid: 'customers', comment: 'guests made for customers' }],
  };
}

// ------------------------------------------------------------------ state

export class SimHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Record<string, string>,
  ) {
    super(message);
  }
}

const fail = (message: string): SimHttpError => new SimHttpError(500, message);

export interface SimGuest {
  vmid: number;
  node: string;
  status: 'running' | 'stopped';
  config: Record<string, string | number>;
  startedAt?: number;
  pid?: number;
  /** UPID of the task holding the guest's config file lock. */
  busyWith?: string;
  /** Resource pool the guest is a member of. */
  pool?: string;
}

export interface CallContext {
  /** Full token id of the caller. */
  user: string;
  fault?: Fault;
  /** Set by operations that applied the fault themselves. */
  faultHandled?: boolean;
}

export interface ClusterSettings {
  /** Shown by /cluster/status; fixed for the simulator's life. */
  clusterName: string;
  /** How long a task runs unless its type has its own duration in `taskMsByType`. */
  taskMs: number;
  /** Per task type (`qmclone`, `qmstart`, `qmconfig`, …): how long such tasks run. */
  taskMsByType: Record<string, number>;
  hiddenTaskPolls: number;
  agentReadyMs: number;
  pveVersion: string;
}

const KERNEL = { sysname: 'Linux', release: '6.8.12-4-pve', version: '#1 SMP PREEMPT_DYNAMIC PMX 6.8.12-4', machine: 'x86_64' };

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
const DISK_KEY = /^(?:scsi|virtio|sata|ide|efidisk|tpmstate)\d+$/;
const HOST_MEM_BASE = 2 * GiB;

function parseSize(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)([KMGT])?$/.exec(text);
  if (!m) return undefined;
  const mult = { K: 1024, M: MiB, G: GiB, T: 1024 * GiB }[m[2] ?? ''] ?? 1;
  return Math.round(Number(m[1]) * mult);
}

function formatSize(bytes: number): string {
  for (const [unit, mult] of [['T', 1024 * GiB], ['G', GiB], ['M', MiB], ['K', 1024]] as const) {
    if (bytes % mult === 0) return `${bytes / mult}${unit}`;
  }
  return String(bytes);
}

function splitProps(value: string): { first: string; props: Map<string, string> } {
  const parts = value.split(',');
  const props = new Map<string, string>();
  let first = '';
  parts.forEach((p, i) => {
    const eq = p.indexOf('=');
    if (eq < 0 && i === 0) first = p;
    else if (eq >= 0) props.set(p.slice(0, eq), p.slice(eq + 1));
  });
  return { first, props };
}

function joinProps(first: string, props: Map<string, string>): string {
  return [first, ...[...props].map(([k, v]) => `${k}=${v}`)].filter(Boolean).join(',');
}

function diskSize(value: string): number {
  const size = splitProps(value).props.get('size');
  return size ? (parseSize(size) ?? 0) : 0;
}

function isCdrom(value: string): boolean {
  return splitProps(value).props.get('media') === 'cdrom';
}

function memoryMiB(config: Record<string, string | number>): number {
  const m = config.memory;
  if (m === undefined) return 512;
  const text = String(m);
  const cur = /(?:^|,)(?:current=)?(\d+)(?:,|$)/.exec(text);
  return cur ? Number(cur[1]) : 512;
}

function vcpus(config: Record<string, string | number>): number {
  return Number(config.sockets ?? 1) * Number(config.cores ?? 1);
}

function bool(v: string | undefined): boolean {
  return v !== undefined && /^(?:1|true|yes|on)$/i.test(v);
}

function randomMac(): string {
  const b = crypto.randomBytes(3);
  return `BC:24:11:${[...b].map((x) => x.toString(16).toUpperCase().padStart(2, '0')).join(':')}`;
}

const NET_MODELS = new Set([
  'e1000', 'e1000-82540em', 'e1000-82544gc', 'e1000-82545em', 'e1000e', 'i82551', 'i82557b', 'i82559er',
  'ne2k_isa', 'ne2k_pci', 'pcnet', 'rtl8139', 'virtio', 'vmxnet3',
]);

const DEFAULT_CONTENT = 'images,rootdir';

/** Config keys that take no part in the stored configuration. */
const NON_CONFIG_PARAMS = new Set(['node', 'vmid', 'digest', 'delete', 'background_delay', 'skiplock', 'force', 'revert']);

export class SimCluster {
  readonly nodes = new Map<string, SimNodeSpec & { status: 'online' | 'offline' }>();
  readonly storages = new Map<string, SimStorageSpec>();
  readonly bridges = new Map<string, SimBridgeSpec>();
  readonly pools = new Map<string, SimPoolSpec>();
  readonly guests = new Map<number, SimGuest>();
  /** Volumes left on storage by a destroy that ended with warnings. */
  readonly orphanVolumes: { node: string; volid: string; vmid: number; size: number }[] = [];
  readonly tasks: TaskManager;
  private readonly bootTime = Math.floor(Date.now() / 1000) - 86_400;
  private guestPid = 100_000;

  constructor(
    private readonly spec: ClusterSpec,
    readonly settings: ClusterSettings,
    private readonly configTypes: (key: string) => string | undefined,
  ) {
    this.tasks = new TaskManager({ taskMs: (type) => this.settings.taskMsByType[type] ?? this.settings.taskMs, hiddenPolls: () => this.settings.hiddenTaskPolls });
    this.reset();
  }

  /** Back to the initial cluster: guests, tasks and locks as specified. */
  reset(): void {
    this.tasks.clear();
    this.nodes.clear();
    this.storages.clear();
    this.bridges.clear();
    this.pools.clear();
    this.guests.clear();
    this.orphanVolumes.length = 0;
    for (const n of this.spec.nodes) this.nodes.set(n.name, { ...n, status: n.status ?? 'online' });
    for (const s of this.spec.storages) this.storages.set(s.storage, { ...s });
    for (const b of this.spec.bridges) this.bridges.set(b.iface, { ...b });
    for (const p of this.spec.pools) this.pools.set(p.poolid, { ...p });
    for (const t of this.spec.templates) {
      const storage = t.storage ?? this.spec.storages[0]?.storage ?? 'local-lvm';
      this.guests.set(t.vmid, {
        vmid: t.vmid,
        node: t.node,
        status: 'stopped',
        config: {
          name: t.name,
          ostype: t.ostype ?? 'l26',
          template: 1,
          sockets: 1,
          cores: 1,
          memory: '1024',
          cpu: 'x86-64-v2-AES',
          scsihw: 'virtio-scsi-single',
          scsi0: `${storage}:base-${t.vmid}-disk-0,iothread=1,size=${t.diskGiB ?? 4}G`,
          ide2: `${storage}:vm-${t.vmid}-cloudinit,media=cdrom`,
          boot: 'order=scsi0',
          net0: `virtio=${randomMac()},bridge=vmbr0`,
          serial0: 'socket',
          vga: 'serial0',
          agent: '1',
          smbios1: `uuid=${crypto.randomUUID()}`,
          vmgenid: crypto.randomUUID(),
        },
      });
    }
    // history started by someone else: invisible to the API token
    const firstNode = this.spec.nodes[0]?.name;
    if (firstNode) {
      const t = Math.floor(Date.now() / 1000) - 3600;
      this.tasks.seed({
        node: firstNode, pid: 0x3e8, pstart: 0x1234, starttime: t, type: 'aptupdate', id: '', user: 'root@pam',
        status: 'stopped', exitstatus: 'OK', endtime: t + 5,
      });
    }
  }

  // ---------------------------------------------------------------- helpers

  checkNode(node: string): SimNodeSpec & { status: 'online' | 'offline' } {
    const n = this.nodes.get(node);
    if (!n) throw new SimHttpError(500, `hostname lookup '${node}' failed - failed to get address info for: ${node}: Name or service not known`);
    if (n.status !== 'online') throw new SimHttpError(595, `Connection refused`);
    return n;
  }

  private configPath(node: string, vmid: number): string {
    return `nodes/${node}/qemu-server/${vmid}.conf`;
  }

  /** The guest with this VMID on this node, as Proxmox resolves the config file. */
  guestOn(node: string, vmid: number): SimGuest {
    this.checkNode(node);
    const g = this.guests.get(vmid);
    if (!g || g.node !== node) throw fail(`Configuration file '${this.configPath(node, vmid)}' does not exist`);
    return g;
  }

  private checkLock(g: SimGuest): void {
    const lock = g.config.lock;
    if (lock !== undefined) throw fail(`VM ${g.vmid} is locked (${lock})`);
  }

  private checkBusy(g: SimGuest): void {
    if (g.busyWith) throw fail(`can't lock file '/var/lock/qemu-server/lock-${g.vmid}.conf' - got timeout`);
  }

  private checkMutable(g: SimGuest): void {
    this.checkBusy(g);
    this.checkLock(g);
  }

  digest(config: Record<string, string | number>): string {
    const text = Object.keys(config)
      .sort()
      .map((k) => `${k}: ${config[k]}`)
      .join('\n');
    return crypto.createHash('sha1').update(text).digest('hex');
  }

  /** Types a config value as Proxmox answers it: integers/booleans as numbers. */
  private typed(key: string, value: string | number): string | number {
    const t = this.configTypes(key);
    if ((t === 'integer' || t === 'boolean' || t === 'number') && typeof value === 'string' && /^-?\d+(?:\.\d+)?$/.test(value)) {
      return Number(value);
    }
    if (t === 'string' && typeof value === 'number') return String(value);
    return value;
  }

  /** The configuration as GET .../config shows it. */
  configView(g: SimGuest): Record<string, string | number> {
    const out: Record<string, string | number> = {};
    for (const [k, v] of Object.entries(g.config)) out[k] = this.typed(k, v);
    if (out.cipassword !== undefined) out.cipassword = '**********';
    out.digest = this.digest(g.config);
    return out;
  }

  /** Applies the fault's after-effects (lock / lose_guest) to a guest. */
  private applyAfterFault(fault: Fault | undefined, vmid: number, defaultLock: string): void {
    if (!fault) return;
    if (fault.mode === 'lose_guest') {
      this.guests.delete(vmid);
    } else if (fault.mode === 'lock') {
      const g = this.guests.get(vmid);
      if (g) g.config.lock = fault.message ?? defaultLock;
    }
  }

  /**
   * Starts a task about a guest. `configLock` is set on the guest while it runs (clone,
   * migrate); `holdFile` makes other mutating calls fail with the lock timeout.
   */
  private guestTask(
    ctx: CallContext,
    o: {
      node: string;
      type: string;
      id: string;
      vmid: number;
      configLock?: string;
      holdFile?: boolean;
      run: () => number | void;
      onFail?: () => void;
      defaultFaultLock?: string;
    },
  ): string {
    const fault = ctx.fault;
    ctx.faultHandled = true;
    const g = this.guests.get(o.vmid);
    if (g && o.configLock) g.config.lock = o.configLock;
    let upid = '';
    const task = this.tasks.create({
      node: o.node,
      type: o.type,
      id: o.id,
      user: ctx.user,
      hang: fault?.mode === 'hang',
      failWith: fault?.mode === 'task_fail' ? (fault.message ?? 'simulated task failure') : undefined,
      warnings: fault?.mode === 'task_warnings' ? (fault.warnings ?? 1) : undefined,
      run: o.run,
      after: (t: SimTask) => {
        const guest = this.guests.get(o.vmid);
        if (guest) {
          if (o.configLock && guest.config.lock === o.configLock) delete guest.config.lock;
          if (guest.busyWith === upid) delete guest.busyWith;
        }
        if (t.exitstatus !== 'OK' && !/^WARNINGS/.test(t.exitstatus ?? '')) o.onFail?.();
        this.applyAfterFault(fault, o.vmid, o.defaultFaultLock ?? o.configLock ?? 'backup');
      },
    });
    upid = task.upid;
    if (g && o.holdFile) g.busyWith = upid;
    return upid;
  }

  private allocateDisk(vmid: number, storage: string, sizeGiB: number, rest: string): string {
    if (!this.storages.has(storage)) throw fail(`storage '${storage}' does not exist`);
    const used = new Set<string>();
    for (const g of this.guests.values()) {
      for (const [k, v] of Object.entries(g.config)) {
        if (!DISK_KEY.test(k) && !/^unused\d+$/.test(k)) continue;
        const [store, volume = ''] = (String(v).split(',')[0] as string).split(':');
        // linked clones name their volume base-<id>-disk-<n>/vm-<id>-disk-<n>
        used.add(`${store}:${volume.split('/').pop() ?? volume}`);
      }
    }
    let i = 0;
    while (used.has(`${storage}:vm-${vmid}-disk-${i}`)) i++;
    return `${storage}:vm-${vmid}-disk-${i}${rest}${/(?:^|,)size=/.test(rest) ? '' : `,size=${sizeGiB}G`}`;
  }

  private normalizeNet(value: string): string {
    const { first, props } = splitProps(value);
    let model: string | undefined;
    let mac: string | undefined;
    const rest = new Map<string, string>();
    const entries: [string, string][] = first ? [['model', first], ...props] : [...props];
    for (const [k, v] of entries) {
      if (k === 'model') model = v;
      else if (k === 'macaddr') mac = v;
      else if (NET_MODELS.has(k)) {
        model = k;
        mac = v;
      } else rest.set(k, v);
    }
    if (!model) throw new SimHttpError(400, 'Parameter verification failed.', { net: 'model: property is missing' });
    const bridge = rest.get('bridge');
    if (bridge !== undefined) {
      const b = this.bridges.get(bridge);
      if (!b) throw fail(`bridge '${bridge}' does not exist`);
      if (rest.has('tag') && !b.vlanAware) throw fail(`vlan aware feature need to be enabled to use trunks or tag on bridge '${bridge}'`);
    }
    const sorted = new Map([...rest].sort(([a], [b]) => a.localeCompare(b)));
    return joinProps(`${model}=${(mac ?? randomMac()).toUpperCase()}`, sorted);
  }

  /** The file behind a `<storage>:snippets/<name>` volume, or the refusal Proxmox answers. */
  private snippetFile(volume: string): string {
    const match = /^([A-Za-z][A-Za-z0-9._-]*):snippets\/([^/]+)$/.exec(volume);
    const storage = match ? this.storages.get(match[1] as string) : undefined;
    if (match && !storage) throw fail(`storage '${match[1]}' does not exist`);
    if (!match || !storage?.snippetsDir || !(storage.content ?? DEFAULT_CONTENT).split(',').includes('snippets')) {
      throw fail(`volume '${volume}' does not exist`);
    }
    const file = path.join(storage.snippetsDir, match[2] as string);
    if (!existsSync(file)) throw fail(`volume '${volume}' does not exist`);
    return file;
  }

  /** `cicustom: user=<volume>,network=…`: like Proxmox, every volume named must exist on a snippets storage. */
  private checkCicustom(value: string): void {
    for (const part of value.split(',').filter(Boolean)) {
      const [kind, volume] = part.split('=') as [string, string | undefined];
      if (!['user', 'network', 'meta', 'vendor'].includes(kind) || !volume) {
        throw new SimHttpError(400, 'Parameter verification failed.', { cicustom: `invalid format - unknown part '${part}'` });
      }
      this.snippetFile(volume);
    }
  }

  /** What a guest's cloud-init user data file holds right now (the control API shows it); undefined without `cicustom: user=`. */
  private customUserData(g: SimGuest): string | undefined {
    const user = /(?:^|,)user=([^,]+)/.exec(String(g.config.cicustom ?? ''))?.[1];
    if (!user) return undefined;
    try {
      return readFileSync(this.snippetFile(user), 'utf8');
    } catch {
      return undefined;
    }
  }

  /** Checks and normalizes a config change; returns the function that applies it. */
  private prepareConfig(g: SimGuest, params: Record<string, string>): () => void {
    if (params.digest !== undefined && params.digest !== this.digest(g.config)) {
      throw fail('detected modified configuration - file changed by other user? Try again.');
    }
    const deletes = (params.delete ?? '').split(/[,;\s]+/).filter(Boolean);
    const changes: [string, string | number][] = [];
    for (const [key, raw] of Object.entries(params)) {
      if (NON_CONFIG_PARAMS.has(key)) continue;
      if (deletes.includes(key)) {
        throw new SimHttpError(400, 'Parameter verification failed.', { delete: `you can't use '-${key}' and '-delete ${key}' at the same time` });
      }
      let value: string | number = raw;
      const type = this.configTypes(key);
      if (type === 'boolean') value = bool(raw) ? 1 : 0;
      else if (type === 'integer') value = Number(raw);
      if (/^net\d+$/.test(key)) value = this.normalizeNet(raw);
      if (DISK_KEY.test(key)) {
        const m = /^([a-z][a-z0-9\-_.]*[a-z0-9]):(\d+)(,.*)?$/i.exec(raw);
        if (m && !isCdrom(raw)) value = this.allocateDisk(g.vmid, m[1] as string, Number(m[2]), m[3] ?? '');
        else if (/^([a-z][a-z0-9\-_.]*[a-z0-9]):/i.test(raw)) {
          const storage = raw.split(':')[0] as string;
          if (storage !== 'none' && !this.storages.has(storage) && !isCdrom(raw)) throw fail(`storage '${storage}' does not exist`);
        }
      }
      if (key === 'cicustom') this.checkCicustom(raw);
      if (key === 'template' && value === 1 && g.status === 'running') throw fail("you can't convert a running VM to a template");
      changes.push([key, value]);
    }
    return () => {
      for (const d of deletes) delete g.config[d];
      for (const [k, v] of changes) g.config[k] = v;
    };
  }

  // ---------------------------------------------------------------- reads

  /** Major release of the simulated Proxmox VE, for members only one release answers. */
  private get majorRelease(): number {
    return Number(this.settings.pveVersion.split('.')[0]);
  }

  /** A node as GET /cluster/resources lists it. */
  private nodeResource(n: SimNodeSpec & { status: 'online' | 'offline' }): Record<string, unknown> {
    const u = this.nodeUsage(n.name);
    return {
      id: `node/${n.name}`,
      type: 'node',
      node: n.name,
      status: n.status,
      level: '',
      ...(n.status === 'online'
        ? {
            maxcpu: n.cpus,
            maxmem: n.memoryGiB * GiB,
            mem: u.mem,
            cpu: u.cpu,
            uptime: Math.floor(Date.now() / 1000) - this.bootTime,
            maxdisk: 100 * GiB,
            disk: 8 * GiB,
          }
        : {}),
    };
  }

  nodeList(): object[] {
    return [...this.nodes.values()].map((n) => {
      const { id: _id, type: _type, maxdisk: _maxdisk, disk: _disk, ...entry } = this.nodeResource(n);
      return n.status === 'online' ? { ...entry, ssl_fingerprint: fingerprint(n.name) } : entry;
    });
  }

  /** The cluster entry, then one entry per node; the first online node is the one answering. */
  clusterStatus(): object[] {
    const nodes = [...this.nodes.values()];
    const online = nodes.filter((n) => n.status === 'online');
    const local = online[0]?.name;
    return [
      {
        type: 'cluster',
        id: 'cluster',
        name: this.settings.clusterName,
        nodes: nodes.length,
        quorate: online.length * 2 > nodes.length ? 1 : 0,
        version: nodes.length,
      },
      ...nodes.map((n, i) => ({
        type: 'node',
        id: `node/${n.name}`,
        name: n.name,
        nodeid: i + 1,
        ip: n.ip ?? `192.0.2.${11 + i}`,
        online: n.status === 'online' ? 1 : 0,
        local: n.name === local ? 1 : 0,
        level: '',
      })),
    ];
  }

  private nodeUsage(node: string): { mem: number; cpu: number; running: number } {
    let mem = HOST_MEM_BASE;
    let cpuCount = 0;
    let running = 0;
    for (const g of this.guests.values()) {
      if (g.node !== node || g.status !== 'running') continue;
      mem += memoryMiB(g.config) * MiB;
      cpuCount += vcpus(g.config);
      running++;
    }
    const n = this.nodes.get(node);
    const cpu = n ? Math.min(1, 0.01 + (cpuCount * 0.02) / n.cpus) : 0;
    return { mem, cpu: Math.round(cpu * 10_000) / 10_000, running };
  }

  nodeStatus(node: string): object {
    const n = this.checkNode(node);
    const u = this.nodeUsage(node);
    const total = n.memoryGiB * GiB;
    return {
      cpu: u.cpu,
      wait: 0,
      idle: 0,
      uptime: Math.floor(Date.now() / 1000) - this.bootTime,
      loadavg: [(u.cpu * n.cpus).toFixed(2), '0.40', '0.35'],
      pveversion: `pve-manager/${this.settings.pveVersion}/0000000000000000`,
      kversion: `Linux ${KERNEL.release} ${KERNEL.version}`,
      'current-kernel': KERNEL,
      cpuinfo: {
        model: n.cpuModel ?? 'QEMU Virtual CPU',
        cpus: n.cpus,
        cores: Math.max(1, n.cpus / 2),
        sockets: 1,
        flags: n.cpuFlags.join(' '),
      },
      memory: { total, used: u.mem, free: total - u.mem, ...(this.majorRelease >= 9 ? { available: total - u.mem } : {}) },
      swap: { total: 8 * GiB, used: 0, free: 8 * GiB },
      rootfs: { total: 100 * GiB, used: 8 * GiB, free: 92 * GiB, avail: 92 * GiB },
      ksm: { shared: 0 },
      'boot-info': { mode: 'efi', secureboot: 0 },
    };
  }

  private guestResource(g: SimGuest): Record<string, unknown> {
    const running = g.status === 'running';
    const maxmem = memoryMiB(g.config) * MiB;
    let maxdisk = 0;
    for (const [k, v] of Object.entries(g.config)) if (DISK_KEY.test(k) && !isCdrom(String(v))) maxdisk += diskSize(String(v));
    return {
      id: `qemu/${g.vmid}`,
      type: 'qemu',
      vmid: g.vmid,
      node: g.node,
      status: g.status,
      name: String(g.config.name ?? `VM ${g.vmid}`),
      ...(g.config.tags !== undefined ? { tags: String(g.config.tags) } : {}),
      ...(g.config.lock !== undefined ? { lock: String(g.config.lock) } : {}),
      ...(g.config.template === 1 ? { template: 1 } : {}),
      ...(g.pool !== undefined ? { pool: g.pool } : {}),
      maxcpu: vcpus(g.config),
      maxmem,
      mem: running ? Math.floor(maxmem * 0.4) : 0,
      cpu: running ? 0.01 : 0,
      maxdisk,
      disk: 0,
      uptime: running && g.startedAt ? Math.floor((Date.now() - g.startedAt) / 1000) : 0,
      netin: 0,
      netout: 0,
      diskread: 0,
      diskwrite: 0,
    };
  }

  resources(type?: string): object[] {
    const out: object[] = [];
    if (!type || type === 'vm') {
      for (const g of [...this.guests.values()].sort((a, b) => a.vmid - b.vmid)) out.push(this.guestResource(g));
    }
    if (!type || type === 'node') for (const n of this.nodes.values()) out.push(this.nodeResource(n));
    if (!type || type === 'storage') {
      for (const n of this.nodes.values()) {
        for (const s of this.storages.values()) {
          out.push({
            id: `storage/${n.name}/${s.storage}`,
            type: 'storage',
            node: n.name,
            storage: s.storage,
            status: n.status === 'online' ? 'available' : 'unknown',
            plugintype: s.type ?? 'lvmthin',
            ...(this.majorRelease >= 9 ? { shared: s.shared ? 1 : 0 } : {}),
            content: s.content ?? DEFAULT_CONTENT,
            maxdisk: (s.totalGiB ?? 1024) * GiB,
            disk: this.storageUsed(n.name, s.storage),
          });
        }
      }
    }
    return out;
  }

  private storageUsed(node: string, storage: string): number {
    let used = 0;
    for (const g of this.guests.values()) {
      if (g.node !== node) continue;
      for (const [k, v] of Object.entries(g.config)) {
        const text = String(v);
        if (DISK_KEY.test(k) && text.startsWith(`${storage}:`) && !isCdrom(text)) used += diskSize(text);
      }
    }
    return used;
  }

  storageList(node: string): object[] {
    this.checkNode(node);
    return [...this.storages.values()].map((s) => {
      const total = (s.totalGiB ?? 1024) * GiB;
      const used = this.storageUsed(node, s.storage);
      return {
        storage: s.storage,
        type: s.type ?? 'lvmthin',
        content: s.content ?? DEFAULT_CONTENT,
        shared: s.shared ? 1 : 0,
        active: 1,
        enabled: 1,
        total,
        used,
        avail: total - used,
        used_fraction: used / total,
      };
    });
  }

  networkList(node: string): object[] {
    this.checkNode(node);
    return [...this.bridges.values()].map((b) => ({
      iface: b.iface,
      type: 'bridge',
      active: 1,
      autostart: 1,
      bridge_ports: 'eno1',
      ...(b.vlanAware ? { 'bridge_vlan_aware': 1 } : {}),
      method: 'manual',
      families: ['inet'],
    }));
  }

  nextId(vmid?: string): string {
    if (vmid !== undefined) {
      if (this.guests.has(Number(vmid))) throw new SimHttpError(400, 'Parameter verification failed.', { vmid: `VM ${vmid} already exists` });
      return String(Number(vmid));
    }
    let id = 100;
    while (this.guests.has(id)) id++;
    return String(id);
  }

  qemuList(node: string): object[] {
    this.checkNode(node);
    return [...this.guests.values()]
      .filter((g) => g.node === node)
      .map((g) => {
        const { id: _id, type: _type, node: _node, pool: _pool, maxcpu, disk: _disk, ...entry } = this.guestResource(g);
        return { ...entry, cpus: maxcpu };
      });
  }

  vmStatus(node: string, vmid: number): object {
    const g = this.guestOn(node, vmid);
    const running = g.status === 'running';
    const r = this.guestResource(g);
    return {
      vmid: g.vmid,
      name: r.name,
      status: g.status,
      qmpstatus: g.status,
      cpus: vcpus(g.config),
      maxmem: r.maxmem,
      mem: r.mem,
      maxdisk: r.maxdisk,
      cpu: r.cpu,
      uptime: r.uptime,
      netin: 0,
      netout: 0,
      diskread: 0,
      diskwrite: 0,
      ha: { managed: 0 },
      ...(running ? { pid: g.pid, 'running-machine': 'pc-i440fx-9.2+pve1', 'running-qemu': '9.2.0' } : {}),
      ...(bool(String(g.config.agent ?? '0').split(',')[0]?.replace('enabled=', '')) ? { agent: 1 } : {}),
      ...(g.config.lock !== undefined ? { lock: String(g.config.lock) } : {}),
      ...(g.config.template === 1 ? { template: 1 } : {}),
      ...(g.config.tags !== undefined ? { tags: String(g.config.tags) } : {}),
    };
  }

  getConfig(node: string, vmid: number): object {
    return this.configView(this.guestOn(node, vmid));
  }

  // ---------------------------------------------------------------- mutations

  clone(ctx: CallContext, node: string, vmid: number, p: Record<string, string>): string {
    const src = this.guestOn(node, vmid);
    const newid = Number(p.newid);
    if (this.guests.has(newid)) throw fail(`unable to create VM ${newid}: config file already exists`);
    const isTemplate = src.config.template === 1;
    const full = p.full !== undefined ? bool(p.full) : !isTemplate;
    if (!full && !isTemplate) throw fail('linked clone feature is only supported for templates');
    if (!full && p.storage !== undefined) throw fail("parameter 'storage' not allowed for linked clones");
    if (!full && p.format !== undefined) throw fail("parameter 'format' not allowed for linked clones");
    if (!isTemplate) this.checkMutable(src);
    if (p.storage !== undefined && !this.storages.has(p.storage)) throw fail(`storage '${p.storage}' does not exist`);
    if (p.pool !== undefined && !this.pools.has(p.pool)) throw new SimHttpError(403, `Permission check failed (pool '${p.pool}' does not exist)`);
    const target = p.target ?? node;
    if (target !== node) {
      if (!this.nodes.has(target)) throw fail(`no such cluster node '${target}'`);
      this.checkNode(target);
      const disks = Object.entries(src.config).filter(([k, v]) => DISK_KEY.test(k) && !isCdrom(String(v)));
      const local = disks.some(([, v]) => !this.storages.get(String(v).split(':')[0] as string)?.shared);
      if (local && p.storage === undefined) throw fail(`can't clone VM to node '${target}' (VM uses local storage)`);
    }
    const config: Record<string, string | number> = {};
    for (const [k, v] of Object.entries(src.config)) {
      if (k === 'template' || k === 'lock' || k === 'name' || k === 'description' || /^unused\d+$/.test(k)) continue;
      config[k] = v;
    }
    config.name = p.name ?? (src.config.name !== undefined ? `Copy-of-VM-${src.config.name}` : `Copy-of-VM-${vmid}`);
    if (p.description !== undefined) config.description = p.description;
    config.smbios1 = `uuid=${crypto.randomUUID()}`;
    config.vmgenid = crypto.randomUUID();
    let diskIndex = 0;
    for (const [k, v] of Object.entries(config)) {
      const text = String(v);
      if (/^net\d+$/.test(k)) {
        config[k] = this.normalizeNet(text.replace(/^([a-z0-9-_]+)=[0-9A-Fa-f:]{17}/, '$1'));
      } else if (DISK_KEY.test(k)) {
        const { first, props } = splitProps(text);
        const [storage, volume] = first.split(':') as [string, string | undefined];
        if (isCdrom(text)) {
          if (/cloudinit/.test(volume ?? '')) config[k] = joinProps(`${storage}:vm-${newid}-cloudinit`, props);
          continue;
        }
        const targetStorage = p.storage ?? storage;
        const name = `vm-${newid}-disk-${diskIndex++}`;
        config[k] = joinProps(full ? `${targetStorage}:${name}` : `${storage}:${volume}/${name}`, props);
      }
    }
    const guest: SimGuest = { vmid: newid, node: target, status: 'stopped', config, ...(p.pool !== undefined ? { pool: p.pool } : {}) };
    this.guests.set(newid, guest);
    return this.guestTask(ctx, {
      node,
      type: 'qmclone',
      id: String(vmid),
      vmid: newid,
      configLock: 'clone',
      run: () => undefined,
      onFail: () => {
        // a failed clone removes what it created (unless a lock is left behind)
        const g = this.guests.get(newid);
        if (g === guest && ctx.fault?.mode !== 'lock') this.guests.delete(newid);
      },
    });
  }

  setConfig(ctx: CallContext, node: string, vmid: number, p: Record<string, string>, async: boolean): string | null {
    const g = this.guestOn(node, vmid);
    this.checkMutable(g);
    const apply = this.prepareConfig(g, p);
    if (!async) {
      apply();
      return null;
    }
    return this.guestTask(ctx, { node, type: 'qmconfig', id: String(vmid), vmid, holdFile: true, run: apply });
  }

  resize(ctx: CallContext, node: string, vmid: number, p: Record<string, string>): string {
    const g = this.guestOn(node, vmid);
    this.checkMutable(g);
    const disk = p.disk as string;
    const size = p.size as string;
    return this.guestTask(ctx, {
      node,
      type: 'resize',
      id: String(vmid),
      vmid,
      holdFile: true,
      run: () => {
        const current = this.guests.get(vmid)?.config[disk];
        if (current === undefined) throw new Error(`disk '${disk}' does not exist`);
        const text = String(current);
        if (isCdrom(text)) throw new Error("you can't resize a cdrom");
        const old = diskSize(text);
        const relative = size.startsWith('+');
        const delta = parseSize(relative ? size.slice(1) : size) ?? 0;
        const next = relative ? old + delta : delta;
        if (next < old) throw new Error('shrinking disks is not supported');
        if (next === old) return;
        const { first, props } = splitProps(text);
        props.set('size', formatSize(next));
        (this.guests.get(vmid) as SimGuest).config[disk] = joinProps(first, props);
      },
    });
  }

  start(ctx: CallContext, node: string, vmid: number): string {
    const g = this.guestOn(node, vmid);
    if (g.config.template === 1) throw fail("you can't start a vm if it's a template");
    this.checkMutable(g);
    return this.guestTask(ctx, {
      node,
      type: 'qmstart',
      id: String(vmid),
      vmid,
      holdFile: true,
      run: () => {
        const guest = this.guests.get(vmid);
        if (!guest) throw new Error(`Configuration file '${this.configPath(node, vmid)}' does not exist`);
        if (guest.status === 'running') throw new Error(`VM ${vmid} already running`);
        // The cloud-init drive is generated at start: a custom snippet must still be there.
        if (guest.config.cicustom !== undefined) this.checkCicustom(String(guest.config.cicustom));
        guest.status = 'running';
        guest.startedAt = Date.now();
        guest.pid = ++this.guestPid;
      },
    });
  }

  private stopLike(ctx: CallContext, node: string, vmid: number, type: string): string {
    const g = this.guestOn(node, vmid);
    this.checkMutable(g);
    return this.guestTask(ctx, {
      node,
      type,
      id: String(vmid),
      vmid,
      holdFile: true,
      run: () => {
        const guest = this.guests.get(vmid);
        if (!guest || guest.status !== 'running') return;
        guest.status = 'stopped';
        delete guest.startedAt;
        delete guest.pid;
      },
    });
  }

  stop(ctx: CallContext, node: string, vmid: number): string {
    return this.stopLike(ctx, node, vmid, 'qmstop');
  }

  shutdown(ctx: CallContext, node: string, vmid: number): string {
    return this.stopLike(ctx, node, vmid, 'qmshutdown');
  }

  reboot(ctx: CallContext, node: string, vmid: number): string {
    const g = this.guestOn(node, vmid);
    if (g.status !== 'running') throw fail(`VM ${vmid} not running`);
    this.checkMutable(g);
    return this.guestTask(ctx, {
      node,
      type: 'qmreboot',
      id: String(vmid),
      vmid,
      holdFile: true,
      run: () => {
        const guest = this.guests.get(vmid);
        if (guest?.status === 'running') guest.startedAt = Date.now();
      },
    });
  }

  migrate(ctx: CallContext, node: string, vmid: number, p: Record<string, string>): string {
    const g = this.guestOn(node, vmid);
    const target = p.target as string;
    if (target === node) throw fail('target is local node.');
    if (!this.nodes.has(target)) throw fail(`no such cluster node '${target}'`);
    if (this.nodes.get(target)?.status !== 'online') throw fail(`target node '${target}' is not online`);
    const online = bool(p.online);
    if (g.status === 'running' && !online) throw fail("can't migrate running VM without --online");
    this.checkMutable(g);
    if (g.status === 'running' && !bool(p['with-local-disks'])) {
      const local = Object.entries(g.config).some(
        ([k, v]) => DISK_KEY.test(k) && !isCdrom(String(v)) && !this.storages.get(String(v).split(':')[0] as string)?.shared,
      );
      if (local) throw fail("can't live migrate attached local disks without with-local-disks option");
    }
    return this.guestTask(ctx, {
      node,
      type: 'qmigrate',
      id: String(vmid),
      vmid,
      configLock: 'migrate',
      run: () => {
        const guest = this.guests.get(vmid);
        if (!guest) throw new Error(`Configuration file '${this.configPath(node, vmid)}' does not exist`);
        guest.node = target;
      },
    });
  }

  destroy(ctx: CallContext, node: string, vmid: number): string {
    const g = this.guestOn(node, vmid);
    this.checkMutable(g);
    if (g.status === 'running') throw fail(`VM ${vmid} is running - destroy failed`);
    return this.guestTask(ctx, {
      node,
      type: 'qmdestroy',
      id: String(vmid),
      vmid,
      holdFile: true,
      run: () => {
        const guest = this.guests.get(vmid);
        if (guest && ctx.fault?.mode === 'task_warnings') {
          // Proxmox only warns when it cannot remove a disk: the volumes stay on the storage
          for (const [k, v] of Object.entries(guest.config)) {
            const text = String(v);
            if (!DISK_KEY.test(k) || isCdrom(text)) continue;
            const [store, volume = ''] = splitProps(text).first.split(':');
            const volid = `${store}:${volume.split('/').pop() ?? volume}`;
            this.orphanVolumes.push({ node: guest.node, volid, vmid, size: diskSize(text) });
          }
        }
        this.guests.delete(vmid);
      },
    });
  }

  storageContent(node: string, storage: string, p: Record<string, string>): object[] {
    this.checkNode(node);
    if (!this.storages.has(storage)) throw fail(`storage '${storage}' does not exist`);
    const spec = this.storages.get(storage);
    if (p.content === 'snippets') return this.snippetVolumes(storage, spec?.snippetsDir);
    if (p.content !== undefined && p.content !== 'images') return [];
    const out: { volid: string; vmid: number; size: number }[] = [];
    for (const g of this.guests.values()) {
      if (g.node !== node) continue;
      for (const [k, v] of Object.entries(g.config)) {
        const text = String(v);
        if (!DISK_KEY.test(k) || isCdrom(text) || !text.startsWith(`${storage}:`)) continue;
        const first = splitProps(text).first;
        const volume = first.slice(storage.length + 1).split('/').pop() ?? '';
        out.push({ volid: `${storage}:${volume}`, vmid: g.vmid, size: diskSize(text) });
      }
    }
    for (const o of this.orphanVolumes) if (o.node === node && o.volid.startsWith(`${storage}:`)) out.push({ volid: o.volid, vmid: o.vmid, size: o.size });
    return out
      .filter((x) => p.vmid === undefined || x.vmid === Number(p.vmid))
      .sort((a, b) => a.volid.localeCompare(b.volid))
      .map((x) => ({ ...x, format: 'raw', ctime: Math.floor(Date.now() / 1000) }));
  }

  private snippetVolumes(storage: string, directory: string | undefined): object[] {
    if (!directory || !existsSync(directory)) return [];
    return readdirSync(directory)
      .filter((name) => !name.startsWith('.') && statSync(path.join(directory, name)).isFile())
      .sort()
      .map((name) => ({ volid: `${storage}:snippets/${name}`, content: 'snippets', format: 'snippet', size: statSync(path.join(directory, name)).size, ctime: Math.floor(Date.now() / 1000) }));
  }

  /** Pools with their comment; with `poolid`, that pool alone with its members (guests only). */
  poolList(p: Record<string, string>): object[] {
    const summary = (pool: SimPoolSpec) => ({ poolid: pool.poolid, ...(pool.comment !== undefined ? { comment: pool.comment } : {}) });
    if (p.poolid === undefined) return [...this.pools.values()].map(summary);
    const pool = this.pools.get(p.poolid);
    if (!pool) throw fail(`pool '${p.poolid}' does not exist`);
    const members =
      p.type === undefined || p.type === 'qemu'
        ? [...this.guests.values()].filter((g) => g.pool === pool.poolid).sort((a, b) => a.vmid - b.vmid).map((g) => this.guestResource(g))
        : [];
    return [{ ...summary(pool), members }];
  }

  agentPing(node: string, vmid: number): object {
    const g = this.guestOn(node, vmid);
    if (g.status !== 'running') throw fail(`VM ${vmid} is not running`);
    const agent = String(g.config.agent ?? '0');
    const enabled = bool(/(?:^|,)(?:enabled=)?([^,=]+)(?:,|$)/.exec(agent)?.[1]);
    if (!enabled) throw fail('No QEMU guest agent configured');
    if (!g.startedAt || Date.now() - g.startedAt < this.settings.agentReadyMs) throw fail('QEMU guest agent is not running');
    return { result: {} };
  }

  // ---------------------------------------------------------------- tasks

  private taskView(t: SimTask): Record<string, unknown> {
    const bang = t.user.indexOf('!');
    return {
      upid: t.upid,
      node: t.node,
      pid: t.pid,
      pstart: t.pstart,
      starttime: t.starttime,
      type: t.type,
      id: t.id,
      user: bang >= 0 ? t.user.slice(0, bang) : t.user,
      ...(bang >= 0 ? { tokenid: t.user.slice(bang + 1) } : {}),
    };
  }

  taskStatus(node: string, upid: string, user: string): object {
    this.checkNode(node);
    const t = this.tasks.get(upid);
    if (!t || t.node !== node || t.user !== user) throw new SimHttpError(400, 'no such task');
    if (t.hiddenPolls > 0) {
      t.hiddenPolls--;
      throw new SimHttpError(400, 'no such task');
    }
    return { ...this.taskView(t), status: t.status, ...(t.exitstatus !== undefined ? { exitstatus: t.exitstatus } : {}) };
  }

  taskList(node: string, user: string, p: Record<string, string>): object[] {
    this.checkNode(node);
    const source = p.source ?? 'archive';
    const limit = p.limit !== undefined ? Number(p.limit) : 50;
    const start = p.start !== undefined ? Number(p.start) : 0;
    const errorsOnly = bool(p.errors);
    const list = this.tasks
      .all()
      .filter((t) => t.node === node && t.user === user)
      .filter((t) => (source === 'active' ? t.status === 'running' : source === 'archive' ? t.status === 'stopped' : true))
      .filter((t) => p.typefilter === undefined || t.type === p.typefilter)
      .filter((t) => p.vmid === undefined || t.id === p.vmid)
      .filter((t) => p.userfilter === undefined || t.user.includes(p.userfilter))
      .filter((t) => p.since === undefined || t.starttime >= Number(p.since))
      .filter((t) => p.until === undefined || t.starttime <= Number(p.until))
      .filter((t) => !errorsOnly || (t.status === 'stopped' && t.exitstatus !== 'OK' && !/^WARNINGS/.test(t.exitstatus ?? '')))
      .sort((a, b) => b.starttime - a.starttime || b.pid - a.pid);
    return list.slice(start, start + limit).map((t) => ({
      ...this.taskView(t),
      ...(t.status === 'stopped' ? { status: t.exitstatus, endtime: t.endtime } : {}),
    }));
  }

  // ---------------------------------------------------------------- inspection

  snapshot(): { guests: object[]; tasks: object[] } {
    return {
      guests: [...this.guests.values()]
        .sort((a, b) => a.vmid - b.vmid)
        .map((g) => ({
          vmid: g.vmid,
          node: g.node,
          name: g.config.name !== undefined ? String(g.config.name) : undefined,
          status: g.status,
          tags: g.config.tags !== undefined ? String(g.config.tags) : undefined,
          lock: g.config.lock !== undefined ? String(g.config.lock) : undefined,
          template: g.config.template === 1,
          // The API masks it; the control API shows what the guest will log in with.
          cipassword: g.config.cipassword !== undefined ? String(g.config.cipassword) : undefined,
          // The file `cicustom: user=` names, as the guest would read it at its next boot.
          userData: this.customUserData(g),
          config: this.configView(g),
        })),
      tasks: this.tasks.all().map((t) => ({
        upid: t.upid,
        node: t.node,
        type: t.type,
        id: t.id,
        user: t.user,
        status: t.status,
        exitstatus: t.exitstatus,
        startedAtMs: t.startedAtMs,
        endedAtMs: t.endedAtMs,
      })),
    };
  }
}

function fingerprint(node: string): string {
  const h = crypto.createHash('sha256').update(`sim:${node}`).digest('hex').toUpperCase();
  return (h.match(/../g) ?? []).join(':');
}
