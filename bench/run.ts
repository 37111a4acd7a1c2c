/**
 * Benchmark of the whole control plane on one machine, measured from the outside through its
 * HTTP API against a platform floor measured in the same run: a Temporal dev server (in memory,
 * headless), a fresh PostgreSQL database, the Proxmox VE simulator in this process, the API and
 * a worker in this process. Everything listens on 127.0.0.1; the run stops by itself (also on
 * Ctrl-C), drops its database and stops Temporal.
 *
 *   npm run bench
 *   npm run bench -- --phases=floor,alone --alone=20
 *
 * Phases, in this order (`--phases` picks some): floor, create (a), alone, provisions (b),
 * realistic, memory. Writes bench/results.json and prints a Markdown table. See bench/README.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startWorker, type RunningWorker } from '../src/worker';
import { Cleanups } from './cleanups';
import { countDuplicates } from './duplicates';
import { startApi } from './in-process';
import { customerClients } from './instances';
import { parseOptions, type Options } from './options';
import { measureAlone } from './phases/alone';
import { measureCreateApi } from './phases/create';
import { measureFloor } from './phases/floor';
import { measureMemory } from './phases/memory';
import { measureProvisions } from './phases/provisions';
import { measureRealistic, realisticTiming } from './phases/realistic';
import { printTable, type Results } from './report';
import { prepareCatalog, startStack, type Stack } from './stack';
import { mib, residentMemoryOf, round } from './stats';

const log = (line: string) => console.error(`[bench] ${line}`);

/** Servers the selected phases create, so capacity and addresses never refuse one. */
function serversNeeded(options: Options): number {
  const has = (phase: Options['phases'][number]) => options.phases.includes(phase);
  return (
    (has('create') ? options.creates + options.concurrency : 0) +
    (has('alone') ? options.alone + 1 : 0) +
    (has('provisions') ? options.provisions : 0) +
    (has('realistic') ? options.realistic : 0) +
    (has('memory') ? options.inFlight : 0)
  );
}

/** The product's worker in this process, restarted when a phase wants another task polling interval. */
function productWorker(stack: Stack, cleanups: Cleanups) {
  let running: { worker: RunningWorker; pollMs: number | null } | null = null;
  const stop = async () => {
    if (running) await cleanups.runNow('worker');
    running = null;
  };
  return {
    async ensure(pollMs: number | null): Promise<void> {
      if (running?.pollMs === pollMs) return;
      await stop();
      log(`starting the worker (task polling ${pollMs === null ? 'production default' : `${pollMs} ms`})`);
      const worker = await startWorker(stack.config(pollMs));
      cleanups.add('worker', worker.shutdown);
      running = { worker, pollMs };
    },
    stop,
  };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const has = (phase: Options['phases'][number]) => options.phases.includes(phase);
  const cleanups = new Cleanups();
  let interrupted = false;
  const onSignal = () => {
    if (interrupted) return;
    interrupted = true;
    console.error('interrupted; cleaning up');
    void cleanups.runAll().then(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    const stack = await startStack(cleanups, log);
    const served = await startApi(stack.config(options.pollMs));
    cleanups.add('api', served.close);
    const catalog = await prepareCatalog(stack, served.baseUrl, { servers: serversNeeded(options), customers: options.concurrency });
    const clients = customerClients(catalog, [served.baseUrl]);
    const firstClient = clients[0];
    if (!firstClient) throw new Error('no client');
    const worker = productWorker(stack, cleanups);

    const cpus = os.cpus();
    const results: Results = {
      date: new Date().toISOString(),
      machine: { cpus: cpus.length, cpuModel: cpus[0]?.model.trim() ?? 'unknown', memoryGiB: round(os.totalmem() / 2 ** 30), platform: `${os.platform()} ${os.release()}`, node: process.version },
      options,
      processes: { benchPeakRssMiB: 0, temporalPeakRssMiB: null },
    };

    // The floor first, with no product worker running.
    if (has('floor')) results.floor = await measureFloor(stack, options, log);
    if (has('create')) {
      const unserved = await startApi({ ...stack.config(options.pollMs), TEMPORAL_TASK_QUEUE: `${stack.queue}-unserved` });
      cleanups.add('api (a)', unserved.close);
      results.createApi = await measureCreateApi(customerClients(catalog, [unserved.baseUrl]), catalog, options, log);
      await cleanups.runNow('api (a)');
    }
    if (has('alone')) {
      await worker.ensure(options.pollMs);
      results.alone = await measureAlone(firstClient, stack.temporalClient, catalog, options, log);
    }
    if (has('provisions')) {
      await worker.ensure(options.pollMs);
      results.provisions = await measureProvisions(stack.db, clients, catalog, options, log);
    }
    if (has('realistic')) {
      await stack.setSimTiming(realisticTiming(options.realisticScale));
      await worker.ensure(null);
      results.realistic = await measureRealistic(firstClient, stack.temporalClient, stack.simulator, catalog, options, log);
      await stack.setSimTiming({ taskMs: 0, taskMsByType: {} });
    }
    await worker.stop();
    if (has('memory')) results.memory = await measureMemory(stack, clients, catalog, options, cleanups, log);

    if (options.phases.some((phase) => phase !== 'floor')) results.duplicates = await countDuplicates(stack.db);
    const temporalMemory = residentMemoryOf(stack.temporal.process.pid);
    results.processes = { benchPeakRssMiB: mib(process.resourceUsage().maxRSS * 1024), temporalPeakRssMiB: temporalMemory ? mib(temporalMemory.peak) : null };

    fs.writeFileSync(path.join(__dirname, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
    printTable(results);
    console.log('written to bench/results.json');
  } finally {
    await cleanups.runAll();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
