/** How long to wait before restarting an app process that exited on its own. */
export interface RestartBackoffPolicy {
  /** The delay after a first crash, doubled after each further one. */
  initialDelayMs: number;
  /** The doubling stops here: a process that never stays up is retried at this pace. */
  maxDelayMs: number;
  /** A process that ran at least this long before it exited starts over at `initialDelayMs`. */
  resetAfterMs: number;
}

/**
 * The defaults of `npm start` (its DEVSTACK_RESTART_* variables). A quarter second brings back
 * a process that crashed once before anyone notices; ten seconds at most keeps one that dies at
 * start-up (a syntax error mid-edit) from spinning a core while still picking up the fix soon.
 */
export const DEFAULT_RESTART_BACKOFF: RestartBackoffPolicy = {
  initialDelayMs: 250,
  maxDelayMs: 10_000,
  resetAfterMs: 30_000,
};

export interface RestartBackoff {
  /** The delay before the next restart of a process that ran `uptimeMs` before it exited. */
  nextDelayMs(uptimeMs: number): number;
}

/** Exponential backoff for one process; each process gets its own. */
export function createRestartBackoff(policy: RestartBackoffPolicy): RestartBackoff {
  let delayMs = policy.initialDelayMs;
  return {
    nextDelayMs(uptimeMs) {
      if (uptimeMs >= policy.resetAfterMs) delayMs = policy.initialDelayMs;
      const current = Math.min(delayMs, policy.maxDelayMs);
      delayMs = Math.min(current * 2, policy.maxDelayMs);
      return current;
    },
  };
}
