/**
 * `npm start` is one process tree (scripts/dev.ts): the Temporal dev server, the simulator, a
 * worker and the API, each a process of its own. Whichever of them ends on its own (`kill -9`),
 * the supervisor says which and how in one line and stops the others: nothing of the tree is left
 * and every port it held is free for the next start. Ctrl-C stops it all within 30 s, and so does
 * the supervisor's own death; a start that meets a port taken names it and starts nothing.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { portIsFree } from '../../scripts/process-tree';
import { ensureWebBuild } from '../../scripts/web';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { freePortIn } from '../support/ports';
import { descendantsOf, isRunning, settlesWithin } from '../support/processes';

const root = path.resolve(__dirname, '..', '..');

/** How each child of the tree is recognised in its command line. */
const CHILDREN = {
  temporal: '.tools/bin/temporal server start-dev',
  simulator: 'scripts/demo-simulator.ts',
  worker: 'src/worker.ts',
  api: 'src/server.ts',
} as const;

interface Ports {
  PORT: number;
  SIM_PORT: number;
  SIM_IMAGES_PORT: number;
  TEMPORAL_DEV_PORT: number;
  TEMPORAL_DEV_UI_PORT: number;
}

interface RunningTree {
  pid: number;
  ports: Ports;
  output(): string;
  /** Resolves with the supervisor's exit code, or its signal. */
  exited: Promise<number | NodeJS.Signals>;
}

/**
 * A free port below the ephemeral range: one freed by the tree is checked free afterwards, and an
 * outgoing connection of another process on this machine could take an ephemeral one meanwhile.
 */
const listenPort = () => freePortIn(20_000, 32_000);

let database: TestDatabase;
let dataDir: string;

/** `node scripts/dev.ts` (what `npm start` runs) in a process group of its own, on ports of its own. */
async function launch(ports?: Ports): Promise<RunningTree> {
  const chosen = ports ?? { PORT: await listenPort(), SIM_PORT: await listenPort(), SIM_IMAGES_PORT: await listenPort(), TEMPORAL_DEV_PORT: await listenPort(), TEMPORAL_DEV_UI_PORT: await listenPort() };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DEV_DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    LOG_LEVEL: 'warn',
    WORKFLOW_BUNDLE_PATH: inject('workflowBundlePath'),
    ...Object.fromEntries(Object.entries(chosen).map(([name, port]) => [name, String(port)])),
  };
  delete env.TEMPORAL_ADDRESS;
  delete env.PROXMOX_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev.ts'], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | NodeJS.Signals>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal as NodeJS.Signals))));
  return { pid: child.pid!, ports: chosen, output: () => output, exited };
}

