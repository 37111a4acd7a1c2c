/** Creating servers through the API as a client does, and waiting for them to settle. */
import { performance } from 'node:perf_hooks';
import { createClient, type PvecpClient } from '../clients/typescript/index';
import type { Db } from '../src/db/client';
import type { Catalog } from './stack';
import { sleep } from './stats';

/** One create as a client saw it. */
export interface CreateAnswer {
  status: number;
  id?: string;
  errorCode?: string;
  /** performance.now() when the request was sent. */
  sentAt: number;
  ms: number;
}

/**
 * The customers' clients (the typed client, as integrations use it): client `c` is customer
 * `c` on API `c mod apis`, so clients spread round-robin over the APIs.
 */
export function customerClients(catalog: Catalog, apiUrls: string[]): PvecpClient[] {
  return catalog.customerTokens.map((token, c) => createClient({ baseUrl: apiUrls[c % apiUrls.length] as string, token }));
}

export async function createServer(client: PvecpClient, catalog: Catalog, hostname: string): Promise<CreateAnswer> {
  const sentAt = performance.now();
  const { data, error, response } = await client.POST('/v1/instances', { body: { ...catalog.order, hostname } });
  return { status: response.status, id: data?.data.id, errorCode: error?.error.code, sentAt, ms: performance.now() - sentAt };
}

export const accepted = (answers: CreateAnswer[]) => answers.flatMap((a) => (a.status === 202 && a.id ? [a.id] : []));

/** Refusals by "<status> <code>". */
export function refusals(answers: CreateAnswer[]): Record<string, number> {
  const refused: Record<string, number> = {};
  for (const answer of answers.filter((a) => a.status !== 202)) {
    const key = `${answer.status} ${answer.errorCode ?? ''}`.trim();
    refused[key] = (refused[key] ?? 0) + 1;
  }
  return refused;
}

/** Polls the database every 100 ms until every instance is running or failed, or the deadline passes. */
export async function waitUntilSettled(db: Db, ids: string[], deadline: number, log: (line: string) => void): Promise<{ running: number; failed: number }> {
  for (;;) {
    const groups = await db.instance.groupBy({ by: ['status'], where: { id: { in: ids } }, _count: { _all: true } });
    const count = (status: string) => groups.find((g) => g.status === status)?._count._all ?? 0;
    const settled = { running: count('running'), failed: count('failed') + count('rollback_failed') };
    if (settled.running + settled.failed >= ids.length) return settled;
    if (Date.now() > deadline) {
      log(`gave up waiting: ${JSON.stringify(Object.fromEntries(groups.map((g) => [g.status, g._count._all])))}`);
      return settled;
    }
    await sleep(100);
  }
}
