import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ProxmoxClient } from '../../src/proxmox';
import { DEFAULT_SIM_TOKEN, parseToken } from '../../src/simulator/server';
import { runningServer } from '../support/lifecycle';
import { spawnAppProcess, type AppProcess } from '../support/processes';
import { startStack, type Stack } from '../support/stack';

const INTERVAL_SECONDS = 10;
const RESOURCES_CALL = 'GET /cluster/resources';

/**
 * The reconcile schedule skips a run while one is going: a pass whose worker died must be taken up
 * again soon (its activities heartbeat), or no pass at all would run until its attempts time out.
 */
describe('a worker killed in the middle of a reconcile pass', () => {
  let stack: Stack;
  const workers: AppProcess[] = [];
  const spawnWorker = async () => {
    const worker = spawnAppProcess('worker', stack.api.config, { LOG_LEVEL: 'info' });
    workers.push(worker);
    await worker.logLine('worker started');
    return worker;
  };
  beforeAll(async () => {
    stack = await startStack({ worker: false, env: { RECONCILE_INTERVAL_SECONDS: String(INTERVAL_SECONDS) } });
  });
  afterEach(async () => {
    for (const worker of workers.splice(0)) await worker.kill();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('does not blind the reconciler: a guest deleted behind our back is still noticed within two reconcile intervals', { timeout: 180_000 }, async () => {
    const first = await spawnWorker();
    const id = await runningServer(stack, { hostname: 'drifts-while-killed' }, 90_000);
    const { node, vmid } = await stack.api.db.instance.findUniqueOrThrow({ where: { id } });
    const { tokenId, secret } = parseToken(DEFAULT_SIM_TOKEN);
    const outside = new ProxmoxClient({ baseUrl: stack.sim.url, tokenId, tokenSecret: secret, plaintextLab: true });
    try {
      // The next pass's cluster listing answers slowly, so the pass is still in its activity when its worker dies.
      await stack.sim.fault({ op: 'any', call: RESOURCES_CALL, mode: 'delay', delayMs: 5_000 });
      const listings = async () => (await stack.sim.state()).calls[RESOURCES_CALL] ?? 0;
      const before = await listings();
      await expect.poll(listings, { timeout: 3 * INTERVAL_SECONDS * 1000, interval: 100 }).toBeGreaterThan(before);
      await outside.tasks.wait(await outside.guests.stop(node as string, vmid as number));
      await outside.tasks.wait(await outside.guests.delete(node as string, vmid as number));

      await first.kill();
      const killedAt = Date.now();
      await spawnWorker();
      await stack.waitForStatus(id, ['lost'], 2 * INTERVAL_SECONDS * 1000);
      expect(Date.now() - killedAt).toBeLessThan(2 * INTERVAL_SECONDS * 1000);
    } finally {
      outside.close();
      await stack.sim.clearFaults();
    }
  });
});
