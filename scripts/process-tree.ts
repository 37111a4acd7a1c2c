/**
 * The process tree `npm start` runs: children started when their caller says (`start` resolves
 * once the child is ready) and stopped together, the last started first. A child that ends on
 * its own (a crash, `kill -9`) stops the whole tree as Ctrl-C does, after one line naming it and
 * how it ended, so no child is left behind holding its ports. On Linux every child also gets
 * SIGTERM from the kernel when the supervisor itself dies (`setpriv --pdeathsig`, util-linux).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { waitForPort } from './temporal';

export interface ChildSpec {
  /** How the console names it: `api`, `worker`, `simulator`, `temporal`. */
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /**
   * When it counts as started: `message`, once it sends `ready` over its IPC channel
   * (runUntilSignalled in src/main.ts does); a port, once that port accepts connections.
   */
  ready: 'message' | { host: string; port: number };
  /** How long it may take to stop after SIGTERM before it is killed. */
  stopGraceMs: number;
  /** Its stdout and stderr: the supervisor's (default) or discarded. */
  output?: 'inherit' | 'ignore';
}

/** Thrown by `start` once the tree is stopping: nothing more is started. */
export class TreeStopping extends Error {
  constructor() {
    super('the process tree is stopping');
  }
}

interface Child {
  spec: ChildSpec;
  process: ChildProcess;
  exited: Promise<void>;
}

/** `exited with code 1`, `was killed by SIGKILL`. */
function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `was killed by ${signal}` : `exited with code ${code}`;
}

/** Whether setpriv can give a child a parent-death signal here (Linux with util-linux). */
function parentDeathSignalAvailable(): boolean {
  return spawnSync('setpriv', ['--pdeathsig', 'TERM', 'true'], { stdio: 'ignore' }).status === 0;
}

export class ProcessTree {
  private readonly children: Child[] = [];
  private stopping: Promise<void> | null = null;
  private readonly tieToSupervisor = parentDeathSignalAvailable();
  private resolveStopped!: (code: number) => void;
  private resolveStopRequested!: () => void;
  private readonly stopRequested = new Promise<void>((resolve) => {
    this.resolveStopRequested = resolve;
  });
  /** Resolves with the supervisor's exit code once every child has exited: 0 after `stop(0)`, 1 after a child ended on its own. */
  readonly stopped = new Promise<number>((resolve) => {
    this.resolveStopped = resolve;
  });

  constructor(private readonly log: (line: string) => void) {}

  /** Starts a child and resolves once it is ready; rejects with TreeStopping when the tree stops first (this child's early end included). */
  async start(spec: ChildSpec): Promise<void> {
    if (this.stopping) throw new TreeStopping();
    const output = spec.output ?? 'inherit';
    const [command, args] = this.tieToSupervisor ? ['setpriv', ['--pdeathsig', 'TERM', '--', spec.command, ...spec.args]] : [spec.command, spec.args];
    const child = spawn(command, args, {
      env: spec.env ?? process.env,
      stdio: ['ignore', output, output, ...(spec.ready === 'message' ? ['ipc' as const] : [])],
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const entry: Child = { spec, process: child, exited };
    this.children.push(entry);
    let ready = false;
    child.once('error', (error) => {
      if (this.stopping) return;
      this.log(`${spec.name} could not be started: ${error.message}; stopping everything else`);
      void this.stop(1);
    });
    child.once('exit', (code, signal) => {
      if (this.stopping) return;
      this.log(`${spec.name} ${describeExit(code, signal)}${ready ? '' : ' before it was ready'}; stopping everything else`);
      void this.stop(1);
    });
    const readiness =
      spec.ready === 'message'
        ? new Promise<void>((resolve) => child.on('message', (message) => message === 'ready' && resolve()))
        : waitForPort(spec.ready.host, spec.ready.port, 120_000);
    await Promise.race([readiness, this.stopRequested]);
    if (this.stopping) throw new TreeStopping();
    ready = true;
  }

  /**
   * Stops every child, the last started first: SIGTERM, then SIGKILL after its grace time. Calls
   * after the first join it (a child's end and a signal together stop the tree once).
   */
  stop(exitCode: number): Promise<void> {
    if (this.stopping) return this.stopping;
    this.resolveStopRequested();
    this.stopping = (async () => {
      for (const child of [...this.children].reverse()) await stopChild(child);
      this.resolveStopped(exitCode);
    })();
    return this.stopping;
  }
}

async function stopChild(child: Child): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null || child.process.pid === undefined) return;
  child.process.kill('SIGTERM');
  const kill = setTimeout(() => child.process.kill('SIGKILL'), child.spec.stopGraceMs);
  await child.exited;
  clearTimeout(kill);
}

/** Whether a server could listen on host:port now. */
export function portIsFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** A port the tree will listen on, named for the message when it is taken. */
export interface PortClaim {
  what: string;
  host: string;
  port: number;
  /** The variable that moves it elsewhere. */
  variable: string;
}

/**
 * Throws one message naming every port of `claims` that is already taken, before anything is
 * started (most often by an `npm start` still running, or one that did not stop).
 */
export async function assertPortsFree(claims: PortClaim[]): Promise<void> {
  const taken: PortClaim[] = [];
  for (const claim of claims) if (!(await portIsFree(claim.host, claim.port))) taken.push(claim);
  if (taken.length === 0) return;
  const lines = taken.map((claim) => `  ${claim.host}:${claim.port}  ${claim.what} (${claim.variable})`);
  throw new Error(
    [
      `Cannot start: ${taken.length === 1 ? 'this port is' : 'these ports are'} already in use:`,
      ...lines,
      'Is another `npm start` still running? Stop it, or choose another port with the variable in parentheses.',
    ].join('\n'),
  );
}
