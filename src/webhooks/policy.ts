import type { Config } from '../config';

export interface TargetPolicy {
  /** Plain `http` is allowed (outside production). */
  allowHttp: boolean;
  /** Loopback, link-local and private addresses are allowed. */
  allowPrivate: boolean;
}

/** Where webhooks may point under these settings: https only in production; private addresses only when an admin allows them. */
export function webhookTargetPolicy(config: Pick<Config, 'NODE_ENV' | 'WEBHOOK_ALLOW_PRIVATE_TARGETS'>): TargetPolicy {
  return { allowHttp: config.NODE_ENV !== 'production', allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS };
}
