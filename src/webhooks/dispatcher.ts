import type { Client } from '@temporalio/client';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { unheldDeliveryGroups } from '../db/webhooks';
import type { Logger } from '../logger';
import { startDeliveryWorkflow } from '../temporal/starts';

/** A delivery attempted or scheduled more recently than this is held by a running delivery workflow. */
const HELD_FOR_MS = 60_000;

/**
 * Starts the delivery workflow of every endpoint × instance with pending deliveries that no
 * workflow holds: new deliveries (written with their events), ones whose endpoint was enabled
 * again or that were redelivered, and any a lost workflow left. Starting joins a running workflow,
 * so any number of workers may do this at once.
 */
export async function dispatchWebhookDeliveries(deps: { db: Db; temporal: Client; config: Config }): Promise<number> {
  const groups = await unheldDeliveryGroups(deps.db, new Date(Date.now() - HELD_FOR_MS));
  for (const group of groups) await startDeliveryWorkflow(deps.temporal, deps.config, group);
  return groups.length;
}

/** Runs dispatchWebhookDeliveries every WEBHOOK_DISPATCH_INTERVAL_MS until stopped; a failed round is logged and the next one tries again. */
export function runWebhookDispatcher(deps: { db: Db; temporal: Client; config: Config; logger: Logger }): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> = Promise.resolve();
  const tick = () => {
    round = dispatchWebhookDeliveries(deps)
      .then(() => undefined)
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'webhook dispatch round failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, deps.config.WEBHOOK_DISPATCH_INTERVAL_MS);
      });
  };
  tick();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await round;
    },
  };
}
