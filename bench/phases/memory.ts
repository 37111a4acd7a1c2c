/**
 * Phase memory: the worker as a process of its own, holding `inFlight` provisions parked on
 * slow clones (simulator clone tasks of 10 minutes), read from /proc/<pid>/status once every
 * workflow has scheduled its clone and the worker's activity slots are full.
 */
import { performance } from 'node:perf_hooks';
import type { PvecpClient } from '../../clients/typescript/index';
import { buildWorkflowBundle, startChild } from '../children';
import type { Cleanups } from '../cleanups';
import { accepted, createServer, refusals } from '../instances';
import type { Options } from '../options';
import type { Catalog, Stack } from '../stack';
import { mib, residentMemoryOf, round, runClients, sleep, waitFor } from '../stats';

const SLOW_CLONE_MS = 10 * 60_000;
/** The worker's activity slots are full once this many one-second looks see no new clone. */
const STEADY_LOOKS = 3;
const SAMPLES = 5;

export interface MemoryResult {
  inFlight: number;
  accepted: number;
  refused: Record<string, number>;
  /** Seconds the creates took (the API in the bench process, `concurrency` clients). */
  createWallS: number;
  /** Running provisions whose workflow is at the clone stage. */
  atCloneStage: number;
  /** Clone tasks running in the simulator: clone activities holding a worker slot. */
  clonesRunning: number;
  /** The worker process's peak (VmHWM) and current (VmRSS) resident memory. */
  peakRssMiB: number;
  rssMiB: number;
}

export async function measureMemory(stack: Stack, clients: PvecpClient[], catalog: Catalog, options: Options, cleanups: Cleanups, log: (line: string) => void): Promise<MemoryResult> {
  await stack.setSimTiming({ taskMs: 0, taskMsByType: { qmclone: SLOW_CLONE_MS } });
  log('memory: bundling the workflows for a worker process');
  const bundle = await buildWorkflowBundle(cleanups);
  // Production task polling: the clones are slow, as on a real cluster.
  const worker = await startChild({ name: 'worker (memory)', entry: 'src/worker.ts', env: { ...stack.env(options.pollMs), WORKFLOW_BUNDLE_PATH: bundle } }, cleanups);

  log(`memory: ${options.inFlight} creates from ${options.concurrency} clients, clones of ${SLOW_CLONE_MS / 60_000} min`);
  const started = performance.now();
  const answers = await runClients(options.inFlight, options.concurrency, (i, c) => createServer(clients[c] as PvecpClient, catalog, `mem-${i}`));
  const createWallS = (performance.now() - started) / 1000;
  const ids = accepted(answers);

  const clonesRunning = () => stack.simulator.state.tasks.all().filter((t) => t.type === 'qmclone' && t.status === 'running').length;
  const atClone = async () => (await stack.temporalClient.workflow.count(`TaskQueue = "${stack.queue}" AND ProvisionStage = "clone" AND ExecutionStatus = "Running"`)).count;
  let last = -1;
  let steady = 0;
  const settled = await waitFor(
    `${ids.length} provisions at the clone stage`,
    async () => {
      const [stage, running] = [await atClone(), clonesRunning()];
      steady = running === last && running > 0 ? steady + 1 : 0;
      last = running;
      log(`memory: ${stage} of ${ids.length} workflows at the clone stage, ${running} clones running`);
      return stage >= ids.length && steady >= STEADY_LOOKS ? { stage, running } : undefined;
    },
    1000,
    options.timeoutS * 1000,
  );

  let peak = 0;
  let rss = 0;
  for (let i = 0; i < SAMPLES; i++) {
    const memory = residentMemoryOf(worker.pid);
    if (!memory) throw new Error('cannot read the worker process memory (/proc)');
    peak = Math.max(peak, memory.peak);
    rss = memory.rss;
    await sleep(1000);
  }
  await cleanups.runNow(worker.name);
  await stack.setSimTiming({ taskMs: 0, taskMsByType: {} });
  return {
    inFlight: options.inFlight,
    accepted: ids.length,
    refused: refusals(answers),
    createWallS: round(createWallS, 1),
    atCloneStage: settled.stage,
    clonesRunning: settled.running,
    peakRssMiB: mib(peak),
    rssMiB: mib(rss),
  };
}
