/**
 * The state of an in-memory Proxmox VE cluster: nodes, storages, bridges, pools, guests (with
 * their locks) and the task list, and the VMIDs in use. What each API area does with it lives
 * beside this file, one module per area (nodes, storage, guests, tasks).
 */
import crypto from 'node:crypto';
import { SimHttpError, fail } from './call';
import { randomMac } from './config-values';
import { ConsoleListeners } from './consoles';
import { guestSize } from './guest-reads';
import type { ClusterSpec, SimBridgeSpec, SimNodeSpec, SimPoolSpec, SimStorageSpec } from './spec';
import { TaskManager } from './tasks';
import { UsageHistory, type TrafficDemand } from './usage-history';

/** A node of the running cluster: its spec with its current status. */
export type SimNode = SimNodeSpec & { status: 'online' | 'offline' };

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
  /** What the guest's disks hold, file by file (the control API writes and wipes it). */
  files: Record<string, string>;
  /** The snapshot tree, by name. */
  snapshots: Map<string, SimSnapshot>;
  /** The snapshot the current state descends from (`parent` of `current`). */
  snapParent?: string;
  /** The traffic a test set (`POST /_sim/guests/{vmid}/traffic`); unset: the default. */
  traffic?: TrafficDemand;
  /**
   * Changes a running guest takes only at its next start or API reboot (qemu-server's [PENDING]
   * section): values by key, and keys to delete.
   */
  pending?: Record<string, string | number>;
  pendingDelete?: string[];
  /** The ISO image the guest booted from at its last start (undefined: it booted from its disk). */
  bootedFrom?: string;
}

/** What a file-based storage holds besides disks and archives (the content directories of pve-storage's Plugin.pm). */
export type SimFileContent = 'iso' | 'import' | 'vztmpl';

/** A file on a storage: an ISO image, a disk image to import, a container template. */
export interface SimStorageFile {
  storage: string;
  /** The node whose local storage holds it; undefined on a shared storage, which every node sees. */
  node?: string;
  content: SimFileContent;
  /** The file's name in its content directory. */
  name: string;
  size: number;
  ctime: number;
  /** The file's first bytes: what qemu-img reads of an image, what tar lists of an archive. */
  head: Buffer;
  /** Its checksums (hex) by algorithm, for a download that finds it already there. */
  digests: Record<ChecksumAlgorithm, string>;
}

/** The checksums download-url verifies (pve-common's get_file_hash). */
export const CHECKSUM_ALGORITHMS = ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512'] as const;
export type ChecksumAlgorithm = (typeof CHECKSUM_ALGORITHMS)[number];

/** A download-url task still writing its temporary file (it takes room on the storage). */
export interface SimDownload {
  storage: string;
  node?: string;
  bytes: number;
  abort: AbortController;
}

/** A guest's state as a snapshot (or a backup archive) keeps it. */
export interface SimSnapshot {
  name: string;
  snaptime: number;
  description: string;
  /** The guest's RAM, saved on a volume of its own: a rollback resumes the guest running. */
  vmstate?: SimVmState;
  parent?: string;
  config: Record<string, string | number>;
  files: Record<string, string>;
}

/** What a snapshot with RAM records of the running guest besides its config (qemu-server, PVE/QemuConfig.pm `__snapshot_save_vmstate`). */
export interface SimVmState {
  /** The state volume's id, e.g. `local-lvm:vm-100-state-before-upgrade`. */
  volid: string;
  /** Its size in bytes: twice the memory and 500 MiB for the devices' state. */
  size: number;
  runningmachine: string;
  runningcpu: string;
  /** `net0=1500,…` of the virtio NICs (qemu-server 9.0.20 and later). */
  runningNetsHostMtu?: string;
}

/** A vzdump archive on a storage. */
export interface SimBackupVolume {
  node: string;
  storage: string;
  volid: string;
  vmid: number;
  format: string;
  size: number;
  ctime: number;
  notes: string;
  protected: boolean;
  /** What a restore rebuilds: the guest's config and disk contents at backup time. */
  config: Record<string, string | number>;
  files: Record<string, string>;
  /** The guest's firewall file at backup time (`qemu-server.fw` in the archive), if it had one. */
  firewall?: string;
}

