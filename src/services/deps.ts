import type { Client } from '@temporalio/client';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Logger } from '../logger';
import type { ProxmoxClientFactory } from '../proxmox/factory';
import type { SecretBox } from '../security/secrets';

/**
 * Everything a service may be built with. Each service names the part it needs
 * (`Pick<ServiceDeps, ...>`), so a route, an activity or a test passes exactly that.
 */
export interface ServiceDeps {
  db: Db;
  temporal: Client;
  config: Config;
  logger: Logger;
  secrets: SecretBox;
  /** Reads of Proxmox VE a service makes itself (usage graphs, consoles, connection checks). */
  proxmox: ProxmoxClientFactory;
  /**
   * Runs between a task's commit and its workflow start. Tests use it to stop right there, as a
   * crash would; the reconciler then starts the workflow from the task's recorded intent.
   */
  afterCommit?: (taskId: string) => Promise<void>;
}
