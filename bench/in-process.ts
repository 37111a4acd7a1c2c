/** The API and the worker in this process, as src/server.ts and src/worker.ts start them. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/api/app';
import type { Config } from '../src/config';
import { createDb } from '../src/db/client';
import { createLogger } from '../src/logger';
import { INTERACTIVE_TIMEOUT_MS, proxmoxClientFactory } from '../src/proxmox/factory';
import { secretBoxOf } from '../src/security/secrets';
import { connectTemporalClient } from '../src/temporal/connection';

export interface Api {
  baseUrl: string;
  close(): Promise<void>;
}

/** The HTTP API (same app, own database pool and Temporal client), bound to 127.0.0.1 only. */
export async function startApi(config: Config): Promise<Api> {
  const db = createDb(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  const temporal = await connectTemporalClient(config);
  const secrets = secretBoxOf(config);
  const app = createApp({ db, temporal, config, logger: createLogger('api', config.LOG_LEVEL), secrets, proxmox: proxmoxClientFactory(secrets, INTERACTIVE_TIMEOUT_MS) });
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(listening)));
  });
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await temporal.connection.close();
      await db.$disconnect();
    },
  };
}
