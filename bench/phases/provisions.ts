/**
 * Phase (b), provisions per second: `provisions` creates from `concurrency` clients with the
 * worker serving them, timed from the first request until every server is `running`.
 */
import { performance } from 'node:perf_hooks';
import type { PvecpClient } from '../../clients/typescript/index';
import type { Db } from '../../src/db/client';
import { accepted, createServer, waitUntilSettled } from '../instances';
import type { Options } from '../options';
import type { Catalog } from '../stack';
import { round, runClients, spread, type Spread } from '../stats';

export interface ProvisionsResult {
  instances: number;
  running: number;
  failed: number;
  wallS: number;
  perS: number;
  /** POST /v1/instances while the worker is busy. */
  createLatency: Spread;
  /** Each server's task, created → finished (from the database). */
  provision: Spread;
}

export async function measureProvisions(db: Db, clients: PvecpClient[], catalog: Catalog, options: Options, log: (line: string) => void): Promise<ProvisionsResult> {
  log(`(b) ${options.provisions} creates from ${options.concurrency} clients, until all are running`);
  const started = performance.now();
  const answers = await runClients(options.provisions, options.concurrency, (i, c) => createServer(clients[c] as PvecpClient, catalog, `e2e-${i}`));
  const ids = accepted(answers);
  const settled = await waitUntilSettled(db, ids, Date.now() + options.timeoutS * 1000, log);
  const seconds = (performance.now() - started) / 1000;
  const tasks = await db.task.findMany({ where: { instanceId: { in: ids }, type: 'INSTANCE_CREATE', status: 'succeeded' }, select: { createdAt: true, finishedAt: true } });
  return {
    instances: options.provisions,
    running: settled.running,
    failed: settled.failed + (options.provisions - ids.length),
    wallS: round(seconds, 2),
    perS: round(settled.running / seconds, 2),
    createLatency: spread(answers.map((a) => a.ms)),
    provision: spread(tasks.flatMap((t) => (t.finishedAt ? [t.finishedAt.getTime() - t.createdAt.getTime()] : []))),
  };
}
