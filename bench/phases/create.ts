/**
 * Phase (a), the create API alone: POST /v1/instances from `concurrency` clients against an API
 * whose workflows no worker serves (validation, the reservation transaction, the workflow start).
 * Its workflows stay queued and are discarded with the dev server.
 */
import { performance } from 'node:perf_hooks';
import type { PvecpClient } from '../../clients/typescript/index';
import { createServer, refusals } from '../instances';
import type { Options } from '../options';
import type { Catalog } from '../stack';
import { cpuMeter, postgresPids, round, runClients, spread, type Spread } from '../stats';

export interface CreateApiResult {
  requests: number;
  concurrency: number;
  accepted: number;
  refused: Record<string, number>;
  latency: Spread;
  perS: number;
  /**
   * CPU milliseconds per create (warm-up left out) of each side: the API processes (absent when
   * the API runs in the bench process, whose figure then holds it), PostgreSQL, Temporal, and
   * the bench process (the clients).
   */
  cpuMsPerCreate: Record<string, number>;
}

/** The processes whose CPU a create is charged to. */
export interface CreateSides {
  apiPids: number[];
  temporalPids: () => number[];
}

export async function measureCreateApi(clients: PvecpClient[], catalog: Catalog, options: Options, sides: CreateSides, log: (line: string) => void): Promise<CreateApiResult> {
  const client = (c: number) => clients[c] as PvecpClient;
  log(`(a) warming up, then ${options.creates} creates from ${options.concurrency} clients (no worker)`);
  await runClients(options.concurrency, options.concurrency, (i, c) => createServer(client(c), catalog, `warm-${i}`));
  const meter = cpuMeter({ ...(sides.apiPids.length ? { api: () => sides.apiPids } : {}), postgres: postgresPids, temporal: sides.temporalPids });
  const started = performance.now();
  const answers = await runClients(options.creates, options.concurrency, (i, c) => createServer(client(c), catalog, `lat-${i}`));
  const seconds = (performance.now() - started) / 1000;
  const cpuMs = meter();
  return {
    requests: options.creates,
    concurrency: options.concurrency,
    accepted: answers.filter((a) => a.status === 202).length,
    refused: refusals(answers),
    latency: spread(answers.map((a) => a.ms)),
    perS: round(options.creates / seconds),
    cpuMsPerCreate: Object.fromEntries(Object.entries(cpuMs).map(([side, ms]) => [side, round(ms / options.creates, 2)])),
  };
}
