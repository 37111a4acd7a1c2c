/**
 * Phase floor: the platform's own cost. A worker of its own (own task queue, in this process)
 * serves bare seven-activity workflows on the same Temporal dev server; run while the product's
 * worker is stopped, so the two do not compete.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createFloorActivities } from '../floor/activities';
import type { Options } from '../options';
import type { Stack } from '../stack';
import { round, runClients, spread, type Spread } from '../stats';

export interface FloorResult {
  /** One floor workflow at a time: start → result. */
  alone: Spread;
  /** Floor workflows from `concurrency` clients, each starting the next when its last one ended. */
  throughput: { workflows: number; concurrency: number; wallS: number; perS: number };
}

/** The SDK's own log lines at WARN and above (once per process: the runtime is global). */
function quietSdkLogs(): void {
  try {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch {
    // Installed already.
  }
}

export async function measureFloor(stack: Stack, options: Options, log: (line: string) => void): Promise<FloorResult> {
  quietSdkLogs();
  const taskQueue = `${stack.queue}-floor`;
  const connection = await NativeConnection.connect({ address: stack.temporal.address });
  try {
    const worker = await Worker.create({
      connection,
      namespace: stack.temporal.namespace,
      taskQueue,
      workflowsPath: require.resolve('../floor/workflows'),
      activities: createFloorActivities(),
    });
    const prefix = `floor-${randomBytes(4).toString('hex')}`;
    const runOne = async (name: string): Promise<number> => {
      const started = performance.now();
      await stack.temporalClient.workflow.execute('FloorProvision', { taskQueue, workflowId: `${prefix}-${name}`, args: [] });
      return performance.now() - started;
    };
    return await worker.runUntil(async () => {
      log(`floor: warming up, then ${options.floorAlone} workflows one at a time`);
      await runClients(options.concurrency, options.concurrency, (i) => runOne(`warm-${i}`));
      const alone: number[] = [];
      for (let i = 0; i < options.floorAlone; i++) alone.push(await runOne(`alone-${i}`));
      log(`floor: ${options.floorWorkflows} workflows from ${options.concurrency} clients`);
      const started = performance.now();
      await runClients(options.floorWorkflows, options.concurrency, (i) => runOne(`many-${i}`));
      const wallS = (performance.now() - started) / 1000;
      return {
        alone: spread(alone),
        throughput: { workflows: options.floorWorkflows, concurrency: options.concurrency, wallS: round(wallS, 2), perS: round(options.floorWorkflows / wallS, 2) },
      };
    });
  } finally {
    await connection.close();
  }
}
