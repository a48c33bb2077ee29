import { ApiError } from '@switchboard/http';
import { QueueUnavailableError } from '@switchboard/queue';

const NOT_QUEUED = 'The job could not be queued; request it again.';

/**
 * How every job route enqueues the job of a row it has just committed (docs/decisions.md#jobs-and-their-rows: the row
 * is the job's state and its id the job id). If the job cannot be queued the row is marked
 * failed (`markFailed`), so no row stays `queued` with nothing to run it, and Redis being away
 * is a 503 with Retry-After the caller may retry; any other error goes on as it is.
 */
export async function enqueueForRow<T>(
  enqueue: () => Promise<T>,
  markFailed: (message: string) => Promise<unknown>,
): Promise<T> {
  try {
    return await enqueue();
  } catch (error) {
    await markFailed(NOT_QUEUED).catch(() => {});
    if (!(error instanceof QueueUnavailableError)) throw error;
    throw new ApiError('SERVICE_UNAVAILABLE', { message: NOT_QUEUED, cause: error, headers: { 'Retry-After': '1' } });
  }
}
