/**
 * Phase alone: one provision at a time with zero-latency Proxmox tasks, POST /v1/instances →
 * `running`: timed to the provisioning workflow's result (a Temporal client handle, so nothing
 * polls the API meanwhile and adds load), then one GET must show the server `running`: the
 * workflow ends only after finalize committed that status, so a client sees it at that moment.
 */
import { performance } from 'node:perf_hooks';
import type { Client as TemporalClient } from '@temporalio/client';
import type { PvecpClient } from '../../clients/typescript/index';
import { provisionWorkflowId } from '../../src/temporal/workflow-ids';
import { historyBreakdown, meanBreakdown, type HistoryBreakdown } from '../history-breakdown';
import { createServer } from '../instances';
import type { Options } from '../options';
import type { Catalog } from '../stack';
import { spread, type Spread } from '../stats';

export interface AloneResult {
  provisions: number;
  /** POST → the workflow's result, the API then answering `running`. */
  running: Spread;
  /** Where the provisioning workflow's time went (its history), the mean of the runs. */
  breakdown: HistoryBreakdown | null;
}

/** One provision: milliseconds from POST until it is `running`; throws on a failed provision or at the deadline. */
export async function provisionOnce(client: PvecpClient, temporal: TemporalClient, catalog: Catalog, hostname: string, timeoutS: number) {
  const answer = await createServer(client, catalog, hostname);
  if (answer.status !== 202 || !answer.id) throw new Error(`create refused: ${answer.status} ${answer.errorCode ?? ''}`);
  const id = answer.id;
  const deadline = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`provision ${id} not running within ${timeoutS} s`)), timeoutS * 1000).unref());
  const result = await Promise.race([temporal.workflow.getHandle(provisionWorkflowId(id)).result() as Promise<{ status: string }>, deadline]);
  const runningMs = performance.now() - answer.sentAt;
  if (result.status !== 'running') throw new Error(`provision ${id} ended ${result.status}`);
  const { data } = await client.GET('/v1/instances/{id}', { params: { path: { id } } });
  if (data?.data.status !== 'running') throw new Error(`provision ${id}: the workflow ended but the API shows ${String(data?.data.status)}`);
  return { id, sentAt: answer.sentAt, runningMs };
}

export async function measureAlone(client: PvecpClient, temporal: TemporalClient, catalog: Catalog, options: Options, log: (line: string) => void): Promise<AloneResult> {
  log(`alone: one warm-up, then ${options.alone} provisions one at a time (tasks 0 ms)`);
  await provisionOnce(client, temporal, catalog, 'alone-warm', options.timeoutS);
  const runs = [];
  for (let i = 0; i < options.alone; i++) runs.push(await provisionOnce(client, temporal, catalog, `alone-${i}`, options.timeoutS));
  const breakdowns = await Promise.all(runs.map((run) => historyBreakdown(temporal, provisionWorkflowId(run.id))));
  return { provisions: runs.length, running: spread(runs.map((r) => r.runningMs)), breakdown: meanBreakdown(breakdowns) };
}
