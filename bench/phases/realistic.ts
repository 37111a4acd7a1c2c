/**
 * Phase realistic: Proxmox tasks as long as on a real cluster (clone 5 s, start 2 s, config
 * 100 ms, anything else 100 ms; times `--realistic-scale`) and the worker at the production
 * polling interval. Provisions run one after another; each one's POST → `running` is divided by
 * the sum of its Proxmox tasks' durations (from the simulator's task records): what the control
 * plane adds on top of the hypervisor's own time.
 */
import { performance } from 'node:perf_hooks';
import type { Client as TemporalClient } from '@temporalio/client';
import type { PvecpClient } from '../../clients/typescript/index';
import type { Simulator } from '../../src/simulator/server';
import type { Options } from '../options';
import type { Catalog, SimTiming } from '../stack';
import { round } from '../stats';
import { provisionOnce } from './alone';

export function realisticTiming(scale: number): SimTiming {
  const ms = (value: number) => Math.round(value * scale);
  return { taskMs: ms(100), taskMsByType: { qmclone: ms(5000), qmstart: ms(2000), qmconfig: ms(100) } };
}

const LIST_READ = 'GET /nodes/{node}/tasks';
const STATUS_READ = 'GET /nodes/{node}/tasks/{upid}/status';

export interface RealisticRun {
  /** POST → `running` (see provisionOnce). */
  endToEndMs: number;
  /** Sum of the durations of the Proxmox tasks this provision ran. */
  taskSumMs: number;
  /** How many tasks of each type it ran. */
  tasks: Record<string, number>;
  /** Reads of a node's task list and of one task's status it made, per Proxmox task it ran. */
  listReadsPerTask: number;
  statusReadsPerTask: number;
  ratio: number;
}

export interface RealisticResult {
  scale: number;
  timing: SimTiming;
  runs: RealisticRun[];
  /** The worst run's ratio. */
  maxRatio: number;
  meanRatio: number;
}

/** The Proxmox tasks started between `from` and `to` (epoch ms) that have ended: their summed durations and counts by type. */
export function tasksBetween(simulator: Simulator, from: number, to: number): { taskSumMs: number; tasks: Record<string, number> } {
  const mine = simulator.state.tasks.all().filter((t) => t.startedAtMs >= from && t.startedAtMs <= to && t.endedAtMs !== undefined);
  const tasks: Record<string, number> = {};
  for (const t of mine) tasks[t.type] = (tasks[t.type] ?? 0) + 1;
  return { taskSumMs: mine.reduce((sum, t) => sum + ((t.endedAtMs as number) - t.startedAtMs), 0), tasks };
}

export async function measureRealistic(
  client: PvecpClient,
  temporal: TemporalClient,
  simulator: Simulator,
  catalog: Catalog,
  options: Options,
  log: (line: string) => void,
): Promise<RealisticResult> {
  const timing = realisticTiming(options.realisticScale);
  log(`realistic: ${options.realistic} provisions one at a time, tasks ${JSON.stringify(timing)}, task polling at the product default unless --poll-ms`);
  const runs: RealisticRun[] = [];
  const reads = () => ({ list: simulator.calls.get(LIST_READ) ?? 0, status: simulator.calls.get(STATUS_READ) ?? 0 });
  for (let i = 0; i < options.realistic; i++) {
    const before = reads();
    const run = await provisionOnce(client, temporal, catalog, `real-${i}`, options.timeoutS);
    const after = reads();
    // Provisions run one at a time, so the tasks started between POST and `running` are this one's.
    const from = performance.timeOrigin + run.sentAt;
    const to = from + run.runningMs;
    const { taskSumMs, tasks } = tasksBetween(simulator, from, to);
    const count = Object.values(tasks).reduce((a, b) => a + b, 0);
    runs.push({
      endToEndMs: round(run.runningMs),
      taskSumMs,
      tasks,
      listReadsPerTask: round((after.list - before.list) / count, 1),
      statusReadsPerTask: round((after.status - before.status) / count, 1),
      ratio: round(run.runningMs / taskSumMs, 3),
    });
  }
  const ratios = runs.map((r) => r.ratio);
  return { scale: options.realisticScale, timing, runs, maxRatio: Math.max(...ratios), meanRatio: round(ratios.reduce((a, b) => a + b, 0) / ratios.length, 3) };
}
