import path from 'node:path';
import { NativeConnection, Runtime, Worker, type LogLevel } from '@temporalio/worker';
import { createActivities } from './activities';
import { proxmoxClientFactory } from './proxmox/factory';
import { loadConfig, type Config } from './config';
import { createDb } from './db/client';
import { createLogger, type Logger } from './logger';
import { runUntilSignalled } from './main';
import { secretBoxOf } from './security/secrets';
import { connectTemporalClient, temporalClient, temporalConnectionOptions } from './temporal/connection';
import { upsertImageRefreshSchedules, upsertReconcileSchedules } from './temporal/schedules';
import { runWebhookDispatcher } from './webhooks/dispatcher';

export interface RunningWorker {
  worker: Worker;
  /** Resolves when the worker has stopped (after `shutdown`). */
  done: Promise<void>;
  shutdown(): Promise<void>;
}

export const workflowsPath = path.join(__dirname, 'workflows', 'index.ts');

/**
 * Node flags a worker process runs with (`npm run worker` passes them): a young generation of
 * 4 MB instead of 16 keeps a worker with 1,000 provisions in flight about 90 MiB smaller, for a few
 * more minor collections (bench/README.md, memory phase).
 */
export const WORKER_NODE_FLAGS = ['--max-semi-space-size=4'];

/** A Temporal worker for the provisioning task queue, with its own database pool. */
export async function startWorker(config: Config): Promise<RunningWorker> {
  const logger = createLogger('worker', config.LOG_LEVEL);
  installSdkLogger(logger);
  const db = createDb(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  const secrets = secretBoxOf(config);
  const connection = await NativeConnection.connect(temporalConnectionOptions(config));
  const worker = await Worker.create({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    ...(config.WORKFLOW_BUNDLE_PATH ? { workflowBundle: { codePath: config.WORKFLOW_BUNDLE_PATH } } : { workflowsPath }),
    activities: createActivities({ db, proxmox: proxmoxClientFactory(secrets), secrets, config, logger }),
    // Within SIGTERM_GRACE_SECONDS: activities get half of it to finish, then are cancelled (an
    // attempt waiting on a Proxmox task fails at once and the next worker resumes its recorded
    // UPID); at four fifths the worker stops regardless.
    shutdownGraceTime: config.SIGTERM_GRACE_SECONDS * 500,
    shutdownForceTime: config.SIGTERM_GRACE_SECONDS * 800,
    maxCachedWorkflows: config.WORKER_MAX_CACHED_WORKFLOWS,
    maxConcurrentActivityTaskExecutions: config.WORKER_MAX_CONCURRENT_ACTIVITIES,
    maxConcurrentWorkflowTaskExecutions: config.WORKER_MAX_CONCURRENT_WORKFLOW_TASKS,
  });
  const dispatcher = runWebhookDispatcher({ db, temporal: temporalClient(connection, config), config, logger });
  const done = worker.run().finally(async () => {
    await dispatcher.stop();
    await connection.close();
    await db.$disconnect();
  });
  logger.info({ taskQueue: config.TEMPORAL_TASK_QUEUE, namespace: config.TEMPORAL_NAMESPACE }, 'worker started');
  await ensureReconcileSchedules(config, db, logger);
  return {
    worker,
    done,
    async shutdown() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}

/** Every connection gets its Reconcile schedule, every image with a refresh schedule its own (idempotent); a failure is logged, the worker serves on. */
async function ensureReconcileSchedules(config: Config, db: ReturnType<typeof createDb>, logger: Logger): Promise<void> {
  const client = await connectTemporalClient(config).catch((error: unknown) => {
    logger.error({ err: error }, 'could not reach Temporal to set up the reconcile and traffic schedules');
    return null;
  });
  if (!client) return;
  try {
    const count = await upsertReconcileSchedules(client, db, config);
    const images = await upsertImageRefreshSchedules(client, db, config);
    logger.info({ connections: count, intervalSeconds: config.RECONCILE_INTERVAL_SECONDS, imageRefreshSchedules: images }, 'reconcile, traffic and image refresh schedules are in place');
  } catch (error) {
    logger.error({ err: error }, 'could not set up the reconcile and traffic schedules');
  } finally {
    await client.connection.close();
  }
}

const SDK_LEVELS: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

/** Sends the SDK's own log lines through our JSON logger (once per process: the runtime is global). */
function installSdkLogger(logger: Logger): void {
  try {
    Runtime.install({
      logger: {
        log: (level, message, meta) => logger[SDK_LEVELS[level]]({ sdk: meta }, message),
        trace: (message, meta) => logger.trace({ sdk: meta }, message),
        debug: (message, meta) => logger.debug({ sdk: meta }, message),
        info: (message, meta) => logger.debug({ sdk: meta }, message),
        warn: (message, meta) => logger.warn({ sdk: meta }, message),
        error: (message, meta) => logger.error({ sdk: meta }, message),
      },
    });
  } catch {
    // Already installed by an earlier worker in this process.
  }
}

if (require.main === module) {
  const config = loadConfig();
  runUntilSignalled(startWorker(config), (running) => running.shutdown(), config.SIGTERM_GRACE_SECONDS * 1000);
}
