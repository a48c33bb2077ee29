export { createRedis, duplicateRedis, closeRedis, whenRedisReady, isRedisUnavailable, DEFAULT_COMMAND_TIMEOUT_MS, type RedisRole, type RedisClientOptions } from './client.ts';
