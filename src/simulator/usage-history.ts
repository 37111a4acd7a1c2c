/**
 * What pvestatd tells the round-robin database about each VMID, and the traffic counters a
 * running guest's QEMU process has counted.
 *
 * A guest's life is a row of stretches (stopped; running under one QEMU process at one flow of
 * traffic). They are kept per VMID, not per guest: Proxmox keeps
 * `/var/lib/rrdcached/db/pve-vm-9.0/<vmid>` (`pve2-vm/<vmid>` before 9.0) when the guest is
 * destroyed, and pmxcfs writes a new guest of that VMID into the same file (pve-cluster,
 * src/pmxcfs/status.c `update_rrd_data` creates it only when missing), so its history shows the
 * earlier guest's usage until an operator removes the file.
 *
 * `netin`/`netout` are the bytes the guest's tap devices counted since its QEMU process started
 * (qemu-server, PVE/QemuServer.pm `vmstatus` reads them from /proc/net/dev): zero again after a
 * stop and start, a reboot (qemu-server's `vm_reboot` stops QEMU and qmeventd starts a new one),
 * a live migration (the target's QEMU) or a restore. By default a guest sends and receives a
 * little, more by day than by night; `POST /_sim/guests/{vmid}/traffic` sets a flow. A NIC's
 * `rate` (megabytes per second: pve-common, PVE/Network.pm `tap_rate_limit` shapes both
 * directions at `rate * 1024 * 1024` bytes/s) caps its share.
 */
import { MiB, splitProps } from './config-values';
import type { SimGuest } from './cluster';

const DAY_SECONDS = 86_400;
/** The default traffic's mean, bytes per second. */
const DAILY_MEAN = { in: 1_536, out: 917 } as const;
/** How far the default traffic swings around its mean over a day. */
const DAILY_SWING = 0.6;

/** Traffic in one direction, bytes per second: a set rate, or the default that follows the day. */
export type Flow = { constant: number } | { dailyMean: number };

/** What a guest asked the network for, bytes per second (`undefined`: the default). */
export interface TrafficDemand {
  inBytesPerSecond: number;
  outBytesPerSecond: number;
}

/** A stretch of one VMID's history: the guest stopped, or running under one QEMU process at one flow. */
export interface UsageStretch {
  fromMs: number;
  /** Unset while the stretch lasts. */
  toMs?: number;
  /** The QEMU process that ran the guest (unset: stopped). */
  qemuPid?: number;
  flows?: { in: Flow; out: Flow };
  /** What pvestatd reported of the guest's size, kept when the stretch ends (the guest's own while it lasts). */
  size?: GuestSize;
}

export interface GuestSize {
  maxcpu: number;
  maxmem: number;
  maxdisk: number;
}

/** The phase of a VMID's day: guests are not all busy at once. */
const phase = (vmid: number, seconds: number) => (2 * Math.PI * seconds) / DAY_SECONDS + vmid;

/** Bytes a flow moved from `a` to `b` (Unix seconds): the integral of its rate. */
export function flowBytes(flow: Flow, vmid: number, a: number, b: number): number {
  if (b <= a) return 0;
  if ('constant' in flow) return flow.constant * (b - a);
  const swing = (DAILY_SWING * DAY_SECONDS) / (2 * Math.PI);
  return flow.dailyMean * (b - a - swing * (Math.cos(phase(vmid, b)) - Math.cos(phase(vmid, a))));
}

/** The highest rate a flow reached from `a` to `b` (Unix seconds). */
export function flowPeak(flow: Flow, vmid: number, a: number, b: number): number {
  if ('constant' in flow) return flow.constant;
  const [from, to] = [phase(vmid, a), phase(vmid, b)];
  // the sine peaks at π/2 + 2kπ: inside the interval, or else at one of its ends
  const crest = Math.ceil((from - Math.PI / 2) / (2 * Math.PI)) * 2 * Math.PI + Math.PI / 2;
  const sine = crest <= to ? 1 : Math.max(Math.sin(from), Math.sin(to));
  return flow.dailyMean * (1 + DAILY_SWING * sine);
}

/** Each NIC's cap in bytes per second (`Infinity` without a `rate`): `rate` is in megabytes per second. */
function nicCaps(config: SimGuest['config']): number[] {
  return Object.keys(config)
    .filter((key) => /^net\d+$/.test(key))
    .map((key) => {
      const rate = Number(splitProps(String(config[key])).props.get('rate') ?? 0);
      return rate > 0 ? Math.floor(rate * MiB) : Infinity;
    });
}

