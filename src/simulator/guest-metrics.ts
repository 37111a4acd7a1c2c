/**
 * GET /nodes/{node}/qemu/{vmid}/rrddata: a guest's usage as Proxmox's round-robin database keeps
 * it, 70 consolidated points per time frame (one a minute for the hour, every 30 minutes for the
 * day, every 3 hours for the week). The series are made up but deterministic (the same guest
 * and time give the same numbers) and plausible: a daily wave with some noise. Points of a time
 * the guest was not running carry only `time`, as Proxmox leaves unknown values out.
 */
import type { SimCluster, SimGuest } from './cluster';
import { MiB, memoryMiB, vcpus } from './config-values';
import { guestResource } from './guest-reads';

const STEP_SECONDS: Record<string, number> = { hour: 60, day: 1_800, week: 10_800, month: 43_200, year: 604_800 };
const POINTS = 70;

/** A number in [0, 1) from the guest and the time: the same inputs always give the same noise. */
function noise(vmid: number, time: number, salt: number): number {
  let h = Math.imul(vmid ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(time ^ salt, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x27d4eb2f);
  h ^= h >>> 15;
  return (h >>> 0) / 2 ** 32;
}

/** Busier by day than by night, each guest on its own phase. */
const dailyWave = (vmid: number, time: number) => 0.5 + 0.5 * Math.sin((2 * Math.PI * time) / 86_400 + vmid);

function usageAt(g: SimGuest, time: number, peak: number): Record<string, number> {
  const wave = dailyWave(g.vmid, time);
  const jitter = (salt: number) => noise(g.vmid, time, salt);
  const maxmem = memoryMiB(g.config) * MiB;
  const { maxdisk } = guestResource(g) as { maxdisk: number };
  return {
    maxcpu: vcpus(g.config),
    cpu: Math.min(1, (0.04 + 0.18 * wave + 0.06 * jitter(1)) * peak),
    maxmem,
    mem: Math.round(maxmem * Math.min(0.95, (0.32 + 0.12 * wave + 0.04 * jitter(2)) * peak)),
    maxdisk,
    disk: 0,
    netin: (1_200 + 2_800 * wave + 900 * jitter(3)) * peak,
    netout: (700 + 1_600 * wave + 600 * jitter(4)) * peak,
    diskread: (8_192 + 61_440 * wave * jitter(5)) * peak,
    diskwrite: (12_288 + 36_864 * wave + 8_192 * jitter(6)) * peak,
  };
}

/** The guest's usage over `timeframe`, oldest point first (`cf` MAX reads the peaks, a little above the averages). */
export function guestRrdData(cluster: SimCluster, node: string, vmid: number, params: Record<string, string>): object[] {
  const g = cluster.guestOn(node, vmid);
  // The schema checked `timeframe` against its enumeration before the call got here.
  const step = STEP_SECONDS[params.timeframe as string] as number;
  const peak = params.cf === 'MAX' ? 1.25 : 1;
  const last = Math.floor(Date.now() / 1000 / step) * step;
  const runningSince = g.status === 'running' && g.startedAt ? Math.floor(g.startedAt / 1000 / step) * step : Infinity;
  return Array.from({ length: POINTS }, (_, i) => {
    const time = last - (POINTS - 1 - i) * step;
    return time >= runningSince ? { time, ...usageAt(g, time, peak) } : { time };
  });
}
