/**
 * The API and the worker as child processes, started as in production (`node` with tsx on
 * src/server.ts or src/worker.ts, configured by environment), optionally under `--cpu-prof`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitForPort } from '../scripts/temporal';
import { freePort } from '../test/support/ports';
import { WORKER_NODE_FLAGS } from '../src/worker';
import type { Cleanups } from './cleanups';

const projectRoot = path.resolve(__dirname, '..');

export interface Child {
  name: string;
  pid: number;
  process: ChildProcess;
  /** Set for an API: where it listens. */
  baseUrl?: string;
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
  stop(): Promise<void>;
}

export interface ChildOptions {
  name: string;
  entry: 'src/server.ts' | 'src/worker.ts';
  env: NodeJS.ProcessEnv;
  /** Write .cpuprofile files into a directory named after the process here when it exits. */
  profileDir?: string;
}

function exitOf(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/** Starts the process and registers its stop; an API is ready once its port answers. */
export async function startChild(options: ChildOptions, cleanups: Cleanups): Promise<Child> {
  const port = options.entry === 'src/server.ts' ? await freePort() : undefined;
  // One directory per process: tsx's loader thread writes a profile of its own next to the main thread's.
  const profiling = options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.join(options.profileDir, options.name.replace(/\W+/g, '-'))}`] : [];
  const flags = options.entry === 'src/worker.ts' ? WORKER_NODE_FLAGS : [];
  const child = spawn(process.execPath, [...profiling, ...flags, '--import', 'tsx', options.entry], {
    cwd: projectRoot,
    env: { ...options.env, ...(port === undefined ? {} : { PORT: String(port) }) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (child.pid === undefined) throw new Error(`${options.name} did not start`);
  const exited = exitOf(child);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    // The worker's own SIGTERM grace is 10 s by default; past it, it is not stopping.
    const kill = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(kill);
  };
  cleanups.add(options.name, stop);
  if (port !== undefined) {
    const early = exited.then(() => Promise.reject(new Error(`${options.name} exited before listening`)));
    await Promise.race([waitForPort('127.0.0.1', port, 60_000), early]);
  }
  return { name: options.name, pid: child.pid, process: child, ...(port === undefined ? {} : { baseUrl: `http://127.0.0.1:${port}` }), stop };
}

/**
 * The workflow code bundled once (`scripts/build-workflows.ts`, in a process of its own), so
 * child workers start as production ones do with WORKFLOW_BUNDLE_PATH and their memory holds no
 * bundler. Removed on the way out.
 */
export async function buildWorkflowBundle(cleanups: Cleanups): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pvecp-bench-'));
  cleanups.add('workflow bundle', async () => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'workflow-bundle.js');
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/build-workflows.ts', file], { cwd: projectRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`bundling the workflows failed (${code})`);
  return file;
}
