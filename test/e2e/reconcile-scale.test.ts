import { describe, expect, it } from 'vitest';
import { ProxmoxClient } from '../../src/proxmox';
import { DEFAULT_SIM_TOKEN, parseToken } from '../../src/simulator/server';
import { BUDGETS } from '../../src/workflows/activity-options';
import type { Reconcile } from '../../src/workflows/reconcile';
import { readInstance, runningServer, suiteStack } from '../support/lifecycle';

const GUESTS = 30_000;

/** One reconcile pass reads the whole cluster in one /cluster/resources?type=vm listing, however many guests it has. */
describe('reconciling a large cluster', () => {
  // The schedule stays out of the way: the test runs the pass itself.
  const stack = suiteStack({ env: { RECONCILE_INTERVAL_SECONDS: '3600' } });

  it(`reads ${GUESTS} guests and reconciles them within the reconcile pass's own budget`, { timeout: 240_000 }, async () => {
    const id = await runningServer(stack, { hostname: 'among-many' }, 60_000);
    const seeded = await fetch(`${stack.sim.url}/_sim/guests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: GUESTS, firstVmid: 100_000, status: 'running' }),
    });
    expect(seeded.status).toBe(201);
    // Among them, one of ours was powered off outside: the pass has something to find.
    const { node, vmid } = await stack.api.db.instance.findUniqueOrThrow({ where: { id } });
    const { tokenId, secret } = parseToken(DEFAULT_SIM_TOKEN);
    const outside = new ProxmoxClient({ baseUrl: stack.sim.url, tokenId, tokenSecret: secret, plaintextLab: true });
    await outside.tasks.wait(await outside.guests.stop(node as string, vmid as number));
    outside.close();

    const started = Date.now();
    const summary = await stack.api.temporal.workflow.execute<typeof Reconcile>('Reconcile', {
      taskQueue: stack.api.config.TEMPORAL_TASK_QUEUE,
      workflowId: `reconcile-scale-${stack.seed.connectionId}`,
      args: [{ connectionId: stack.seed.connectionId }],
    });
    const elapsedMs = Date.now() - started;

    expect(summary.guests).toMatchObject({ changedOutside: 1, migratedOutside: 0, undecided: 0, lost: 0, orphansFound: 0 });
    expect(elapsedMs).toBeLessThan(BUDGETS.reconcilePass.attempt * 1000);
    expect((await readInstance(stack, id)).status).toBe('stopped');
  });
});
