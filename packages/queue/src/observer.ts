/**
 * What a worker reports about its jobs to whoever measures them (the runtime's Prometheus
 * metrics). Kept as a plain interface so this package does not depend on a metrics library.
 */
export interface JobObserver {
  /** A handler ran once (one attempt) and returned or threw after `durationSeconds`. */
  attemptEnded(jobName: string, outcome: 'completed' | 'failed', durationSeconds: number): void;
  /**
   * A job left the active state: completed, failed with attempts left (`retrying`), or failed
   * for good (`failed`: last attempt, unrecoverable, or stalled too often). `attemptsMade`
   * counts the attempt that just ended.
   */
  jobSettled(jobName: string, outcome: 'completed' | 'retrying' | 'failed', attemptsMade: number): void;
}