export interface ClusterSettings {
  /** Shown by /cluster/status; fixed for the simulator's life. */
  clusterName: string;
  /** How long a task runs unless its type has its own duration in `taskMsByType`. */
  taskMs: number;
  /** Per task type (`qmclone`, `qmstart`, `qmconfig`, …): how long such tasks run. */
  taskMsByType: Record<string, number>;
  hiddenTaskPolls: number;
  /** How many of a node's most recently ended tasks its active task list still shows. */
  activeTaskListEnded: number;
  agentReadyMs: number;
  pveVersion: string;
  /**
   * How long a node waits for a URL's server before it gives up; unset: as wget (900 s read
   * timeout) and LWP (180 s) do.
   */
  urlTimeoutMs?: number;
}

export class SimCluster {
  readonly nodes = new Map<string, SimNode>();
  readonly storages = new Map<string, SimStorageSpec>();
  readonly bridges = new Map<string, SimBridgeSpec>();
  readonly pools = new Map<string, SimPoolSpec>();
  readonly guests = new Map<number, SimGuest>();
  /** Volumes left on storage by a destroy that ended with warnings. */
  readonly orphanVolumes: { node: string; volid: string; vmid: number; size: number }[] = [];
  /** Backup archives, on every storage (shared storages list them on every node). */
  readonly backupVolumes: SimBackupVolume[] = [];
  /** ISO images, disk images to import and container templates on the file-based storages. */
  readonly storageFiles: SimStorageFile[] = [];
  /** Downloads in progress, by the UPID of their task. */
  readonly downloads = new Map<string, SimDownload>();
  /** Per node: the vzdump holding the node's global backup lock, and those waiting for it in order. */
  readonly vzdumpLocks = new Map<string, { holder?: string; waiting: { upid: string; begin: () => void }[] }>();
  /** The firewall's files under `/etc/pve/firewall` by name (`cluster.fw`, `<vmid>.fw`); a missing file reads as empty. */
  readonly firewallFiles = new Map<string, string>();
  /** What each task wrote to its log beyond its final line. */
  private readonly taskLogs = new Map<string, string[]>();
  readonly tasks: TaskManager;
  /** Console listeners opened by vncproxy / termproxy, and what their connections received. */
  readonly consoles: ConsoleListeners = new ConsoleListeners(this);
  /** Each VMID's round-robin database and the traffic counters of running guests. */
  readonly usage = new UsageHistory(guestSize);
  /** Unix seconds the nodes booted at (a day before the simulator started). */
  readonly bootTime = Math.floor(Date.now() / 1000) - 86_400;
  private guestPid = 100_000;

  constructor(
    private readonly spec: ClusterSpec,
    readonly settings: ClusterSettings,
    /** Schema type of a config key (`integer`, `boolean`, `string`, …). */
    readonly configTypes: (key: string) => string | undefined,
  ) {
    this.tasks = new TaskManager({ taskMs: (type) => this.settings.taskMsByType[type] ?? this.settings.taskMs, hiddenPolls: () => this.settings.hiddenTaskPolls });
    this.reset();
  }

