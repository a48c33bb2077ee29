export {
  createRedis,
  duplicateRedis,
  closeRedis,
  redisConnections,
  whenRedisReady,
  redisReadyWithin,
  isRedisUnavailable,
  DEFAULT_COMMAND_TIMEOUT_MS,
  SUBSCRIBER_PING_INTERVAL_MS,
  WORKER_SOCKET_TIMEOUT_MS,
  type RedisRole,
  type RedisClientOptions,
} from './client.ts';
export { describeTarget, redisTarget, type RedisTarget, type SentinelTarget } from './target.ts';
