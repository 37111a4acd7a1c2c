import { ScheduleAlreadyRunning, type Client, type ScheduleOptionsStartWorkflowAction, type ScheduleSpec } from '@temporalio/client';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Reconcile } from '../workflows/reconcile';
import { reconcileScheduleId } from './workflow-ids';

type ScheduleConfig = Pick<Config, 'RECONCILE_INTERVAL_SECONDS' | 'TEMPORAL_TASK_QUEUE'>;

/**
 * Creates the Temporal Schedule that runs Reconcile for a connection, or brings an existing one to
 * the current settings (interval, task queue) while keeping its state: a schedule an operator
 * paused stays paused. Overlap SKIP: a run still going when the next is due makes that one skip.
 */
export async function upsertReconcileSchedule(client: Client, config: ScheduleConfig, connectionId: string): Promise<'created' | 'updated'> {
  const scheduleId = reconcileScheduleId(connectionId);
  const spec: ScheduleSpec = { intervals: [{ every: `${config.RECONCILE_INTERVAL_SECONDS}s` }] };
  const action: ScheduleOptionsStartWorkflowAction<typeof Reconcile> = {
    type: 'startWorkflow',
    workflowType: 'Reconcile',
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    args: [{ connectionId }],
    // A run that no worker picks up must not hold the schedule (overlap SKIP) for ever.
    workflowRunTimeout: `${Math.max(300, config.RECONCILE_INTERVAL_SECONDS * 10)}s`,
  };
  try {
    await client.schedule.create({
      scheduleId,
      spec,
      action,
      policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
      state: { note: `Reconciles Proxmox connection ${connectionId} with the database.` },
    });
    return 'created';
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  }
  await client.schedule.getHandle(scheduleId).update((previous) => ({ ...previous, spec, action, policies: { ...previous.policies, overlap: 'SKIP' } }));
  return 'updated';
}

/** A schedule for every connection (at worker start: connections added while no worker ran get theirs too). */
export async function upsertReconcileSchedules(client: Client, db: Db, config: ScheduleConfig): Promise<number> {
  const connections = await db.proxmoxConnection.findMany({ select: { id: true } });
  for (const { id } of connections) await upsertReconcileSchedule(client, config, id);
  return connections.length;
}
