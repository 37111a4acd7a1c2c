/**
 * Benchmark of the whole control plane on one machine, measured from the outside through its
 * HTTP API against a platform floor measured in the same run: a Temporal dev server (in memory,
 * headless; or with --temporal=cluster Temporal's server as four processes on PostgreSQL), a fresh PostgreSQL database, the Proxmox VE simulator in this process, and the API
 * and a worker (in this process, or as child processes with --apis/--workers/--profile).
 * Everything listens on 127.0.0.1; the run stops by itself (also on Ctrl-C), drops its
 * database and stops Temporal.
 *
 *   npm run bench
 *   npm run bench -- --phases=floor,alone --alone=20
 *
 * Phases, in this order (`--phases` picks some): floor, create (a), alone, provisions (b),
 * realistic, backups, images, consoles, memory, and hostile (a ten-minute soak, only when named). Writes bench/results.json and prints a Markdown table. See bench/README.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Cleanups } from './cleanups';
import { deploymentFor, type Deployment, type Running } from './deployment';
import { countDuplicates } from './duplicates';
import { customerClients } from './instances';
import { parseOptions, type Options, type Phase } from './options';
import { measureAlone } from './phases/alone';
import { measureConsoles } from './phases/consoles';
import { measureHostile } from './phases/hostile';
import { IMAGE_TIMING, measureImages } from './phases/images';
import { backupTiming, measureBackups } from './phases/backups';
import { measureCreateApi } from './phases/create';
import { measureFloor } from './phases/floor';
import { measureMemory } from './phases/memory';
import { measureProvisions } from './phases/provisions';
import { measureRealistic, realisticTiming } from './phases/realistic';
import { summariseProfiles } from './profile';
import { between, countQueries, queryCounts, snapshot, type Counts } from './query-count';
import { printTable, type Results } from './report';
import { prepareCatalog, startStack, type Stack } from './stack';
import { mib, residentMemoryOf, round } from './stats';

const log = (line: string) => console.error(`[bench] ${line}`);

/** Servers the selected phases create, so capacity and addresses never refuse one. */
function serversNeeded(options: Options): number {
  const has = (phase: Phase) => options.phases.includes(phase);
  return (
    (has('create') ? options.creates + options.concurrency : 0) +
    (has('alone') ? options.alone + 1 : 0) +
    (has('provisions') ? options.provisions : 0) +
    (has('realistic') ? options.realistic : 0) +
    (has('backups') ? options.backups : 0) +
    (has('consoles') ? 5 : 0) +
    (has('memory') ? options.inFlight : 0) +
    // The soak's event streams follow a create (then a delete) after another, about one a second.
    (has('hostile') ? options.hostileMinutes * 100 : 0) +
    // Room for one, so the nodes' capacity is a valid setting when the phases create none (images).
    1
  );
}

/** The product's workers, started once for the phases that need them. */
function productWorkers(deployment: Deployment, stack: Stack, pollMs: number | null) {
  let running: Running | null = null;
  return {
    async ensure(): Promise<void> {
      if (running) return;
      log(`starting the worker (task polling ${pollMs === null ? 'at the product default' : `${pollMs} ms, set by --poll-ms`})`);
      running = await deployment.startWorkers(stack.env(pollMs));
    },
    async stop(): Promise<void> {
      await running?.stop();
      running = null;
    },
  };
}

/** Statements the API and worker of this process send during `measure`. */
async function counted<T>(measure: () => Promise<T>): Promise<{ result: T; counts: Counts }> {
  const before = snapshot();
  const result = await measure();
  return { result, counts: between(before, snapshot()) };
}

