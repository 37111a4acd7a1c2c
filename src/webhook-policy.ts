import type { Config } from './config';
import type { TargetPolicy } from './security/webhooks';

/** Where webhooks may point under these settings: https only in production; private addresses only when an admin allows them. */
export function webhookTargetPolicy(config: Pick<Config, 'NODE_ENV' | 'WEBHOOK_ALLOW_PRIVATE_TARGETS'>): TargetPolicy {
  return { allowHttp: config.NODE_ENV !== 'production', allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS };
}
