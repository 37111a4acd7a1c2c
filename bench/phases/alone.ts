/**
 * Phase alone: one provision at a time with zero-latency Proxmox tasks, POST /v1/instances →
 * `running`, seen two ways at once: a client polling GET /v1/instances/{id} every 5 ms, and the
 * provisioning workflow's result through a Temporal client handle.
 */
import { performance } from 'node:perf_hooks';
import type { Client as TemporalClient } from '@temporalio/client';
import type { PvecpClient } from '../../clients/typescript/index';
import { provisionWorkflowId } from '../../src/workflows/definitions';
import { createServer } from '../instances';
import type { Options } from '../options';
import type { Catalog } from '../stack';
import { sleep, spread, type Spread } from '../stats';

const POLL_EVERY_MS = 5;

export interface AloneResult {
  provisions: number;
  /** POST → the API answers status `running`. */
  polled: Spread;
  /** POST → the workflow's result. */
  workflowResult: Spread;
}

/** Milliseconds from `sentAt` until GET /v1/instances/{id} shows `running`; throws on a failed provision or at the deadline. */
async function pollUntilRunning(client: PvecpClient, id: string, sentAt: number, deadline: number): Promise<number> {
  for (;;) {
    const { data } = await client.GET('/v1/instances/{id}', { params: { path: { id } } });
    const status = data?.data.status;
    if (status === 'running') return performance.now() - sentAt;
    if (status === 'failed' || status === 'rollback_failed') throw new Error(`provision ${id} ended ${status}`);
    if (Date.now() > deadline) throw new Error(`provision ${id} not running in time (${String(status)})`);
    await sleep(POLL_EVERY_MS);
  }
}

/** One provision, POST → running; both ways of seeing it, in milliseconds. */
export async function provisionOnce(client: PvecpClient, temporal: TemporalClient, catalog: Catalog, hostname: string, timeoutS: number) {
  const answer = await createServer(client, catalog, hostname);
  if (answer.status !== 202 || !answer.id) throw new Error(`create refused: ${answer.status} ${answer.errorCode ?? ''}`);
  const id = answer.id;
  const byResult = temporal.workflow
    .getHandle(provisionWorkflowId(id))
    .result()
    .then((result: { status: string }) => {
      if (result.status !== 'running') throw new Error(`provision ${id} ended ${result.status}`);
      return performance.now() - answer.sentAt;
    });
  const [polled, workflowResult] = await Promise.all([pollUntilRunning(client, id, answer.sentAt, Date.now() + timeoutS * 1000), byResult]);
  return { id, sentAt: answer.sentAt, polled, workflowResult };
}

export async function measureAlone(client: PvecpClient, temporal: TemporalClient, catalog: Catalog, options: Options, log: (line: string) => void): Promise<AloneResult> {
  log(`alone: one warm-up, then ${options.alone} provisions one at a time (tasks 0 ms)`);
  await provisionOnce(client, temporal, catalog, 'alone-warm', options.timeoutS);
  const runs = [];
  for (let i = 0; i < options.alone; i++) runs.push(await provisionOnce(client, temporal, catalog, `alone-${i}`, options.timeoutS));
  return { provisions: runs.length, polled: spread(runs.map((r) => r.polled)), workflowResult: spread(runs.map((r) => r.workflowResult)) };
}