  /** Back to the initial cluster: guests, tasks and locks as specified. */
  reset(): void {
    this.consoles.clear();
    this.abortDownloads();
    this.tasks.clear();
    this.nodes.clear();
    this.storages.clear();
    this.bridges.clear();
    this.pools.clear();
    this.guests.clear();
    this.orphanVolumes.length = 0;
    this.backupVolumes.length = 0;
    this.storageFiles.length = 0;
    this.vzdumpLocks.clear();
    this.firewallFiles.clear();
    this.taskLogs.clear();
    this.usage.clear();
    for (const n of this.spec.nodes) this.nodes.set(n.name, { ...n, status: n.status ?? 'online' });
    for (const s of this.spec.storages) this.storages.set(s.storage, { ...s });
    for (const b of this.spec.bridges) this.bridges.set(b.iface, { ...b });
    for (const p of this.spec.pools) this.pools.set(p.poolid, { ...p });
    for (const t of this.spec.templates) {
      const storage = t.storage ?? this.spec.storages[0]?.storage ?? 'local-lvm';
      this.addGuest({
        vmid: t.vmid,
        node: t.node,
        status: 'stopped',
        files: {},
        snapshots: new Map(),
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
          ...(t.vga ? { vga: t.vga } : {}),
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

  /**
   * `count` plain guests from VMID `firstVmid` on, spread over the online nodes in turn, named as a
   * hosting provider's would be (a large cluster's population, without a clone task each). Refused
   * when a VMID is taken.
   */
  seedGuests(o: { count: number; firstVmid: number; status: 'running' | 'stopped' }): void {
    const nodes = [...this.nodes.values()].filter((n) => n.status === 'online');
    if (nodes.length === 0) throw fail('no node is online');
    for (let vmid = o.firstVmid; vmid < o.firstVmid + o.count; vmid++) {
      if (this.guests.has(vmid)) throw fail(`VM ${vmid} already exists`);
    }
    const storage = this.spec.storages[0]?.storage ?? 'local-lvm';
    for (let i = 0; i < o.count; i++) {
      const vmid = o.firstVmid + i;
      const node = nodes[i % nodes.length] as SimNode;
      // Running ones have been up for a while: up to a month, differing from guest to guest.
      const startedAt = o.status === 'running' ? Date.now() - ((vmid * 7_919) % (30 * 86_400)) * 1000 : undefined;
      this.addGuest(
        {
          vmid,
          node: node.name,
          status: o.status,
          ...(startedAt !== undefined ? { startedAt, pid: this.nextGuestPid() } : {}),
          config: { name: `srv-${vmid}.customers.example.net`, memory: '2048', cores: 2, sockets: 1, scsi0: `${storage}:vm-${vmid}-disk-0,size=20G`, net0: `virtio=${randomMac()},bridge=vmbr0` },
          files: {},
          snapshots: new Map(),
        },
        startedAt,
      );
    }
  }

  /** A guest appears (its config file is written): its VMID's history goes on from `sinceMs` (now). */
  addGuest(g: SimGuest, sinceMs?: number): void {
    this.guests.set(g.vmid, g);
    this.usage.observe(g, sinceMs);
  }

  /** The guest is gone (destroyed, a failed create undone, or lost); its VMID's history stays. */
  removeGuest(vmid: number): void {
    const g = this.guests.get(vmid);
    if (!g) return;
    this.guests.delete(vmid);
    this.usage.end(g);
  }

  /**
   * A new QEMU process runs the guest (a start, a reboot, a live migration's target, a restore or
   * rollback that starts it): its uptime and traffic counters begin at zero.
   */
  startQemu(g: SimGuest): void {
    g.status = 'running';
    g.startedAt = Date.now();
    g.pid = this.nextGuestPid();
    this.usage.observe(g);
  }

  /** The guest's QEMU process ended. */
  stopQemu(g: SimGuest): void {
    g.status = 'stopped';
    delete g.startedAt;
    delete g.pid;
    delete g.bootedFrom;
    this.usage.observe(g);
  }

  /** Cuts every download in progress (the simulator resets or closes). */
  abortDownloads(): void {
    for (const d of this.downloads.values()) d.abort.abort();
    this.downloads.clear();
  }

  /** The node, if it resolves and answers. */
  checkNode(node: string): SimNode {
    const n = this.nodes.get(node);
    if (!n) throw new SimHttpError(500, `hostname lookup '${node}' failed - failed to get address info for: ${node}: Name or service not known`);
    if (n.status !== 'online') throw new SimHttpError(595, `Connection refused`);
    return n;
  }

  configPath(node: string, vmid: number): string {
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

  /** A guest a call may change: no task holds its file, no config lock is set. */
  checkMutable(g: SimGuest): void {
    this.checkBusy(g);
    this.checkLock(g);
  }

  /** Major release of the simulated Proxmox VE, for members only one release answers. */
  get majorRelease(): number {
    return Number(this.settings.pveVersion.split('.')[0]);
  }

  /** The log lines of a task, to append to. */
  taskLog(upid: string): string[] {
    let log = this.taskLogs.get(upid);
    if (!log) {
      log = [];
      this.taskLogs.set(upid, log);
    }
    return log;
  }

  /** The process id of a guest started now. */
  nextGuestPid(): number {
    return ++this.guestPid;
  }

  /** GET /cluster/nextid: the VMID asked for when it is free, else the lowest free one from 100. */
  nextId(vmid?: string): string {
    if (vmid !== undefined) {
      if (this.guests.has(Number(vmid))) throw new SimHttpError(400, 'Parameter verification failed.', { vmid: `VM ${vmid} already exists` });
      return String(Number(vmid));
    }
    let id = 100;
    while (this.guests.has(id)) id++;
    return String(id);
  }
}
