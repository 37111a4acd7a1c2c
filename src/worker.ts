import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from './activities';
import { proxmoxClientFactory } from './activities/deps';
import { loadConfig, type Config } from './config';
import { createDb } from './db/client';
import { createLogger } from './logger';
import { SecretBox } from './security/secrets';

export interface RunningWorker {
  worker: Worker;
  /** Resolves when the worker has stopped (after `shutdown`). */
  done: Promise<void>;
  shutdown(): Promise<void>;
}

/** A Temporal worker for the provisioning task queue, with its own database pool. */
export async function startWorker(config: Config): Promise<RunningWorker> {
  const logger = createLogger('worker', config.LOG_LEVEL);
  const db = createDb(config.DATABASE_URL);
  const secrets = new SecretBox(config.ENCRYPTION_KEY);
  const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  const worker = await Worker.create({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    workflowsPath: require.resolve('./workflows'),
    activities: createActivities({ db, proxmox: proxmoxClientFactory(secrets), secrets, config, logger }),
    // A stuck Proxmox call must not keep the process from shutting down for long.
    shutdownGraceTime: '10s',
  });
  const done = worker.run().finally(async () => {
    await connection.close();
    await db.$disconnect();
  });
  logger.info({ taskQueue: config.TEMPORAL_TASK_QUEUE, namespace: config.TEMPORAL_NAMESPACE }, 'worker started');
  return {
    worker,
    done,
    async shutdown() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}

if (require.main === module) {
  const config = loadConfig();
  startWorker(config)
    .then((running) => {
      const stop = () => void running.shutdown().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    })
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
