import type { Server } from 'node:http';
import type { Express } from 'express';
import { createApp } from './api/app';
import { attachConsoleSockets } from './api/console-relay';
import { refuseTunnels } from './net/request-target';
import { createMetricsApp } from './api/routes/health';
import { loadConfig, type Config } from './config';
import { ensureBootstrapAdmin } from './db/bootstrap';
import { createDb } from './db/client';
import { createLogger } from './logger';
import { runUntilSignalled } from './main';
import { INTERACTIVE_TIMEOUT_MS, proxmoxClientFactory } from './proxmox/factory';
import { secretBoxOf } from './security/secrets';
import { connectTemporalClient } from './temporal/connection';

export interface RunningServer {
  server: Server;
  port: number;
  /** Set when METRICS_PORT is. */
  metricsServer: Server | null;
  metricsPort?: number;
  close(): Promise<void>;
}

function listen(app: Express, port: number, host: string): Promise<Server> {
  return new Promise<Server>((resolve, reject) => {
    const listening = app.listen(port, host, (error?: Error) => (error ? reject(error) : resolve(listening)));
  });
}

const portOf = (server: Server, fallback: number) => {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : fallback;
};

/** Stops accepting, lets requests in flight finish for at most `drainMs`, then cuts what is left. */
function closeServer(server: Server, drainMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const cut = setTimeout(() => server.closeAllConnections(), drainMs);
    server.close(() => {
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** The HTTP API: stateless, so any number of these may run against one database and one Temporal. */
export async function startServer(config: Config): Promise<RunningServer> {
  const logger = createLogger('api', config.LOG_LEVEL);
  const db = createDb(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  const bootstrap = await ensureBootstrapAdmin(db, config.BOOTSTRAP_ADMIN_TOKEN);
  if (bootstrap.revokedPrevious) logger.info({ revoked: bootstrap.revokedPrevious }, 'BOOTSTRAP_ADMIN_TOKEN changed: the previous bootstrap token is revoked');
  const temporal = await connectTemporalClient(config);
  const stopping = new AbortController();
  const secrets = secretBoxOf(config);
  // The API's own Proxmox VE calls are the ones a person waits for.
  const deps = { db, temporal, config, logger, secrets, proxmox: proxmoxClientFactory(secrets, INTERACTIVE_TIMEOUT_MS), stopping: stopping.signal };
  const app = createApp(deps);
  const server = await listen(app, config.PORT, config.HOST);
  const consoles = attachConsoleSockets(server, deps, app);
  const metricsServer =
    config.METRICS_PORT === undefined ? null : await listen(createMetricsApp({ config, logger }), config.METRICS_PORT, config.METRICS_HOST ?? config.HOST);
  for (const s of [server, metricsServer]) if (s) refuseTunnels(s);
  const port = portOf(server, config.PORT);
  const metricsPort = metricsServer ? portOf(metricsServer, config.METRICS_PORT ?? 0) : undefined;
  logger.info({ host: config.HOST, port, metricsPort }, 'API listening');
  return {
    server,
    port,
    metricsServer,
    metricsPort,
    async close() {
      logger.info('API stopping: open event streams are told to reconnect elsewhere');
      // Event streams end with `event: close` (reason shutting_down); everything else gets half the grace time to finish.
      stopping.abort();
      await consoles.close();
      const drainMs = (config.SIGTERM_GRACE_SECONDS * 1000) / 2;
      await Promise.all([closeServer(server, drainMs), metricsServer && closeServer(metricsServer, drainMs)]);
      await temporal.connection.close();
      await db.$disconnect();
    },
  };
}

if (require.main === module) {
  const config = loadConfig();
  runUntilSignalled(startServer(config), (running) => running.close(), config.SIGTERM_GRACE_SECONDS * 1000);
}
