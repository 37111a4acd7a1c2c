import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionWorkflowId } from '../../src/temporal/workflow-ids';
import { guestsOf, startStack, type Stack } from '../support/stack';

/**
 * Activities waiting on Proxmox tasks of one node share that node's task watcher, whose ticks run
 * on a timer none of them owns. Each wait must still heartbeat its own activity: clones that
 * outlast the clone stage's heartbeat timeout several times over never time out an attempt.
 */
const SCALE = 0.2; // the clone stage's heartbeat timeout becomes 6 s
const CLONE_MS = 15_000;
const COUNT = 6;
const CLONE_CALL = 'POST /nodes/{node}/qemu/{vmid}/clone';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ taskMs: 0, env: { STAGE_TIMEOUT_SCALE: String(SCALE), TASK_POLL_INTERVAL_MS: '500' } });
  await stack.api.db.node.updateMany({ where: { name: { not: 'pve1' } }, data: { enabled: false } });
  await fetch(`${stack.sim.url}/_sim/options`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ taskMsByType: { qmclone: CLONE_MS } }) });
});
afterAll(async () => {
  await stack?.close();
});

describe('waiting on long tasks together', () => {
  it('heartbeats every waiting activity: no attempt times out, every clone is issued once', async () => {
    const answers = await Promise.all(Array.from({ length: COUNT }, (_, i) => stack.create({ hostname: `long-${i}` })));
    const ids = answers.map((a) => a.body.data.id as string);
    const ended = await Promise.all(ids.map((id) => stack.waitForStatus(id, ['running', 'failed', 'rollback_failed'], 90_000)));
    expect(ended.map((e) => e?.status)).toEqual(Array(COUNT).fill('running'));

    for (const id of ids) {
      const history = await stack.api.temporal.workflow.getHandle(provisionWorkflowId(id)).fetchHistory();
      const attempts = (history.events ?? []).flatMap((e) => (e.activityTaskStartedEventAttributes ? [e.activityTaskStartedEventAttributes.attempt ?? 1] : []));
      expect(attempts.length).toBeGreaterThanOrEqual(7);
      expect(attempts.every((attempt) => attempt === 1), `${id}: attempts ${attempts.join(',')}`).toBe(true);
    }
    const state = await stack.sim.state();
    expect(state.calls[CLONE_CALL]).toBe(COUNT);
    for (const id of ids) expect(guestsOf(state, id)).toHaveLength(1);
  }, 120_000);
});
