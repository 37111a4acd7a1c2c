import { pingDatabase } from '../db/client';
import { pingTemporal } from '../temporal/connection';
import type { ServiceDeps } from './deps';

export type CheckResult = 'ok' | 'failed' | 'timeout';

async function probe(check: () => Promise<unknown>, timeoutMs: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    return await Promise.race([check().then((): CheckResult => 'ok', (): CheckResult => 'failed'), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether PostgreSQL and Temporal answer, each within `timeoutMs`; a failed check is logged. */
export async function checkReadiness(deps: Pick<ServiceDeps, 'db' | 'temporal' | 'logger'>, timeoutMs: number): Promise<{ database: CheckResult; temporal: CheckResult }> {
  const [database, temporal] = await Promise.all([probe(() => pingDatabase(deps.db), timeoutMs), probe(() => pingTemporal(deps.temporal), timeoutMs)]);
  if (database !== 'ok' || temporal !== 'ok') deps.logger.warn({ database, temporal }, 'readiness check failed');
  return { database, temporal };
}
