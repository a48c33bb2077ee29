import { isDatabaseUnavailable } from '@switchboard/db';
import { QueueUnavailableError } from '@switchboard/queue';
import { isRedisUnavailable } from '@switchboard/redis';
import { SnowflakeLeaseLostError } from '@switchboard/snowflake';
import { isStorageUnavailable } from '@switchboard/storage';

/**
 * A dependency (PostgreSQL, Redis, S3) is down, silent or overloaded, or this replica holds no
 * snowflake worker id right now (its lease lapsed while Redis was away, or another process took
 * it): the request was not wrong and may succeed later, so the error middleware answers 503
 * with Retry-After rather than 500. Each package knows its own client's failures; this only
 * joins them.
 */
export function isDependencyUnavailable(error: unknown): boolean {
  return (
    error instanceof QueueUnavailableError ||
    error instanceof SnowflakeLeaseLostError ||
    isDatabaseUnavailable(error) ||
    isRedisUnavailable(error) ||
    isStorageUnavailable(error)
  );
}
