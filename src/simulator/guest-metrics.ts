/**
 * GET /nodes/{node}/qemu/{vmid}/rrddata: a VMID's usage as Proxmox's round-robin database keeps it
 * (pve-cluster, src/PVE/RRD.pm `create_rrd_data`; the archives in src/pmxcfs/status.c).
 *
 * - 8.x (`pve2-vm/<vmid>`): 70 points for every time frame, a step of 1 minute, 30 minutes,
 *   3 hours, 12 hours or 1 week.
 * - 9.x (`pve-vm-9.0/<vmid>`): the hour in 60 points and the day in 1,440 a minute apart, the week
 *   in 336 and the month in 1,440 half an hour apart, the year in 1,440 six hours apart; a newest
 *   point with nothing but its `time` is left off.
 *
 * A point's `time` ends the step it consolidates. pvestatd feeds one primary data point a minute;
 * a step is known when no more than half of it is unknown (xff 0.5): the guest's size (`maxcpu`,
 * `maxmem`, `maxdisk`, `disk`) while the VMID had a guest, its usage (`cpu`, `mem`, `netin`, …)
 * while that guest ran. `MAX` is the highest minute of the step, so it equals `AVERAGE` where a
 * step is one minute. `netin`/`netout` are the bytes per second the guest's counters grew by;
 * the rest is made up but deterministic (the same VMID and time give the same numbers): a daily
 * wave with some noise.
 */
import { fail } from './call';
import type { SimCluster } from './cluster';
import { guestSize } from './guest-reads';
import { flowBytes, flowPeak, type GuestSize, type UsageStretch } from './usage-history';

/** [step seconds, points] per time frame and major release. */
const LAYOUTS: Record<8 | 9, Record<string, [number, number]>> = {
  8: { hour: [60, 70], day: [1_800, 70], week: [10_800, 70], month: [43_200, 70], year: [604_800, 70] },
  9: { hour: [60, 60], day: [60, 1_440], week: [1_800, 336], month: [1_800, 1_440], year: [21_600, 1_440] },
};
/** pvestatd's primary data point: one a minute. */
const PDP_SECONDS = 60;

/** A number in [0, 1) from the VMID and the time: the same inputs always give the same noise. */
function noise(vmid: number, time: number, salt: number): number {
  let h = Math.imul(vmid ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(time ^ salt, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x27d4eb2f);
  h ^= h >>> 15;
  return (h >>> 0) / 2 ** 32;
}

/** Busier by day than by night, each VMID on its own phase. */
const dailyWave = (vmid: number, time: number) => 0.5 + 0.5 * Math.sin((2 * Math.PI * time) / 86_400 + vmid);

/** What a running guest used in the step ending `time`; `peak` lifts the maxima above the averages. */
function usageAt(vmid: number, time: number, size: GuestSize, peak: number, withPressure: boolean): Record<string, number> {
  const wave = dailyWave(vmid, time);
  const jitter = (salt: number) => noise(vmid, time, salt);
  const cpu = Math.min(1, (0.04 + 0.18 * wave + 0.06 * jitter(1)) * peak);
  const mem = Math.round(size.maxmem * Math.min(0.95, (0.32 + 0.12 * wave + 0.04 * jitter(2)) * peak));
  return {
    cpu,
    mem,
    diskread: (8_192 + 61_440 * wave * jitter(5)) * peak,
    diskwrite: (12_288 + 36_864 * wave + 8_192 * jitter(6)) * peak,
    // 9.x keeps what the host spends on the guest and its pressure stall figures (percent) too
    ...(withPressure
      ? {
          memhost: mem,
          pressurecpusome: 10 * cpu * jitter(7),
          pressurecpufull: 5 * cpu * jitter(8),
          pressureiosome: 2 * jitter(9),
          pressureiofull: jitter(10),
          pressurememorysome: 0,
          pressurememoryfull: 0,
        }
      : {}),
  };
}

/** The VMID's stretches within [a, b) (Unix seconds), each cut to it, with the seconds it covers. */
function within(stretches: readonly UsageStretch[], a: number, b: number, now: number) {
  return stretches
    .map((s) => ({ s, from: Math.max(a, s.fromMs / 1000), to: Math.min(b, (s.toMs ?? now * 1000) / 1000) }))
    .filter(({ from, to }) => to > from);
}

/** The point ending `time`: what the stretches of its step tell, as rrdtool consolidates it. */
function point(cluster: SimCluster, vmid: number, stretches: readonly UsageStretch[], time: number, step: number, max: boolean): Record<string, number> {
  const now = Date.now() / 1000;
  const parts = within(stretches, time - step, time, now);
  const existed = parts.reduce((sum, p) => sum + p.to - p.from, 0);
  if (existed * 2 < step) return { time };
  const last = parts.at(-1)?.s as UsageStretch;
  const guest = cluster.guests.get(vmid);
  const size = last.size ?? (guest ? guestSize(guest) : { maxcpu: 0, maxmem: 0, maxdisk: 0 });
  const sized = { time, maxcpu: size.maxcpu, maxmem: size.maxmem, maxdisk: size.maxdisk, disk: 0 };
  const running = parts.flatMap(({ s, from, to }) => (s.flows ? [{ flows: s.flows, from, to }] : []));
  const ran = running.reduce((sum, p) => sum + p.to - p.from, 0);
  if (ran * 2 < step) return sized;
  const peaked = max && step > PDP_SECONDS;
  const traffic = (direction: 'in' | 'out') =>
    peaked
      ? Math.max(...running.map((p) => flowPeak(p.flows[direction], vmid, p.from, p.to)))
      : running.reduce((sum, p) => sum + flowBytes(p.flows[direction], vmid, p.from, p.to), 0) / ran;
  return { ...sized, ...usageAt(vmid, time, size, peaked ? 1.25 : 1, cluster.majorRelease >= 9), netin: traffic('in'), netout: traffic('out') };
}

/** The VMID's usage over `timeframe`, oldest point first, whichever node is asked (the database is the cluster's). */
export function guestRrdData(cluster: SimCluster, node: string, vmid: number, params: Record<string, string>): object[] {
  cluster.checkNode(node);
  const release = cluster.majorRelease >= 9 ? 9 : 8;
  const stretches = cluster.usage.stretches(vmid);
  if (!stretches) {
    const file = `/var/lib/rrdcached/db/${release === 9 ? 'pve-vm-9.0' : 'pve2-vm'}/${vmid}`;
    throw fail(`RRD error: rrdcached@unix:/var/run/rrdcached.sock: rrd_fetch_r failed: opening '${file}': No such file or directory`);
  }
  // The schema checked `timeframe` against its enumeration before the call got here.
  const [step, count] = LAYOUTS[release][params.timeframe as string] as [number, number];
  const newest = Math.floor(Date.now() / 1000 / step) * step;
  const points = Array.from({ length: count }, (_, i) => point(cluster, vmid, stretches, newest - (count - 1 - i) * step, step, params.cf === 'MAX'));
  if (release === 9 && Object.keys(points.at(-1) ?? {}).length === 1) points.pop();
  return points;
}