let interrupted = false;

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const has = (phase: Phase) => options.phases.includes(phase);
  countQueries();
  const cleanups = new Cleanups();
  const onSignal = () => {
    if (interrupted) return;
    interrupted = true;
    console.error('interrupted; cleaning up');
    void cleanups.runAll().then(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    const stack = await startStack(cleanups, log, options.temporal);
    const date = new Date();
    const profileDir = options.profile ? path.join(__dirname, 'profiles', date.toISOString().replace(/[:.]/g, '-')) : null;
    const deployment = deploymentFor(options, cleanups, stack.temporalClient, profileDir);
    log(`running the ${deployment.describe}`);
    const served = await deployment.startApis(stack.env(options.pollMs));
    const catalog = await prepareCatalog(stack, served.urls[0] as string, { servers: serversNeeded(options), customers: options.concurrency });
    const clients = customerClients(catalog, served.urls);
    const firstClient = clients[0];
    if (!firstClient) throw new Error('no client');
    const workers = productWorkers(deployment, stack, options.pollMs);

    const cpus = os.cpus();
    const results: Results = {
      date: date.toISOString(),
      machine: { cpus: cpus.length, cpuModel: cpus[0]?.model.trim() ?? 'unknown', memoryGiB: round(os.totalmem() / 2 ** 30), platform: `${os.platform()} ${os.release()}`, node: process.version },
      options,
      deployment: deployment.describe,
      processes: { benchPeakRssMiB: 0, temporalPeakRssMiB: null, apiAndWorkerInBench: deployment.inProcess },
    };
    let countsA: { counts: Counts; creates: number } | null = null;
    let countsB: { counts: Counts; provisions: number } | null = null;

    // The floor first, with no product worker running.
    if (has('floor')) results.floor = await measureFloor(stack, options, log);
    if (has('create')) {
      const unserved = await deployment.startApis({ ...stack.env(options.pollMs), TEMPORAL_TASK_QUEUE: `${stack.queue}-unserved` });
      const { result, counts } = await counted(() => measureCreateApi(customerClients(catalog, unserved.urls), catalog, options, { apiPids: unserved.pids, temporalPids: () => stack.temporal.pids() }, log));
      results.createApi = result;
      countsA = { counts, creates: options.creates + options.concurrency };
      await unserved.stop();
    }
    if (has('alone')) {
      await workers.ensure();
      results.alone = await measureAlone(firstClient, stack.temporalClient, catalog, options, log);
    }
    if (has('provisions')) {
      await workers.ensure();
      const { result, counts } = await counted(() => measureProvisions(stack.db, clients, catalog, options, log));
      results.provisions = result;
      countsB = { counts, provisions: options.provisions };
    }
    if (has('realistic')) {
      await stack.setSimTiming(realisticTiming(options.realisticScale));
      await workers.ensure();
      results.realistic = await measureRealistic(firstClient, stack.temporalClient, stack.simulator, catalog, options, log);
      await stack.setSimTiming({ taskMs: 0, taskMsByType: {} });
    }
    if (has('backups')) {
      await stack.setSimTiming(backupTiming(options.backupTaskMs));
      await workers.ensure();
      results.backups = await measureBackups(firstClient, stack.temporalClient, stack.simulator, catalog, options, log);
      await stack.setSimTiming({ taskMs: 0, taskMsByType: {} });
    }
    if (has('images')) {
      await stack.setSimTiming(IMAGE_TIMING);
      await workers.ensure();
      results.images = await measureImages(stack, served.urls[0] as string, options, log);
      await stack.setSimTiming({ taskMs: 0, taskMsByType: {} });
    }
    if (has('consoles')) {
      await workers.ensure();
      results.consoles = await measureConsoles(stack, stack.temporalClient, catalog, options, cleanups, log);
    }
    if (has('hostile')) {
      await workers.ensure();
      results.hostile = await measureHostile(stack, stack.temporalClient, catalog, options, cleanups, log);
    }
    await workers.stop();
    if (has('memory')) results.memory = await measureMemory(stack, clients, catalog, options, cleanups, log);

    if (options.phases.some((phase) => phase !== 'floor')) results.duplicates = await countDuplicates(stack.db);
    results.queries = deployment.inProcess ? queryCounts(countsA, countsB) : { skipped: 'the API and workers ran as processes of their own' };
    // The cluster's four services together.
    const temporalPeaks = stack.temporal.pids().map((pid) => residentMemoryOf(pid)?.peak);
    const temporalMemory = temporalPeaks.every((peak): peak is number => peak !== undefined) ? { peak: temporalPeaks.reduce((sum, peak) => sum + peak, 0) } : null;
    results.processes = { ...results.processes, benchPeakRssMiB: mib(process.resourceUsage().maxRSS * 1024), temporalPeakRssMiB: temporalMemory ? mib(temporalMemory.peak) : null };
    // Profiles are written when their processes exit.
    await served.stop();
    if (profileDir) results.profiles = summariseProfiles(profileDir);

    fs.writeFileSync(path.join(__dirname, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
    printTable(results);
    console.log('written to bench/results.json');
  } finally {
    await cleanups.runAll();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

// The run's end waits for the cleanup an interruption started (`finally` joins it).
main().then(
  () => process.exit(interrupted ? 130 : 0),
  (error: unknown) => {
    if (!interrupted) console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(interrupted ? 130 : 1);
  },
);
