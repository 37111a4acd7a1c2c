/** What the run started, stopped in reverse order on the way out (also on Ctrl-C). */
export class Cleanups {
  private readonly steps: { name: string; run: () => Promise<void> }[] = [];

  add(name: string, run: () => Promise<void>): void {
    this.steps.push({ name, run });
  }

  /** Runs (and forgets) one step now, e.g. to stop the worker between phases. */
  async runNow(name: string): Promise<void> {
    const index = this.steps.findIndex((step) => step.name === name);
    if (index < 0) return;
    const [step] = this.steps.splice(index, 1);
    await step?.run();
  }

  async runAll(): Promise<void> {
    for (const { name, run } of this.steps.splice(0).reverse()) {
      await run().catch((error: unknown) => console.error(`cleanup (${name}) failed:`, error instanceof Error ? error.message : error));
    }
  }
}
