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
  type RedisClient,
  type RedisClientOptions,
} from './client.ts';
export {
  describeTarget,
  isClusterTarget,
  redisTarget,
  type ClusterTarget,
  type RedisTarget,
  type SentinelTarget,
} from './target.ts';
export { sameSlotTag } from './slots.ts';
export { untilRedisAnswers } from './until-answers.ts';