/** Launches the tree and waits until everything in it is up. */
async function startTree(): Promise<RunningTree & { children: Record<keyof typeof CHILDREN, number>; everyPid: number[] }> {
  const tree = await launch();
  let over = false;
  void tree.exited.then(() => (over = true));
  while (!tree.output().includes('Press Ctrl-C to stop everything.')) {
    if (over) throw new Error(`npm start ended while starting:\n${tree.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const everyPid = descendantsOf(tree.pid);
  const direct = everyPid.filter((entry) => entry.ppid === tree.pid);
  const pidOf = (name: keyof typeof CHILDREN) => {
    const found = direct.filter((entry) => entry.command.includes(CHILDREN[name]));
    expect(found, name).toHaveLength(1);
    return found[0]!.pid;
  };
  const children = { temporal: pidOf('temporal'), simulator: pidOf('simulator'), worker: pidOf('worker'), api: pidOf('api') };
  return { ...tree, children, everyPid: everyPid.map((entry) => entry.pid) };
}

/** Every process the tree had is gone (within `ms`), and each of its ports can be listened on again. */
async function expectNothingLeft(pids: number[], ports: Ports, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (pids.some(isRunning) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
  expect(pids.filter(isRunning)).toEqual([]);
  for (const [name, port] of Object.entries(ports)) expect(await portIsFree('127.0.0.1', port), `${name} ${port}`).toBe(true);
}

describe('npm start', () => {
  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pvecp-start-'));
    await ensureWebBuild();
  });

  afterAll(async () => {
    await database?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  // First, on the fresh database: the first start registers the demo image by URL.
  it('registers the demo image by URL at its first start, and it becomes ready on the three demo nodes; a restart registers nothing more', async () => {
    const readDemoImage = async (tree: RunningTree) => {
      const { BOOTSTRAP_ADMIN_TOKEN } = JSON.parse(fs.readFileSync(path.join(dataDir, 'dev-secrets.json'), 'utf8')) as { BOOTSTRAP_ADMIN_TOKEN: string };
      const answer = await fetch(`http://127.0.0.1:${tree.ports.PORT}/v1/admin/images?limit=100`, { headers: { authorization: `Bearer ${BOOTSTRAP_ADMIN_TOKEN}` } });
      const images = ((await answer.json()) as { data: { name: string; source: { checksumUrl: string } | null; versions: unknown[]; builds: { node: string; state: string }[] }[] }).data;
      return images.filter((image) => image.name === 'demo-cloud-from-url');
    };
    const first = await startTree();
    expect(first.output()).toContain('Demo image demo-cloud-from-url registered by URL');
    await expect
      .poll(async () => (await readDemoImage(first)).map((image) => image.builds.map((b) => `${b.node}:${b.state}`).sort()), { timeout: 120_000, interval: 500 })
      .toEqual([['pve1:ready', 'pve2:ready', 'pve3:ready']]);
    expect((await readDemoImage(first))[0]?.source?.checksumUrl).toBe(`http://127.0.0.1:${first.ports.SIM_IMAGES_PORT}/images/SHA256SUMS`);
    process.kill(-first.pid, 'SIGINT');
    expect(await first.exited).toBe(0);

    const again = await startTree();
    expect(again.output()).not.toContain('registered by URL');
    expect((await readDemoImage(again)).map((image) => image.versions.length)).toEqual([1]);
    process.kill(-again.pid, 'SIGINT');
    expect(await again.exited).toBe(0);
  }, 300_000);

  // The tree treats every child alike; these two are one of each kind (a Node process that says
  // when it is ready over IPC, and the Temporal CLI, ready when its port answers).
  it.each(['api', 'temporal'] as const)(
    'stops the whole tree when the %s is killed with SIGKILL, and says so in one line',
    async (name) => {
      const tree = await startTree();
      process.kill(tree.children[name], 'SIGKILL');
      expect(await tree.exited).toBe(1);
      const lines = tree.output().split('\n');
      expect(lines).toContain(`${name} was killed by SIGKILL; stopping everything else`);
      expect(lines.filter((line) => line.includes('stopping everything else'))).toHaveLength(1);
      await expectNothingLeft([tree.pid, ...tree.everyPid], tree.ports);
    },
    240_000,
  );

  it('stops everything within 30 s of Ctrl-C (SIGINT to its process group), exiting 0', async () => {
    const tree = await startTree();
    process.kill(-tree.pid, 'SIGINT');
    expect(await settlesWithin(tree.exited, 30_000)).toBe(true);
    expect(await tree.exited).toBe(0);
    expect(tree.output()).not.toContain('stopping everything else');
    await expectNothingLeft(tree.everyPid, tree.ports);
  }, 240_000);

  it('leaves nothing behind when the supervisor itself is killed with SIGKILL', async () => {
    const tree = await startTree();
    process.kill(tree.pid, 'SIGKILL');
    expect(await tree.exited).toBe('SIGKILL');
    // Each child gets SIGTERM from the kernel when its parent dies and stops in its grace time.
    await expectNothingLeft(tree.everyPid, tree.ports, 30_000);
  }, 240_000);

  it('meeting a port already taken names it and what needs it, and starts nothing', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const taken = (holder.address() as net.AddressInfo).port;
    try {
      const tree = await launch({ PORT: await listenPort(), SIM_PORT: await listenPort(), SIM_IMAGES_PORT: await listenPort(), TEMPORAL_DEV_PORT: taken, TEMPORAL_DEV_UI_PORT: await listenPort() });
      expect(await tree.exited).toBe(1);
      expect(tree.output()).toContain(`127.0.0.1:${taken}  the Temporal dev server (TEMPORAL_DEV_PORT)`);
      expect(tree.output()).toContain('Is another `npm start` still running?');
      // Refused before anything started: no child announced itself.
      expect(tree.output()).not.toMatch(/Temporal dev server {2}|Proxmox VE simulator|Console and API/);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
