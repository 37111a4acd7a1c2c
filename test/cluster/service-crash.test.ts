import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ClusterService, RunningTemporalCluster } from '../../scripts/temporal-cluster';
import { guestsOf, startStack, type Stack } from '../support/stack';
import { startOwnTemporalCluster } from '../support/temporal';

const CLONE_CALL = 'POST /nodes/{node}/qemu/{vmid}/clone';
const START_CALL = 'POST /nodes/{node}/qemu/{vmid}/status/start';

/**
 * Temporal's own services die like crashed processes (SIGKILL) while a provision waits on its
 * clone, and come back: the provision finishes as if nothing happened. The cluster is this
 * file's own (four processes on PostgreSQL), so killing its services touches no other test.
 */
describe('a provision on the Temporal cluster when a Temporal service is killed mid-run', () => {
  let cluster: RunningTemporalCluster;
  let stack: Stack;
  beforeAll(async () => {
    cluster = await startOwnTemporalCluster(`${inject('runId')}_crash`, inject('adminDatabaseUrl'));
    stack = await startStack({ env: { TEMPORAL_ADDRESS: cluster.address } });
  }, 180_000);
  afterEach(async () => {
    await stack.sim.options({ taskMs: 20, taskMsByType: {} });
  });
  afterAll(async () => {
    await stack?.close();
    await cluster?.stop();
  });

  const calls = async (call: string) => (await stack.sim.state()).calls[call] ?? 0;

  it.each<ClusterService>(['history', 'matching'])('finishes once when the %s service is killed during the clone', { timeout: 120_000 }, async (service) => {
    await stack.sim.options({ taskMsByType: { qmclone: 3000 } });
    const before = { clones: await calls(CLONE_CALL), starts: await calls(START_CALL) };
    const id = (await stack.create({ hostname: `crash-${service}` })).body.data.id as string;
    // The clone was issued and its UPID recorded: the workflow is waiting on its activity.
    await expect
      .poll(async () => (await stack.api.db.providerCall.findFirst({ where: { instanceId: id, kind: 'clone' } }))?.upid ?? null, { timeout: 60_000, interval: 50 })
      .toMatch(/^UPID:/);

    await cluster.kill(service);
    await cluster.restart(service);

    const finished = await stack.waitForStatus(id, ['running', 'failed', 'rollback_failed'], 100_000);
    expect(finished.status).toBe('running');
    const state = await stack.sim.state();
    expect(state.calls[CLONE_CALL]).toBe(before.clones + 1);
    expect(state.calls[START_CALL]).toBe(before.starts + 1);
    // One guest, ours and running: nothing left behind, nothing made twice.
    expect(guestsOf(state, id)).toEqual([expect.objectContaining({ status: 'running' })]);
    expect(state.guests.filter((guest) => guest.name === `crash-${service}`)).toHaveLength(1);
    expect(await stack.api.db.auditEvent.count({ where: { instanceId: id, action: 'instance.ready' } })).toBe(1);
    expect(await stack.api.db.auditEvent.count({ where: { instanceId: id, action: 'instance.failed' } })).toBe(0);
  });
});
