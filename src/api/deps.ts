import type { Client } from '@temporalio/client';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Logger } from '../logger';
import type { SecretBox } from '../security/secrets';

/** What the API's routers and services are built with. */
export interface ApiDeps {
  db: Db;
  temporal: Client;
  config: Config;
  logger: Logger;
  secrets: SecretBox;
  /**
   * Runs between a task's commit and its workflow start. Tests use it to stop the API right there,
   * as a crash would; the reconciler then starts the workflow from the task's recorded intent.
   */
  afterCommit?: (taskId: string) => Promise<void>;
  /** Aborted when the process is stopping: open event streams end with `event: close` (reason `shutting_down`). */
  stopping?: AbortSignal;
}
