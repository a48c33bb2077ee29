export { devstackSchema, passThroughEnv, type DevstackConfig } from './config.ts';
export { dataPaths, REPO_ROOT, type DataPaths } from './paths.ts';
export { discoverServices, type AppService } from './services.ts';
export { createLogSink, type LogSink } from './log.ts';
export { createSupervisor, type Supervisor } from './supervisor.ts';
export { startEmbeddedPostgres, type EmbeddedPostgres } from './postgres/index.ts';
export {
  findRedisServer,
  REDIS_MISSING,
  startEmbeddedRedis,
  type EmbeddedRedis,
  type EmbeddedRedisOptions,
} from './redis.ts';
export { startEmbeddedS3, type EmbeddedS3, type EmbeddedS3Options } from './s3.ts';
export { freePort } from './ports.ts';
