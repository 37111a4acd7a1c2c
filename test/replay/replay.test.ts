import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { replayFiles } from '../../scripts/replay';
import { retryRollbackSignal } from '../../src/workflows/definitions';
import { startStack } from '../support/stack';

/**
 * Workflow histories recorded from real runs, replayed against today's workflow code: a change
 * that would break workflows already running in production fails here.
 *
 * To record them again (after an intentional, versioned change):
 *   RECORD_HISTORIES=1 npx vitest run test/replay
 * or only some of them: RECORD_HISTORIES=provision-parks-then-updates npx vitest run test/replay
 */
const historiesDir = path.join(__dirname, 'histories');

if (process.env.RECORD_HISTORIES) {
  describe('recording histories', () => {
    const wanted = (name: string) => process.env.RECORD_HISTORIES === '1' || process.env.RECORD_HISTORIES!.split(',').includes(name);
    it('records a successful provision, a rollback, and parked rollbacks retried by an operator (signal, update)', async () => {
      const stack = await startStack({ env: { STAGE_TIMEOUT_SCALE: '0.02' } });
      try {
        // The same JSON an operator gets from `temporal workflow show --output json`.
        const record = async (name: string, instanceId: string) => {
          const cli = path.resolve(__dirname, '..', '..', '.tools', 'bin', 'temporal');
          const args = ['workflow', 'show', '--address', inject('temporalAddress'), '--workflow-id', `provision-${instanceId}`, '--output', 'json'];
          const { stdout } = await promisify(execFile)(cli, args, { maxBuffer: 16 * 1024 * 1024 });
          fs.writeFileSync(path.join(historiesDir, `${name}.json`), stdout);
        };
        if (wanted('provision-succeeds')) {
          const ok = (await stack.create({ hostname: 'replay-ok' })).body.data.id;
          await stack.waitForStatus(ok, ['running']);
          await record('provision-succeeds', ok);
        }

        if (wanted('provision-rolls-back')) {
          await stack.sim.fault({ op: 'start', mode: 'task_fail' });
          const rolledBack = (await stack.create({ hostname: 'replay-rollback' })).body.data.id;
          await stack.waitForStatus(rolledBack, ['failed']);
          await record('provision-rolls-back', rolledBack);
        }

        // Earlier versions took the operator's decision as a signal, today's as an update.
        const parkThenRetry = async (name: string, retry: (id: string) => Promise<unknown>) => {
          if (!wanted(name)) return;
          await stack.sim.fault({ op: 'start', mode: 'task_fail' });
          await stack.sim.fault({ op: 'destroy', mode: 'http500', count: 10_000 });
          const parked = (await stack.create({ hostname: 'replay-parked' })).body.data.id;
          await stack.waitForStatus(parked, ['rollback_failed']);
          await stack.sim.clearFaults();
          await retry(parked);
          await stack.waitForStatus(parked, ['failed']);
          await record(name, parked);
        };
        await parkThenRetry('provision-parks-then-retries', (id) => stack.api.temporal.workflow.getHandle(`provision-${id}`).signal(retryRollbackSignal));
        await parkThenRetry('provision-parks-then-updates', (id) => stack.api.request('POST', `/v1/admin/instances/${id}/rollback/retry`, { token: stack.api.adminToken }));
      } finally {
        await stack.close();
      }
    }, 120_000);
  });
}

describe('recorded workflow histories', () => {
  const files = fs.readdirSync(historiesDir).filter((file) => file.endsWith('.json'));

  it('has histories for success, rollback and a parked rollback retried by signal and by update', () => {
    expect(files.sort()).toEqual(['provision-parks-then-retries.json', 'provision-parks-then-updates.json', 'provision-rolls-back.json', 'provision-succeeds.json']);
  });

  const replay = (file: string) => replayFiles([file], inject('workflowBundlePath'));

  it.each(files)('replays %s against the current workflow code without nondeterminism', async (file) => {
    expect(await replay(path.join(historiesDir, file))).toEqual([{ file: path.join(historiesDir, file) }]);
  });

  it('notices a history that the current code cannot replay', async () => {
    const history = JSON.parse(fs.readFileSync(path.join(historiesDir, 'provision-succeeds.json'), 'utf8'));
    // Pretend the recorded run scheduled a different first activity than today's code does.
    const scheduled = history.events.find((e: any) => e.activityTaskScheduledEventAttributes);
    scheduled.activityTaskScheduledEventAttributes.activityType.name = 'someOtherActivity';
    const tampered = path.join(os.tmpdir(), `tampered-${process.pid}.json`);
    fs.writeFileSync(tampered, JSON.stringify(history));
    try {
      const [result] = await replay(tampered);
      expect(result?.error).toMatch(/Nondeterminism|DeterminismViolation/i);
    } finally {
      fs.rmSync(tampered, { force: true });
    }
  });
});
