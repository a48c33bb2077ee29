export {
  createSnowflakeGenerator,
  MAX_WORKER_ID,
  parseSnowflake,
  SNOWFLAKE_EPOCH_MS,
  snowflakeFromTimestamp,
  snowflakeText,
  snowflakeTimestamp,
  snowflakeWorkerId,
  type SnowflakeGenerator,
} from './generator.ts';
export {
  acquireSnowflakeLease,
  NoFreeWorkerIdError,
  SnowflakeLeaseLostError,
  type SnowflakeLease,
  type SnowflakeLeaseOptions,
} from './lease.ts';
export { workerIdLeaseKey } from './lease-keys.ts';
