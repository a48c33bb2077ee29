import type { DevstackConfig } from './config.ts';
import type { DataPaths } from './paths.ts';
import { startEmbeddedPostgres } from './postgres/index.ts';
import { findRedisServer, startEmbeddedRedis } from './redis.ts';
import { S3RVER_CREDENTIAL, startEmbeddedS3 } from './s3.ts';
import type { Supervisor } from './supervisor.ts';

/** Connection settings for the backing stores, as environment variables. */
export type StoreEnv = Record<string, string> & { DATABASE_URL: string; REDIS_URL: string };

/**
 * Each store named in the environment is used as is; each one left unset is started here.
 * They start in parallel: initdb alone takes seconds.
 */
export async function resolveStores(
  supervisor: Supervisor,
  config: DevstackConfig,
  paths: DataPaths,
): Promise<StoreEnv> {
  const redisSource = config.REDIS_URL ? { url: config.REDIS_URL } : { binary: await findRedisServer(config.PATH) };
  const [database, redis, s3] = await Promise.all([
    resolveDatabase(supervisor, config, paths),
    resolveRedis(supervisor, redisSource, paths),
    resolveS3(supervisor, config, paths),
  ]);
  const env: StoreEnv = { DATABASE_URL: database, REDIS_URL: redis, ...s3 };
  // The CLI must share the apps' key prefix to see their queues.
  if (typeof config.REDIS_PREFIX === 'string') env.REDIS_PREFIX = config.REDIS_PREFIX;
  return env;
}

async function resolveDatabase(supervisor: Supervisor, config: DevstackConfig, paths: DataPaths): Promise<string> {
  if (config.DATABASE_URL) {
    supervisor.log(`PostgreSQL: using DATABASE_URL (${new URL(config.DATABASE_URL).host})`);
    return config.DATABASE_URL;
  }
  supervisor.log(`PostgreSQL: starting the embedded server (data in ${paths.postgres})`);
  const postgres = await startEmbeddedPostgres(supervisor, paths.postgres);
  supervisor.log(`PostgreSQL: embedded server ready at ${new URL(postgres.url).host} (pid ${postgres.pid})`);
  return postgres.url;
}

async function resolveRedis(
  supervisor: Supervisor,
  source: { url: string } | { binary: string },
  paths: DataPaths,
): Promise<string> {
  if ('url' in source) {
    supervisor.log(`Redis: using REDIS_URL (${new URL(source.url).host})`);
    return source.url;
  }
  supervisor.log(`Redis: starting redis-server (data in ${paths.redis}, append-only file)`);
  const redis = await startEmbeddedRedis(supervisor, { binary: source.binary, dir: paths.redis, persistent: true });
  supervisor.log(`Redis: redis-server ready at ${new URL(redis.url).host} (pid ${redis.pid})`);
  return redis.url;
}

async function resolveS3(
  supervisor: Supervisor,
  config: DevstackConfig,
  paths: DataPaths,
): Promise<Record<string, string>> {
  const common = { S3_REGION: config.S3_REGION, S3_BUCKET: config.S3_BUCKET, S3_FORCE_PATH_STYLE: 'true' };
  if (config.S3_ENDPOINT) {
    supervisor.log(`S3: using S3_ENDPOINT (${config.S3_ENDPOINT}), bucket ${config.S3_BUCKET}`);
    return {
      ...common,
      S3_ENDPOINT: config.S3_ENDPOINT,
      // None given: the services use the AWS default credential chain too.
      ...(config.S3_ACCESS_KEY_ID ? { S3_ACCESS_KEY_ID: config.S3_ACCESS_KEY_ID } : {}),
      ...(config.S3_SECRET_ACCESS_KEY ? { S3_SECRET_ACCESS_KEY: config.S3_SECRET_ACCESS_KEY } : {}),
      S3_FORCE_PATH_STYLE: String(config.S3_FORCE_PATH_STYLE),
    };
  }
  const s3 = await startEmbeddedS3({ dir: paths.s3, buckets: [config.S3_BUCKET] });
  supervisor.onStop(s3.stop);
  if (supervisor.isStopping()) return {};
  supervisor.log(
    `S3: s3rver at ${s3.endpoint}, bucket ${config.S3_BUCKET}, data in ${paths.s3}, credentials ${S3RVER_CREDENTIAL}/${S3RVER_CREDENTIAL}. ` +
      'This is a DEVELOPMENT store, not for production: set S3_ENDPOINT (MinIO, AWS S3, …) there.',
  );
  return {
    ...common,
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  };
}
