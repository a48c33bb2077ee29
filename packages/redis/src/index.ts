export { createRedis, duplicateRedis, closeRedis, whenRedisReady, type RedisRole, type RedisClientOptions } from './client.ts';
