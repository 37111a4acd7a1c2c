/**
 * `npm start`: the whole system on one machine. PostgreSQL from DATABASE_URL (database created
 * and migrated when missing), then, each a process of its own in one process tree
 * (scripts/process-tree.ts): the Temporal dev server with its Web UI (unless TEMPORAL_ADDRESS
 * points elsewhere), the Proxmox VE simulator with the demo cluster and its image server (unless
 * PROXMOX_URL is set), a worker and the API. At the first start with the simulator, one demo image
 * is registered by URL (scripts/demo-image.ts) and builds in the background. Ctrl-C stops
 * everything it started; so does any of them ending on its own.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/config';
import { createDb } from '../src/db/client';
import { type DemoLogin, type DemoProxmox, seedDemoCatalog } from '../src/db/seed';
import { secretBoxOf } from '../src/security/secrets';
import { DEFAULT_SIM_TOKEN, parseToken } from '../src/simulator/server';
import { WORKER_NODE_FLAGS } from '../src/worker';
import { ensureMigratedDatabase } from './database';
import { DEMO_URL_IMAGE_NAME, registerDemoImage } from './demo-image';
import { DEFAULT_SIM_IMAGES_PORT, DEMO_SNIPPETS_STORAGE } from './demo-simulator';
import { assertPortsFree, ProcessTree, TreeStopping, type PortClaim } from './process-tree';
import { devServerCommand, projectRoot, readTemporalDevConfig } from './temporal';
import { ensureWebBuild } from './web';

/** Secrets, tokens, logins, snippets and Temporal's history: git-ignored, DEV_DATA_DIR moves it. */
const dataDir = path.resolve(process.env.DEV_DATA_DIR ?? path.join(projectRoot, '.data'));

