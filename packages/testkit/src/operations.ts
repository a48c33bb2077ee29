import type { Pool } from '@switchboard/db';
import type { Answer } from './http.ts';
import { waitFor } from './wait.ts';

/**
 * Worker variables for short locks: a SIGKILLed worker's job is taken over within about two
 * seconds (lock expiry plus one stalled check) instead of the deployed 30 s.
 */
export const QUICK_TAKEOVER = { QUEUE_LOCK_DURATION_MS: '1000', QUEUE_STALLED_INTERVAL_MS: '500' };

/** A read of an operation's state: its `status` (and `error` once failed) in `body`, as its status route answers. */
export interface OperationStatusRead {
  body: { status?: unknown; error?: unknown };
}

/**
 * `Accepted` is what starting the operation answers: an HTTP answer (the default), or what a
 * worker's own test gets from enqueueing the job; `Status` a read of its state.
 */
export interface KillMidOperation<Accepted = Answer, Status extends OperationStatusRead = Answer> {
  pool: Pool;
  /** A statement that locks a row the worker needs, so it blocks after marking the row running. */
  lock: { sql: string; params: unknown[] };
  /** Starts the operation (a request answered 202 at once, or an enqueued job). */
  start: () => Promise<Accepted>;
  /** Its state now: GET of its status route (its body carries `status`), or its row. */
  status: (accepted: Accepted) => Promise<Status>;
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
export async function killMidOperation<Accepted = Answer, Status extends OperationStatusRead = Answer>(
  steps: KillMidOperation<Accepted, Status>,
): Promise<{ accepted: Accepted; done: Status }> {
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
