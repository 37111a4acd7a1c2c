/**
 * Runs a process entry point: once `started` resolves, SIGINT or SIGTERM calls `stop` and exits
 * 0; a stop that takes longer than `graceMs` (or fails) exits 1 anyway. A failed start prints its
 * message and exits 1. A process started with an IPC channel (by `npm start`'s supervisor) sends
 * `ready` over it once started.
 *
 *     if (require.main === module) runUntilSignalled(startServer(config), (running) => running.close(), config.SIGTERM_GRACE_SECONDS * 1000);
 */
export function runUntilSignalled<T>(started: Promise<T>, stop: (running: T) => Promise<unknown>, graceMs: number): void {
  started
    .then((running) => {
      let stopping = false;
      const onSignal = () => {
        // Ctrl-C under `npm start` comes twice: SIGINT from the terminal, then SIGTERM from the supervisor.
        if (stopping) return;
        stopping = true;
        setTimeout(() => {
          console.error(`did not stop within ${graceMs} ms; exiting`);
          process.exit(1);
        }, graceMs).unref();
        stop(running).then(
          () => process.exit(0),
          (error: unknown) => {
            console.error(error instanceof Error ? error.message : error);
            process.exit(1);
          },
        );
      };
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      process.send?.('ready');
    })
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
