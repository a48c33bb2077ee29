/**
 * Everything the harness starts registers its stop here; `run` stops them newest first, each
 * within a bound, so one stuck child never keeps the others (or the bench) alive.
 */
export class CleanupStack {
  private readonly steps: Array<{ name: string; stop: () => Promise<void> }> = [];
  private running: Promise<void> | undefined;

  defer(name: string, stop: () => Promise<void> | void): void {
    this.steps.push({ name, stop: async () => stop() });
  }

  run(timeoutMs = 10_000): Promise<void> {
    this.running ??= this.runSteps(timeoutMs);
    return this.running;
  }

  private async runSteps(timeoutMs: number): Promise<void> {
    for (const step of this.steps.reverse()) {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          process.stderr.write(`bench: stopping ${step.name} took over ${timeoutMs} ms, moving on\n`);
          resolve();
        }, timeoutMs);
      });
      await Promise.race([
        step.stop().catch((error: unknown) => {
          process.stderr.write(`bench: stopping ${step.name} failed: ${(error as Error).message}\n`);
        }),
        timedOut,
      ]);
      clearTimeout(timer);
    }
    this.steps.length = 0;
  }
}
