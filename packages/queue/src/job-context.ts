import type { Logger } from '@switchboard/logger';
import type { JobContext } from './registry.ts';

/**
 * What a handler is told about the job it runs.
 *
 * A class, not an object literal with `get logger() { … }`, on purpose. An object literal's
 * getter is a closure made per object, and V8 kept it, and everything it captures (the job with
 * its payload), alive through every young-generation collection until the next full GC: each
 * job's data was copied, then promoted, then left for a mark-compact to free
 * (packages/bench/README.md#memory-and-garbage-collection). (Object.defineProperty with a
 * getter closure does the same.) A getter on the prototype captures nothing.
 */
export class RunningJobContext implements JobContext {
  readonly jobId: string;
  readonly jobName: string;
  readonly attemptsMade: number;
  readonly signal: AbortSignal;
  readonly #workerLogger: Logger;
  #jobLogger: Logger | undefined;

  constructor(
    job: { jobId: string; jobName: string; attemptsMade: number; signal: AbortSignal },
    workerLogger: Logger,
  ) {
    this.jobId = job.jobId;
    this.jobName = job.jobName;
    this.attemptsMade = job.attemptsMade;
    this.signal = job.signal;
    this.#workerLogger = workerLogger;
  }

  /** Made on first use: most jobs log nothing, and a child logger per job is not free. */
  get logger(): Logger {
    this.#jobLogger ??= this.#workerLogger.child({ jobName: this.jobName, jobId: this.jobId });
    return this.#jobLogger;
  }
}
