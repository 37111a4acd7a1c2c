/**
 * The Proxmox VE simulator `npm start` runs as one of its processes: the demo cluster (pve1..pve3)
 * plus a shared snippets storage "mounted" at SIM_SNIPPETS_DIR, so creates may carry userData;
 * and beside it the image server (src/simulator/image-server.ts) on 127.0.0.1:SIM_IMAGES_PORT,
 * a mirror of a cloud image and its SHA256SUMS the demo image is built from.
 * Environment: SIM_PORT (8006), SIM_IMAGES_PORT (8016), SIM_TOKEN, SIM_SNIPPETS_DIR.
 */
import fs from 'node:fs';
import { runUntilSignalled } from '../src/main';
import { startImageServer } from '../src/simulator/image-server';
import { createSimulator, DEFAULT_SIM_TOKEN } from '../src/simulator/server';
import { demoCluster } from '../src/simulator/spec';

/** The snippets storage of the demo cluster (and of the demo connection the seed writes). */
export const DEMO_SNIPPETS_STORAGE = 'demo-snippets';

/** Where the demo's image server listens unless SIM_IMAGES_PORT says otherwise. */
export const DEFAULT_SIM_IMAGES_PORT = 8016;

async function startDemoSimulator() {
  const snippetsDir = process.env.SIM_SNIPPETS_DIR;
  if (!snippetsDir) throw new Error('SIM_SNIPPETS_DIR must name the folder of the snippets storage');
  fs.mkdirSync(snippetsDir, { recursive: true });
  const simulator = createSimulator({
    token: process.env.SIM_TOKEN ?? DEFAULT_SIM_TOKEN,
    cluster: { storages: [...demoCluster().storages, { storage: DEMO_SNIPPETS_STORAGE, type: 'dir', shared: true, content: 'snippets', snippetsDir, totalGiB: 1 }] },
  });
  const images = await startImageServer({ port: Number(process.env.SIM_IMAGES_PORT ?? DEFAULT_SIM_IMAGES_PORT) });
  const listening = await simulator.listen(Number(process.env.SIM_PORT ?? 8006), '127.0.0.1');
  return { close: () => Promise.all([listening.close(), images.close()]) };
}

if (require.main === module) {
  runUntilSignalled(startDemoSimulator(), (running) => running.close(), 5_000);
}
