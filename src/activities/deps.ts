import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Logger } from '../logger';
import type { ProxmoxClientFactory } from '../proxmox/factory';
import type { SecretBox } from '../security/secrets';

/** What every activity may touch: the database, Proxmox, the secret box, settings and a logger. */
export interface ActivityDeps {
  db: Db;
  proxmox: ProxmoxClientFactory;
  secrets: SecretBox;
  config: Config;
  logger: Logger;
}
