/**
 * Phase backups: what the control plane adds to a backup and to a restore over the Proxmox tasks
 * themselves. vzdump and qmrestore take as long as `--backup-task-ms` (the stop, start and config
 * writes of a restore 100 ms), the worker polls at the production interval. For each of
 * `--backups` servers, one after another: POST /v1/instances/{id}/backups → the operation
 * workflow's result, then POST /v1/backups/{id}/restore → its result; each time minus the summed
 * durations of the Proxmox tasks started in between is the control plane's share.
 */
import { performance } from 'node:perf_hooks';
import type { Client as TemporalClient } from '@temporalio/client';
import type { PvecpClient } from '../../clients/typescript/index';
import type { Simulator } from '../../src/simulator/server';
import { operationWorkflowId } from '../../src/temporal/workflow-ids';
import type { Options } from '../options';
import type { Catalog, SimTiming } from '../stack';
import { round, spread, type Spread } from '../stats';
import { provisionOnce } from './alone';
import { tasksBetween } from './realistic';

export function backupTiming(taskMs: number): SimTiming {
  return { taskMs: 100, taskMsByType: { vzdump: taskMs, qmrestore: taskMs } };
}

export interface OperationRun {
  endToEndMs: number;
  taskSumMs: number;
  tasks: Record<string, number>;
  /** endToEndMs − taskSumMs. */
  addedMs: number;
}

export interface BackupsResult {
  timing: SimTiming;
  backups: OperationRun[];
  restores: OperationRun[];
  backupAdded: Spread;
  restoreAdded: Spread;
}

/** One operation from its POST until its workflow's result; throws unless it ended as `expected`. */
async function timed(
  temporal: TemporalClient,
  simulator: Simulator,
  instanceId: string,
  operation: 'backup' | 'restore',
  post: () => Promise<{ status: number; taskId?: string | null }>,
): Promise<OperationRun> {
  const sentAt = performance.now();
  const answer = await post();
  if (answer.status !== 202 || !answer.taskId) throw new Error(`${operation} of ${instanceId} refused: ${answer.status}`);
  const result = (await temporal.workflow.getHandle(operationWorkflowId(operation, instanceId, answer.taskId)).result()) as { status: string; failureCode?: string };
  const endToEndMs = performance.now() - sentAt;
  if (result.failureCode) throw new Error(`${operation} of ${instanceId} failed: ${result.failureCode}`);
  const from = performance.timeOrigin + sentAt;
  const { taskSumMs, tasks } = tasksBetween(simulator, from, from + endToEndMs);
  return { endToEndMs: round(endToEndMs), taskSumMs, tasks, addedMs: round(endToEndMs - taskSumMs) };
}

export async function measureBackups(
  client: PvecpClient,
  temporal: TemporalClient,
  simulator: Simulator,
  catalog: Catalog,
  options: Options,
  log: (line: string) => void,
): Promise<BackupsResult> {
  const timing = backupTiming(options.backupTaskMs);
  log(`backups: ${options.backups} servers, each backed up then restored, tasks ${JSON.stringify(timing)}, production task polling`);
  const backups: OperationRun[] = [];
  const restores: OperationRun[] = [];
  for (let i = 0; i < options.backups; i++) {
    const { id } = await provisionOnce(client, temporal, catalog, `backup-${i}`, options.timeoutS);
    let backupId = '';
    backups.push(
      await timed(temporal, simulator, id, 'backup', async () => {
        const { data, response } = await client.POST('/v1/instances/{id}/backups', { params: { path: { id } }, body: {} });
        backupId = data?.data.id ?? '';
        return { status: response.status, taskId: data?.meta.taskId };
      }),
    );
    restores.push(
      await timed(temporal, simulator, id, 'restore', async () => {
        const { data, response } = await client.POST('/v1/backups/{id}/restore', { params: { path: { id: backupId } } });
        return { status: response.status, taskId: data?.meta.taskId };
      }),
    );
  }
  return { timing, backups, restores, backupAdded: spread(backups.map((r) => r.addedMs)), restoreAdded: spread(restores.map((r) => r.addedMs)) };
}
