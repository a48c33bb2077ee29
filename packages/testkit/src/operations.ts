import type { Pool } from '@switchboard/db';
import type { Answer } from './http.ts';
import { waitFor } from './wait.ts';

/**
 * Worker variables for short locks: a SIGKILLed worker's job is taken over within about two
 * seconds (lock expiry plus one stalled check) instead of the deployed 30 s.
 */
export const QUICK_TAKEOVER = { QUEUE_LOCK_DURATION_MS: '1000', QUEUE_STALLED_INTERVAL_MS: '500' };

export interface KillMidOperation {
  pool: Pool;
  /** A statement that locks a row the worker needs, so it blocks after marking the row running. */
  lock: { sql: string; params: unknown[] };
  /** The request that starts the operation (answered 202 at once). */
  start: () => Promise<Answer>;
  /** GET of the operation's status route (its body carries `status`). */
  status: (accepted: Answer) => Promise<Answer>;
  /** SIGKILLs the worker running it. */
  kill: () => Promise<unknown>;
  /** Starts the worker that takes the job over. */
  restart: () => Promise<unknown>;
}

/**
 * An operation whose worker is SIGKILLed mid-operation: started while a row it needs is locked,
 * killed once its status says running, then the lock is released and a successor started.
 * Answers the first answer and the status once completed (failing on `failed` or a timeout).
 */
export async function killMidOperation(steps: KillMidOperation): Promise<{ accepted: Answer; done: Answer }> {
  const blocker = await steps.pool.connect();
  try {
    await blocker.query('BEGIN');
    await blocker.query(steps.lock.sql, steps.lock.params);
    const accepted = await steps.start();
    await waitFor(async () => (await steps.status(accepted)).body.status === 'running', 10_000);
    await steps.kill();
    await blocker.query('ROLLBACK');
    await steps.restart();
    const done = await waitFor(async () => {
      const answer = await steps.status(accepted);
      if (answer.body.status === 'failed') throw new Error(`the operation failed: ${answer.body.error}`);
      return answer.body.status === 'completed' ? answer : undefined;
    }, 20_000);
    return { accepted, done };
  } finally {
    blocker.release();
  }
}
