/**
 * How the APIs and workers run: in this process (one of each, the default), or as child
 * processes on the same database and Temporal (`--apis=N --workers=M`, `--profile`).
 */
import os from 'node:os';
import type { Client as TemporalClient } from '@temporalio/client';
import { temporal as proto } from '@temporalio/proto';
import { loadConfig } from '../src/config';
import { startWorker } from '../src/worker';
import { buildWorkflowBundle, startChild } from './children';
import type { Cleanups } from './cleanups';
import { startApi } from './in-process';
import { runsChildren, type Options } from './options';
import { waitFor } from './stats';

/** Until every worker process polls the task queue (its default identity is `<pid>@<host>`). */
async function untilPolling(temporal: TemporalClient, env: NodeJS.ProcessEnv, pids: number[]): Promise<void> {
  const identities = pids.map((pid) => `${pid}@${os.hostname()}`);
  await waitFor(
    'the worker processes to poll',
    async () => {
      const { pollers } = await temporal.workflowService.describeTaskQueue({
        namespace: env.TEMPORAL_NAMESPACE,
        taskQueue: { name: env.TEMPORAL_TASK_QUEUE },
        taskQueueType: proto.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
      });
      const polling = new Set(pollers.map((p) => p.identity));
      return identities.every((identity) => polling.has(identity)) ? true : undefined;
    },
    200,
    120_000,
  );
}

export interface Running {
  /** Where the APIs listen (empty for workers). */
  urls: string[];
  /** Process ids of child processes (empty in process). */
  pids: number[];
  stop(): Promise<void>;
}

export interface Deployment {
  /** 'in process', or e.g. '2 APIs and 3 workers as child processes'. */
  describe: string;
  inProcess: boolean;
  startApis(env: NodeJS.ProcessEnv): Promise<Running>;
  startWorkers(env: NodeJS.ProcessEnv): Promise<Running>;
}

export function deploymentFor(options: Options, cleanups: Cleanups, temporal: TemporalClient, profileDir: string | null): Deployment {
  let started = 0;
  const names = (prefix: string, count: number) => Array.from({ length: count }, () => `${prefix} ${++started}`);
  const stopAll = (stopped: string[]) => async () => {
    await Promise.all(stopped.map((name) => cleanups.runNow(name)));
  };

  if (!runsChildren(options)) {
    return {
      describe: 'API and worker in the bench process',
      inProcess: true,
      async startApis(env) {
        const [name] = names('api', 1) as [string];
        const api = await startApi(loadConfig(env));
        cleanups.add(name, api.close);
        return { urls: [api.baseUrl], pids: [], stop: stopAll([name]) };
      },
      async startWorkers(env) {
        const [name] = names('worker', 1) as [string];
        const worker = await startWorker(loadConfig(env));
        cleanups.add(name, worker.shutdown);
        return { urls: [], pids: [], stop: stopAll([name]) };
      },
    };
  }

  let bundle: Promise<string> | undefined;
  const profile = profileDir ? { profileDir } : {};
  return {
    describe: `${options.apis} API and ${options.workers} worker processes${profileDir ? ' under --cpu-prof' : ''}`,
    inProcess: false,
    async startApis(env) {
      const children = await Promise.all(names('api', options.apis).map((name) => startChild({ name, entry: 'src/server.ts', env, ...profile }, cleanups)));
      return { urls: children.map((c) => c.baseUrl as string), pids: children.map((c) => c.pid), stop: stopAll(children.map((c) => c.name)) };
    },
    async startWorkers(env) {
      bundle ??= buildWorkflowBundle(cleanups);
      const workflowBundle = await bundle;
      const children = await Promise.all(
        names('worker', options.workers).map((name) => startChild({ name, entry: 'src/worker.ts', env: { ...env, WORKFLOW_BUNDLE_PATH: workflowBundle }, ...profile }, cleanups)),
      );
      const pids = children.map((c) => c.pid);
      await untilPolling(temporal, env, pids);
      return { urls: [], pids, stop: stopAll(children.map((c) => c.name)) };
    },
  };
}
