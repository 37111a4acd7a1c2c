/**
 * What the run started, stopped in reverse order on the way out (also on Ctrl-C). Once that
 * began, anything still being started is stopped at once, so an interrupted run leaves nothing.
 */
export class Cleanups {
  private readonly steps: { name: string; run: () => Promise<void> }[] = [];
  private stopping: Promise<void> | null = null;

  add(name: string, run: () => Promise<void>): void {
    if (this.stopping) {
      void run().catch(() => undefined);
      throw new Error(`stopping: ${name} was stopped as soon as it started`);
    }
    this.steps.push({ name, run });
  }

  /** Runs (and forgets) one step now, e.g. to stop the worker between phases. */
  async runNow(name: string): Promise<void> {
    const index = this.steps.findIndex((step) => step.name === name);
    if (index < 0) return;
    const [step] = this.steps.splice(index, 1);
    await step?.run();
  }

  /** Stops everything; every caller (the signal handler, the run's end) waits for the same stop. */
  runAll(): Promise<void> {
    this.stopping ??= (async () => {
      for (const { name, run } of this.steps.splice(0).reverse()) {
        await run().catch((error: unknown) => console.error(`cleanup (${name}) failed:`, error instanceof Error ? error.message : error));
      }
    })();
    return this.stopping;
  }
}
