/**
 * Runs a process entry point: once `started` resolves, SIGINT or SIGTERM calls `stop` and exits
 * 0; a failed start prints its message and exits 1.
 *
 *     if (require.main === module) runUntilSignalled(startServer(loadConfig()), (running) => running.close());
 */
export function runUntilSignalled<T>(started: Promise<T>, stop: (running: T) => Promise<unknown>): void {
  started
    .then((running) => {
      const onSignal = () => void stop(running).then(() => process.exit(0));
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
    })
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
