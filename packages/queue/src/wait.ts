import type { Queue, QueueEvents, QueueEventsListener } from 'bullmq';

/** What a bounded wait saw: the job finished either way, or is still queued or running. */
export type WaitOutcome =
  | { state: 'completed'; jobId: string; result: unknown }
  | { state: 'failed'; jobId: string; error: string }
  | { state: 'pending'; jobId: string };

/** Per-job events of QueueEvents (`completed:<jobId>`), which BullMQ's types do not list. */
interface JobFinishListener extends QueueEventsListener {
  [event: `completed:${string}`]: (args: { returnvalue: unknown }) => void;
  [event: `failed:${string}`]: (args: { failedReason: string }) => void;
}

/** Reads a job's final state once; undefined while it is not finished (or Redis is away). */
async function finishedOutcome(queue: Queue, jobId: string): Promise<WaitOutcome | undefined> {
  try {
    // State first: a job read before it finished would lack its result.
    const state = await queue.getJobState(jobId);
    if (state !== 'completed' && state !== 'failed') return undefined;
    const job = await queue.getJob(jobId);
    if (!job) return undefined;
    return state === 'completed'
      ? { state, jobId, result: job.returnvalue }
      : { state, jobId, error: job.failedReason };
  } catch {
    return undefined;
  }
}

export interface WaitHandle {
  outcome: Promise<WaitOutcome>;
  /** Ends the wait now with `pending` (the producer is closing). */
  abandon(): void;
}

/**
 * Waits for a job's completed/failed event up to `timeoutMs`. The state is also read once the
 * listener is live (the job may have finished before) and once more at the bound (the first
 * read of a new event stream can miss events), so a finished job is never reported pending.
 * Listeners and the timer are removed on every path.
 */
export function waitForJob(queue: Queue, events: QueueEvents, jobId: string, timeoutMs: number): WaitHandle {
  let finish: (outcome: WaitOutcome) => void = () => {};
  const outcome = new Promise<WaitOutcome>((resolve) => {
    const completedEvent = `completed:${jobId}` as const;
    const failedEvent = `failed:${jobId}` as const;
    const onCompleted = ({ returnvalue }: { returnvalue: unknown }) =>
      finish({ state: 'completed', jobId, result: returnvalue });
    const onFailed = ({ failedReason }: { failedReason: string }) =>
      finish({ state: 'failed', jobId, error: failedReason });
    const timer = setTimeout(() => {
      void finishedOutcome(queue, jobId).then((found) => finish(found ?? { state: 'pending', jobId }));
    }, timeoutMs);
    let settled = false;
    finish = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      events.off<JobFinishListener>(completedEvent, onCompleted);
      events.off<JobFinishListener>(failedEvent, onFailed);
      resolve(result);
    };
    events.on<JobFinishListener>(completedEvent, onCompleted);
    events.on<JobFinishListener>(failedEvent, onFailed);
    void events
      .waitUntilReady()
      .then(() => finishedOutcome(queue, jobId))
      .then(
        (found) => found && finish(found),
        () => {},
      );
  });
  return { outcome, abandon: () => finish({ state: 'pending', jobId }) };
}
