export {
  createRedis,
  duplicateRedis,
  closeRedis,
  whenRedisReady,
  redisReadyWithin,
  isRedisUnavailable,
  DEFAULT_COMMAND_TIMEOUT_MS,
  type RedisRole,
  type RedisClientOptions,
} from './client.ts';
