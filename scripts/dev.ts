/**
 * `npm start`: the whole system on one machine. PostgreSQL from DATABASE_URL (database created
 * and migrated when missing), the Temporal dev server with its Web UI (unless TEMPORAL_ADDRESS
 * points elsewhere), the Proxmox VE simulator with the demo cluster (unless PROXMOX_URL is set),
 * the API and a worker. Ctrl-C stops everything it started.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/config';
import { createDb } from '../src/db/client';
import { type DemoLogin, type DemoProxmox, seedDemoCatalog } from '../src/db/seed';
import { secretBoxOf } from '../src/security/secrets';
import { startServer } from '../src/server';
import { demoCluster } from '../src/simulator/spec';
import { createSimulator, DEFAULT_SIM_TOKEN, parseToken } from '../src/simulator/server';
import { startWorker } from '../src/worker';
import { ensureMigratedDatabase } from './database';
import { projectRoot, startTemporalDevServer } from './temporal';
import { ensureWebBuild } from './web';

const dataDir = path.join(projectRoot, '.data');

/** Development secrets, made once and kept in the git-ignored data folder. */
function devSecrets(): { ENCRYPTION_KEY: string; BOOTSTRAP_ADMIN_TOKEN: string } {
  const file = path.join(dataDir, 'dev-secrets.json');
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as { ENCRYPTION_KEY: string; BOOTSTRAP_ADMIN_TOKEN: string };
  const secrets = { ENCRYPTION_KEY: randomBytes(32).toString('base64'), BOOTSTRAP_ADMIN_TOKEN: `pvecp_${randomBytes(32).toString('base64url')}` };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

async function main(): Promise<void> {
  const stops: (() => Promise<void>)[] = [];
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    process.exit(code);
  };
  process.once('SIGINT', () => void stopAll(0));
  process.once('SIGTERM', () => void stopAll(0));

  try {
    const generated = devSecrets();
    const env = { ...generated, ...process.env };
    const config = loadConfig(env);
    await ensureMigratedDatabase(config.DATABASE_URL);

    if (!process.env.TEMPORAL_ADDRESS) {
      const temporal = await startTemporalDevServer({}, { stdio: 'ignore' });
      stops.push(temporal.stop);
      config.TEMPORAL_ADDRESS = temporal.address;
      console.log(`Temporal dev server  ${temporal.address}   Web UI ${temporal.uiUrl}`);
    }

    let proxmox: DemoProxmox = {
      proxmoxUrl: process.env.PROXMOX_URL ?? '',
      tokenId: process.env.PROXMOX_TOKEN_ID ?? '',
      tokenSecret: process.env.PROXMOX_TOKEN_SECRET ?? '',
    };
    if (!proxmox.proxmoxUrl) {
      const simToken = process.env.SIM_TOKEN ?? DEFAULT_SIM_TOKEN;
      // A shared storage for snippets, "mounted" here as .data/snippets, so creates may carry userData.
      const snippets = { storage: 'demo-snippets', directory: path.join(dataDir, 'snippets') };
      fs.mkdirSync(snippets.directory, { recursive: true });
      const simulator = createSimulator({
        token: simToken,
        cluster: { storages: [...demoCluster().storages, { storage: snippets.storage, type: 'dir', shared: true, content: 'snippets', snippetsDir: snippets.directory, totalGiB: 1 }] },
      });
      const listening = await simulator.listen(Number(process.env.SIM_PORT ?? 8006), '127.0.0.1');
      stops.push(listening.close);
      const { tokenId, secret } = parseToken(simToken);
      proxmox = { proxmoxUrl: `http://127.0.0.1:${listening.port}`, tokenId, tokenSecret: secret, plaintextLab: true, snippets };
      console.log(`Proxmox VE simulator ${proxmox.proxmoxUrl}  (demo cluster pve1..pve3)`);
    }

    const db = createDb(config.DATABASE_URL, 2);
    const seed = await seedDemoCatalog(db, secretBoxOf(config), proxmox, { withLogins: true });
    await db.$disconnect();
    const loginsFile = path.join(dataDir, 'demo-logins.json');
    if (seed.seeded) {
      fs.writeFileSync(path.join(dataDir, 'demo-customer-token'), seed.customerToken, { mode: 0o600 });
      fs.writeFileSync(loginsFile, JSON.stringify(seed.logins ?? [], null, 2), { mode: 0o600 });
    }

    if (await ensureWebBuild()) console.log('Console built into web/dist.');
    const worker = await startWorker(config);
    stops.push(worker.shutdown);
    const api = await startServer(config);
    stops.push(api.close);

    console.log(`Console and API      http://127.0.0.1:${api.port}   (OpenAPI at /openapi.json)`);
    console.log(seed.seeded ? 'Demo catalog seeded.' : 'Catalog already present; not seeded.');
    if (fs.existsSync(loginsFile)) {
      for (const login of JSON.parse(fs.readFileSync(loginsFile, 'utf8')) as DemoLogin[]) {
        console.log(`Demo ${login.role === 'admin' ? 'operator' : 'customer'} login: ${login.email}  password ${login.password}`);
      }
    }
    console.log('Demo customer token: export TOKEN=$(cat .data/demo-customer-token)');
    console.log('Admin token:         export ADMIN_TOKEN=$(node -p "require(\'./.data/dev-secrets.json\').BOOTSTRAP_ADMIN_TOKEN")');
    console.log('Press Ctrl-C to stop everything.');
    void worker.done.catch(() => stopAll(1));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    await stopAll(1);
  }
}

void main();
