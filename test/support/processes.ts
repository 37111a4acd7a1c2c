import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../src/config';

export interface AppProcess {
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Resolves with the first JSON log line whose `msg` is `msg`. */
  logLine(msg: string): Promise<Record<string, unknown>>;
  kill(): Promise<void>;
}

/**
 * `src/server.ts` or `src/worker.ts` in a process of its own with the given configuration, its
 * output captured (pino JSON lines), so a test can signal it and read every line it logged.
 */
export function spawnAppProcess(entry: 'server' | 'worker', config: Config, overrides: Record<string, string> = {}): AppProcess {
  const root = path.resolve(__dirname, '..', '..');
  const env = Object.fromEntries(Object.entries(config).filter(([, value]) => value !== undefined).map(([key, value]) => [key, String(value)]));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src', `${entry}.ts`)], {
    cwd: root,
    env: { ...process.env, ...env, ...overrides },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const waiters: (() => void)[] = [];
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    for (const wake of waiters.splice(0)) wake();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      for (const wake of waiters.splice(0)) wake();
      resolve(code);
    }),
  );
  const findLine = (msg: string) =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.msg === msg);
  return {
    child,
    output: () => output,
    exited,
    async logLine(msg) {
      for (;;) {
        const line = findLine(msg);
        if (line) return line;
        if (child.exitCode !== null) throw new Error(`${entry} exited before logging "${msg}":\n${output}`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Resolves true when `promise` settles within `ms`, false otherwise. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

export interface EventStream {
  status: number;
  headers: Headers;
  /** The stream's text so far. */
  text(): string;
  /** Waits until the text so far satisfies `done` (or the stream ends); answers the text. */
  until(done: (text: string) => boolean): Promise<string>;
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  cancel(): Promise<void>;
}

/** Opens a server-sent event stream and reads it in the background. */
export async function openEventStream(url: string, token: string, headers: Record<string, string> = {}): Promise<EventStream> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', ...headers } });
  let text = '';
  const waiters: (() => void)[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let over = false;
  const ended = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        for (const wake of waiters.splice(0)) wake();
      }
    } catch {
      // Cut by the server or cancelled by the test: the text so far is what was sent.
    } finally {
      over = true;
      for (const wake of waiters.splice(0)) wake();
    }
  })();
  return {
    status: res.status,
    headers: res.headers,
    text: () => text,
    async until(done) {
      while (!done(text) && !over) await new Promise<void>((resolve) => waiters.push(resolve));
      return text;
    },
    ended,
    async cancel() {
      await reader.cancel().catch(() => undefined);
      await ended;
    },
  };
}

/** Whether the process runs (a zombie, ended and not yet reaped, does not). Linux: reads /proc. */
export function isRunning(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The process's descendants with their command lines, children before grandchildren. Linux: reads /proc. */
export function descendantsOf(root: number): { pid: number; ppid: number; command: string }[] {
  const all = fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
        const command = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim();
        // Fields after the command name in parentheses: state, ppid, ...
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return [{ pid: Number(name), ppid, command }];
      } catch {
        return []; // ended while we read
      }
    });
  const found: { pid: number; ppid: number; command: string }[] = [];
  for (let parents = [root]; parents.length > 0; ) {
    const children = all.filter((entry) => parents.includes(entry.ppid));
    found.push(...children);
    parents = children.map((entry) => entry.pid);
  }
  return found;
}
