import { expect } from 'vitest';
import type { ScheduledBackupOutcome } from '../../src/activities/backup-schedules';
import { backupScheduleId } from '../../src/temporal/workflow-ids';
import { taskEnd } from './lifecycle';
import type { Stack } from './stack';

/** One run of a server's backup schedule: when it was due, its workflow, and what it made. */
export interface ScheduleRun {
  dueAt: Date;
  workflowId: string;
  outcome: ScheduledBackupOutcome;
}

const scheduleOf = (stack: Stack, instanceId: string) => stack.api.temporal.schedule.getHandle(backupScheduleId(instanceId));

const startedRuns = async (stack: Stack, instanceId: string) => (await scheduleOf(stack, instanceId).describe()).info.recentActions;

/**
 * Waits for `count` runs of the schedule beyond those `before` names, oldest due first, and for
 * each to end (and the backup it asked for, so the next run finds the server free); then a moment
 * more, so a run beyond them would show.
 */
async function awaitRuns(stack: Stack, instanceId: string, before: Set<string>, count: number): Promise<ScheduleRun[]> {
  const fresh = async () => (await startedRuns(stack, instanceId)).filter((run) => !before.has(run.action.workflow.workflowId));
  const runs: ScheduleRun[] = [];
  for (let seen = 0; seen < count; seen++) {
    let next: Awaited<ReturnType<typeof fresh>>[number] | undefined;
    await expect.poll(async () => (next = (await fresh())[seen]), { timeout: 30_000, interval: 50 }).toBeDefined();
    const { workflowId } = next!.action.workflow;
    const outcome = await stack.api.temporal.workflow.getHandle<() => Promise<ScheduledBackupOutcome>>(workflowId).result();
    if (outcome.backupId) {
      const backup = await stack.api.db.backup.findUniqueOrThrow({ where: { id: outcome.backupId } });
      expect((await taskEnd(stack, backup.taskId!)).status).toBe('succeeded');
    }
    runs.push({ dueAt: next!.scheduledAt, workflowId, outcome });
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(await fresh()).toHaveLength(count);
  return runs;
}

/** Fires the schedule now, as Temporal's trigger does, and answers the run once it and its backup ended. */
export async function triggerRun(stack: Stack, instanceId: string): Promise<ScheduleRun> {
  const before = new Set((await startedRuns(stack, instanceId)).map((run) => run.action.workflow.workflowId));
  await scheduleOf(stack, instanceId).trigger();
  const [run] = await awaitRuns(stack, instanceId, before, 1);
  return run!;
}

/**
 * Runs the schedule for the times its spec names from `start` to `end`, as Temporal's backfill
 * does (one at a time, in the order they were due), and answers the `count` runs once they ended.
 */
export async function backfillRuns(stack: Stack, instanceId: string, start: Date, end: Date, count: number): Promise<ScheduleRun[]> {
  const before = new Set((await startedRuns(stack, instanceId)).map((run) => run.action.workflow.workflowId));
  await scheduleOf(stack, instanceId).backfill([{ start, end, overlap: 'BUFFER_ALL' }]);
  return awaitRuns(stack, instanceId, before, count);
}
