/**
 * The Proxmox VE simulator `npm start` runs as one of its processes: the demo cluster (pve1..pve3)
 * plus a shared snippets storage "mounted" at SIM_SNIPPETS_DIR, so creates may carry userData.
 * Environment: SIM_PORT (8006), SIM_TOKEN, SIM_SNIPPETS_DIR.
 */
import fs from 'node:fs';
import { runUntilSignalled } from '../src/main';
import { createSimulator, DEFAULT_SIM_TOKEN } from '../src/simulator/server';
import { demoCluster } from '../src/simulator/spec';

/** The snippets storage of the demo cluster (and of the demo connection the seed writes). */
export const DEMO_SNIPPETS_STORAGE = 'demo-snippets';

function startDemoSimulator() {
  const snippetsDir = process.env.SIM_SNIPPETS_DIR;
  if (!snippetsDir) throw new Error('SIM_SNIPPETS_DIR must name the folder of the snippets storage');
  fs.mkdirSync(snippetsDir, { recursive: true });
  const simulator = createSimulator({
    token: process.env.SIM_TOKEN ?? DEFAULT_SIM_TOKEN,
    cluster: { storages: [...demoCluster().storages, { storage: DEMO_SNIPPETS_STORAGE, type: 'dir', shared: true, content: 'snippets', snippetsDir, totalGiB: 1 }] },
  });
  return simulator.listen(Number(process.env.SIM_PORT ?? 8006), '127.0.0.1');
}

if (require.main === module) {
  runUntilSignalled(Promise.resolve().then(startDemoSimulator), (listening) => listening.close(), 5_000);
}
