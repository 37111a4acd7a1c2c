import { countTokenRequest, type LimitedAction } from '../db/rate-limits';
import type { ServiceDeps } from './deps';

export type { LimitedAction } from '../db/rate-limits';

/** Counts one request of a token as `action`; past the token's per-minute limit it is refused with 429 RATE_LIMITED. */
export function countRequest(deps: Pick<ServiceDeps, 'db' | 'config'>, tokenId: string, action: LimitedAction): Promise<void> {
  return countTokenRequest(deps.db, deps.config, tokenId, action);
}
