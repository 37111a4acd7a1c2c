import type { Server } from 'node:http';
import { Client, Connection } from '@temporalio/client';
import { createApp } from './api/app';
import { loadConfig, type Config } from './config';
import { ensureBootstrapAdmin } from './db/bootstrap';
import { createDb } from './db/client';
import { createLogger } from './logger';
import { runUntilSignalled } from './main';
import { secretBoxOf } from './security/secrets';

export interface RunningServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

/** The HTTP API: stateless, so any number of these may run against one database and one Temporal. */
export async function startServer(config: Config): Promise<RunningServer> {
  const logger = createLogger('api', config.LOG_LEVEL);
  const db = createDb(config.DATABASE_URL);
  const bootstrap = await ensureBootstrapAdmin(db, config.BOOTSTRAP_ADMIN_TOKEN);
  if (bootstrap.revokedPrevious) logger.info({ revoked: bootstrap.revokedPrevious }, 'BOOTSTRAP_ADMIN_TOKEN changed: the previous bootstrap token is revoked');
  const connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
  const temporal = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
  const app = createApp({ db, temporal, config, logger, secrets: secretBoxOf(config) });
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(config.PORT, () => resolve(listening));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  logger.info({ port }, 'API listening');
  return {
    server,
    port,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await connection.close();
      await db.$disconnect();
    },
  };
}

if (require.main === module) runUntilSignalled(startServer(loadConfig()), (running) => running.close());