/**
 * What flows through the guest's NICs: its demand spread over them, each share held to its NIC's
 * cap (no NIC, no traffic). The default traffic flows untouched where no cap bites at its daily
 * peak, else constantly at what the caps let through of that peak.
 */
export function flowsOf(g: SimGuest): { in: Flow; out: Flow } {
  const caps = nicCaps(g.config);
  const through = (demand: number) => caps.reduce((sum, cap) => sum + Math.min(demand / caps.length, cap), 0);
  const flow = (demand: number | undefined, dailyMean: number): Flow => {
    if (demand !== undefined) return { constant: through(demand) };
    const peak = dailyMean * (1 + DAILY_SWING);
    return caps.length > 0 && through(peak) === peak ? { dailyMean } : { constant: through(peak) };
  };
  return { in: flow(g.traffic?.inBytesPerSecond, DAILY_MEAN.in), out: flow(g.traffic?.outBytesPerSecond, DAILY_MEAN.out) };
}

const sameFlow = (a: Flow, b: Flow) => JSON.stringify(a) === JSON.stringify(b);

export class UsageHistory {
  private readonly byVmid = new Map<number, UsageStretch[]>();

  constructor(private readonly sizeOf: (g: SimGuest) => GuestSize) {}

  /** The VMID's stretches, oldest first; undefined when it has no history at all. */
  stretches(vmid: number): readonly UsageStretch[] | undefined {
    return this.byVmid.get(vmid);
  }

  /** The guest as pvestatd sees it now begins a stretch, unless the open one already describes it. */
  observe(g: SimGuest, fromMs = Date.now()): void {
    const stretches = this.byVmid.get(g.vmid) ?? [];
    this.byVmid.set(g.vmid, stretches);
    const open = stretches.at(-1)?.toMs === undefined ? stretches.at(-1) : undefined;
    const running = g.status === 'running' && g.pid !== undefined;
    const flows = running ? flowsOf(g) : undefined;
    if (
      open &&
      open.qemuPid === (running ? g.pid : undefined) &&
      (!flows || (open.flows && sameFlow(open.flows.in, flows.in) && sameFlow(open.flows.out, flows.out)))
    ) {
      return;
    }
    if (open) this.close(open, g, fromMs);
    stretches.push({ fromMs, ...(running ? { qemuPid: g.pid, flows } : {}) });
  }

  /** The guest is gone: its history stays, as its RRD file does. */
  end(g: SimGuest, atMs = Date.now()): void {
    const open = this.byVmid.get(g.vmid)?.at(-1);
    if (open && open.toMs === undefined) this.close(open, g, atMs);
  }

  /**
   * A running guest has been up since `startedAt` under its current flow: the stretches since
   * then give way to one (a test's way to give a guest a past).
   */
  rewind(g: SimGuest, startedAt: number): void {
    const stretches = (this.byVmid.get(g.vmid) ?? []).filter((s) => s.fromMs < startedAt);
    const last = stretches.at(-1);
    if (last && (last.toMs === undefined || last.toMs > startedAt)) this.close(last, g, startedAt);
    this.byVmid.set(g.vmid, stretches);
    g.startedAt = startedAt;
    this.observe(g, startedAt);
  }

  /** What an operator does by hand: `rm /var/lib/rrdcached/db/pve-vm-9.0/<vmid>`. */
  drop(vmid: number): boolean {
    return this.byVmid.delete(vmid);
  }

  clear(): void {
    this.byVmid.clear();
  }

  /** `netin`/`netout`: the bytes the guest's QEMU process counted so far (zero while stopped). */
  counters(g: SimGuest, nowMs = Date.now()): { netin: number; netout: number } {
    let netin = 0;
    let netout = 0;
    if (g.status !== 'running' || g.pid === undefined) return { netin, netout };
    const stretches = this.byVmid.get(g.vmid) ?? [];
    for (let i = stretches.length - 1; i >= 0; i--) {
      const s = stretches[i] as UsageStretch;
      if (s.qemuPid !== g.pid || !s.flows) break;
      const [a, b] = [s.fromMs / 1000, Math.min(s.toMs ?? nowMs, nowMs) / 1000];
      netin += flowBytes(s.flows.in, g.vmid, a, b);
      netout += flowBytes(s.flows.out, g.vmid, a, b);
    }
    return { netin: Math.floor(netin), netout: Math.floor(netout) };
  }

  private close(stretch: UsageStretch, g: SimGuest, atMs: number): void {
    stretch.toMs = atMs;
    stretch.size = this.sizeOf(g);
  }
}
