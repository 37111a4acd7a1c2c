/**
 * The local Temporal dev server: builds the pinned CLI into .tools/bin when missing and runs
 * `temporal server start-dev` with the settings in temporal-dev.yaml.
 *
 *   npx tsx scripts/temporal.ts build   # only make sure the binary exists
 *   npx tsx scripts/temporal.ts start   # run the dev server in the foreground
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';

export const projectRoot = path.resolve(__dirname, '..');
const toolsBin = path.join(projectRoot, '.tools', 'bin');
export const temporalBinary = path.join(toolsBin, 'temporal');

const devConfigSchema = z.object({
  cli: z.object({ module: z.string(), version: z.string() }),
  namespace: z.string(),
  ip: z.string(),
  port: z.number().int(),
  uiPort: z.number().int(),
  dbFilename: z.string(),
  logLevel: z.string(),
  searchAttributes: z.record(z.string(), z.enum(['Keyword', 'Text', 'Int', 'Double', 'Bool', 'Datetime', 'KeywordList'])),
  sqlitePragmas: z.record(z.string(), z.union([z.string(), z.number()])),
  dynamicConfig: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
});
export type TemporalDevConfig = z.infer<typeof devConfigSchema>;

export function readTemporalDevConfig(file = path.join(projectRoot, 'temporal-dev.yaml')): TemporalDevConfig {
  return devConfigSchema.parse(parse(fs.readFileSync(file, 'utf8')));
}

function findGo(): string | undefined {
  const candidates = [process.env.GO ?? '', 'go', '/usr/local/go/bin/go'].filter(Boolean);
  return candidates.find((candidate) => spawnSync(candidate, ['version'], { stdio: 'ignore' }).status === 0);
}

/** Builds Go binaries with `go install` into `gobin` unless they are all there already. */
export function ensureGoBinaries(build: { what: string; gobin: string; targets: string[]; binaries: string[]; check?: (go: string) => void }): void {
  if (build.binaries.every((binary) => fs.existsSync(binary))) return;
  const go = findGo();
  if (!go) {
    throw new Error(
      `${build.what} is not in ${build.gobin} and Go is not installed to build it. ` +
        `Install Go (https://go.dev/dl, 1.23 or newer) or put ${build.binaries.map((binary) => path.basename(binary)).join(' and ')} in ${build.gobin}.`,
    );
  }
  build.check?.(go);
  console.error(`Building ${build.what} (${build.targets.join(', ')}) into ${build.gobin}; the first build takes a few minutes...`);
  const started = Date.now();
  const result = spawnSync(go, ['install', ...build.targets], {
    stdio: 'inherit',
    env: { ...process.env, GOBIN: build.gobin, GOFLAGS: process.env.GOFLAGS ?? '-mod=mod' },
  });
  if (result.status !== 0 || !build.binaries.every((binary) => fs.existsSync(binary))) {
    throw new Error(`go install ${build.targets.join(' ')} failed (exit ${result.status ?? result.signal})`);
  }
  console.error(`${build.what} built in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** Returns the dev server binary, building it with `go install` the first time (about 3 minutes on 2 cores). */
export function ensureTemporalCli(config = readTemporalDevConfig()): string {
  ensureGoBinaries({ what: 'the Temporal CLI', gobin: toolsBin, targets: [`${config.cli.module}@${config.cli.version}`], binaries: [temporalBinary] });
  return temporalBinary;
}

export interface DevServerOverrides {
  port?: number;
  uiPort?: number;
  /** null keeps history in memory (tests). */
  dbFilename?: string | null;
  headless?: boolean;
}

export function devServerArgs(config: TemporalDevConfig, overrides: DevServerOverrides = {}): string[] {
  const port = overrides.port ?? config.port;
  const dbFilename = overrides.dbFilename === undefined ? path.resolve(projectRoot, config.dbFilename) : overrides.dbFilename;
  const args = ['server', 'start-dev', '--ip', config.ip, '--port', String(port), '--namespace', config.namespace];
  args.push('--log-level', config.logLevel);
  if (overrides.headless) args.push('--headless');
  else args.push('--ui-port', String(overrides.uiPort ?? config.uiPort));
  if (dbFilename) {
    args.push('--db-filename', dbFilename);
    for (const [name, value] of Object.entries(config.sqlitePragmas)) args.push('--sqlite-pragma', `${name}=${value}`);
  }
  for (const [name, type] of Object.entries(config.searchAttributes)) args.push('--search-attribute', `${name}=${type}`);
  for (const [key, value] of Object.entries(config.dynamicConfig)) {
    args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);
  }
  return args;
}

export function waitForPort(host: string, port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = net.connect({ host, port }, () => {
        socket.end();
        resolve();
      });
      socket.on('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`nothing answered on ${host}:${port} within ${timeoutMs} ms`));
        else setTimeout(attempt, 100);
      });
    };
    attempt();
  });
}

/** A Temporal server the system can use: the dev server or the cluster (scripts/temporal-cluster.ts). */
export interface RunningTemporal {
  address: string;
  namespace: string;
  /** Its processes, for their memory. */
  pids(): number[];
  stop(): Promise<void>;
}

export interface RunningDevServer extends RunningTemporal {
  uiUrl: string | null;
  process: ChildProcess;
}

/** How to run the dev server: the binary (built when missing) and its arguments, its SQLite file's folder made. */
export interface DevServerCommand {
  binary: string;
  args: string[];
  ip: string;
  port: number;
  uiPort: number | null;
  namespace: string;
}

export function devServerCommand(overrides: DevServerOverrides = {}): DevServerCommand {
  const config = readTemporalDevConfig();
  const binary = ensureTemporalCli(config);
  const args = devServerArgs(config, overrides);
  const dbFile = args[args.indexOf('--db-filename') + 1];
  if (args.includes('--db-filename') && dbFile) fs.mkdirSync(path.dirname(dbFile), { recursive: true });
  const uiPort = overrides.headless ? null : (overrides.uiPort ?? config.uiPort);
  return { binary, args, ip: config.ip, port: overrides.port ?? config.port, uiPort, namespace: config.namespace };
}

export async function startTemporalDevServer(
  overrides: DevServerOverrides = {},
  options: { stdio?: 'inherit' | 'ignore' } = {},
): Promise<RunningDevServer> {
  const { binary, args, ip, port, uiPort, namespace } = devServerCommand(overrides);
  const child = spawn(binary, args, { stdio: ['ignore', options.stdio ?? 'ignore', options.stdio ?? 'inherit'] });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code, signal) => reject(new Error(`temporal dev server exited early (${code ?? signal})`))),
  );
  await Promise.race([waitForPort(ip, port, 60_000), exited]);
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    });
  return {
    address: `${ip}:${port}`,
    namespace,
    uiUrl: uiPort === null ? null : `http://${ip}:${uiPort}`,
    process: child,
    pids: () => (child.pid === undefined ? [] : [child.pid]),
    stop,
  };
}

/**
 * The `build|start` command line of a Temporal script: `build` prints what `ensure` returns,
 * `start` runs the server until SIGINT or SIGTERM.
 */
export function temporalScript(script: string, ensure: () => string, start: () => Promise<{ stop(): Promise<void> }>): void {
  const commands: Record<string, () => Promise<void>> = {
    build: async () => console.log(ensure()),
    start: async () => {
      const server = await start();
      const stop = () => void server.stop().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    },
  };
  const command = commands[process.argv[2] ?? ''];
  if (!command) {
    console.error(`usage: tsx ${script} build|start`);
    process.exitCode = 2;
    return;
  }
  command().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}

if (require.main === module) {
  temporalScript('scripts/temporal.ts', () => ensureTemporalCli(), async () => {
    const server = await startTemporalDevServer({}, { stdio: 'inherit' });
    console.error(`Temporal dev server on ${server.address}, Web UI at ${server.uiUrl}`);
    return server;
  });
}