/** Development secrets, made once and kept in the git-ignored data folder. */
function devSecrets(): { ENCRYPTION_KEY: string; BOOTSTRAP_ADMIN_TOKEN: string } {
  const file = path.join(dataDir, 'dev-secrets.json');
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as { ENCRYPTION_KEY: string; BOOTSTRAP_ADMIN_TOKEN: string };
  const secrets = { ENCRYPTION_KEY: randomBytes(32).toString('base64'), BOOTSTRAP_ADMIN_TOKEN: `pvecp_${randomBytes(32).toString('base64url')}` };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

async function main(tree: ProcessTree): Promise<void> {
  const generated = devSecrets();
  const env: NodeJS.ProcessEnv = { ...generated, ...process.env };
  const config = loadConfig(env);
  const temporalConfig = readTemporalDevConfig();
  const startTemporal = !process.env.TEMPORAL_ADDRESS;
  const temporalPort = Number(process.env.TEMPORAL_DEV_PORT ?? temporalConfig.port);
  const temporalUiPort = Number(process.env.TEMPORAL_DEV_UI_PORT ?? temporalConfig.uiPort);
  const startSimulator = !process.env.PROXMOX_URL;
  const simPort = Number(process.env.SIM_PORT ?? 8006);
  const imagesPort = Number(process.env.SIM_IMAGES_PORT ?? DEFAULT_SIM_IMAGES_PORT);
  // The demo image's checksum list is served from 127.0.0.1: the control plane may read it there.
  if (startSimulator) env.CHECKSUM_URL_ALLOW_PRIVATE_TARGETS ??= 'true';

  const ports: PortClaim[] = [{ what: 'the API and console', host: config.HOST, port: config.PORT, variable: 'PORT' }];
  if (config.METRICS_PORT !== undefined) ports.push({ what: 'the metrics listener', host: config.METRICS_HOST ?? config.HOST, port: config.METRICS_PORT, variable: 'METRICS_PORT' });
  if (startTemporal) {
    ports.push({ what: 'the Temporal dev server', host: temporalConfig.ip, port: temporalPort, variable: 'TEMPORAL_DEV_PORT' });
    ports.push({ what: "the Temporal dev server's Web UI", host: temporalConfig.ip, port: temporalUiPort, variable: 'TEMPORAL_DEV_UI_PORT' });
  }
  if (startSimulator) {
    ports.push({ what: 'the Proxmox VE simulator', host: '127.0.0.1', port: simPort, variable: 'SIM_PORT' });
    ports.push({ what: "the simulator's image server", host: '127.0.0.1', port: imagesPort, variable: 'SIM_IMAGES_PORT' });
  }
  await assertPortsFree(ports);
  await ensureMigratedDatabase(config.DATABASE_URL);

  let proxmox: DemoProxmox = {
    proxmoxUrl: process.env.PROXMOX_URL ?? '',
    tokenId: process.env.PROXMOX_TOKEN_ID ?? '',
    tokenSecret: process.env.PROXMOX_TOKEN_SECRET ?? '',
  };
  const snippets = { storage: DEMO_SNIPPETS_STORAGE, directory: path.join(dataDir, 'snippets') };
  const simToken = process.env.SIM_TOKEN ?? DEFAULT_SIM_TOKEN;
  if (startSimulator) {
    const { tokenId, secret } = parseToken(simToken);
    proxmox = { proxmoxUrl: `http://127.0.0.1:${simPort}`, tokenId, tokenSecret: secret, plaintextLab: true, snippets };
  }
  const db = createDb(config.DATABASE_URL, 2);
  const seed = await seedDemoCatalog(db, secretBoxOf(config), proxmox, { withLogins: true }).finally(() => db.$disconnect());
  const loginsFile = path.join(dataDir, 'demo-logins.json');
  if (seed.seeded) {
    fs.writeFileSync(path.join(dataDir, 'demo-customer-token'), seed.customerToken, { mode: 0o600 });
    fs.writeFileSync(loginsFile, JSON.stringify(seed.logins ?? [], null, 2), { mode: 0o600 });
  }
  if (await ensureWebBuild()) console.log('Console built into web/dist.');

  const node = (entry: string, flags: string[] = []) => ({ command: process.execPath, args: [...flags, '--import', 'tsx', path.join(projectRoot, entry)] });
  // The API and the worker stop within their own grace time; past it (and a margin) they are killed.
  const appGraceMs = config.SIGTERM_GRACE_SECONDS * 1000 + 5_000;
  // Temporal and the simulator need nothing of each other, nor the worker and the API: each pair starts at once.
  const temporal = startTemporal
    ? devServerCommand({ port: temporalPort, uiPort: temporalUiPort, dbFilename: path.join(dataDir, 'temporal', path.basename(temporalConfig.dbFilename)) })
    : null;
  if (temporal) env.TEMPORAL_ADDRESS = `${temporal.ip}:${temporal.port}`;
  await Promise.all([
    temporal && tree.start({ name: 'temporal', command: temporal.binary, args: temporal.args, ready: { host: temporal.ip, port: temporal.port }, stopGraceMs: 10_000, output: 'ignore' }),
    startSimulator &&
      tree.start({ name: 'simulator', ...node('scripts/demo-simulator.ts'), env: { ...env, SIM_TOKEN: simToken, SIM_PORT: String(simPort), SIM_IMAGES_PORT: String(imagesPort), SIM_SNIPPETS_DIR: snippets.directory }, ready: 'message', stopGraceMs: 10_000 }),
  ]);
  if (temporal) console.log(`Temporal dev server  ${env.TEMPORAL_ADDRESS}   Web UI http://${temporal.ip}:${temporal.uiPort}`);
  if (startSimulator) console.log(`Proxmox VE simulator ${proxmox.proxmoxUrl}  (demo cluster pve1..pve3; images served at http://127.0.0.1:${imagesPort})`);
  await Promise.all([
    tree.start({ name: 'worker', ...node('src/worker.ts', WORKER_NODE_FLAGS), env, ready: 'message', stopGraceMs: appGraceMs }),
    tree.start({ name: 'api', ...node('src/server.ts'), env, ready: 'message', stopGraceMs: appGraceMs }),
  ]);

  console.log(`Console and API      http://${config.HOST}:${config.PORT}   (OpenAPI at /openapi.json)`);
  console.log(seed.seeded ? 'Demo catalog seeded.' : 'Catalog already present; not seeded.');
  if (startSimulator) {
    // A demo image that cannot be registered is said, not fatal: everything else works without it.
    // The API as this machine reaches it: a wildcard bind answers on loopback.
    const apiHost = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
    await registerDemoImage(`http://${apiHost}:${config.PORT}`, env.BOOTSTRAP_ADMIN_TOKEN as string, `http://127.0.0.1:${imagesPort}`).then(
      (registered) => registered && console.log(`Demo image ${DEMO_URL_IMAGE_NAME} registered by URL; it builds on pve1..pve3 in the background.`),
      (error: unknown) => console.error(error instanceof Error ? error.message : error),
    );
  }
  if (fs.existsSync(loginsFile)) {
    for (const login of JSON.parse(fs.readFileSync(loginsFile, 'utf8')) as DemoLogin[]) {
      console.log(`Demo ${login.role === 'admin' ? 'operator' : 'customer'} login: ${login.email}  password ${login.password}`);
    }
  }
  const shownDir = path.relative(process.cwd(), dataDir) || '.';
  console.log(`Demo customer token: export TOKEN=$(cat ${shownDir}/demo-customer-token)`);
  console.log(`Admin token:         export ADMIN_TOKEN=$(node -p "require('./${shownDir}/dev-secrets.json').BOOTSTRAP_ADMIN_TOKEN")`);
  console.log('Press Ctrl-C to stop everything.');
}

const tree = new ProcessTree((line) => console.error(line));
void tree.stopped.then((code) => process.exit(code));
// Ctrl-C and the like stop the tree once; a second one changes nothing (every child has its SIGTERM).
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void tree.stop(0));
main(tree).catch((error: unknown) => {
  // TreeStopping: a child ended while starting (its line is printed) or a signal came.
  if (error instanceof TreeStopping) return;
  console.error(error instanceof Error ? error.message : error);
  void tree.stop(1);
});
