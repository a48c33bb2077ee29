import { DeleteBucketCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { DEVELOPMENT_S3_KEY, loadConfig, s3Schema } from '@switchboard/config';
import { migrate } from '@switchboard/db';
import { createStorage, keyedStoreOptions, storageOptionsFromConfig, type Storage } from '@switchboard/storage';
import { createTestDatabase, uniqueTag } from '@switchboard/testkit/isolation';
import { startTestServices } from '@switchboard/testkit/services';
import type { CleanupStack } from './cleanup.ts';
import type { BenchConfig } from './config.ts';

export interface BenchServices {
  /** The environment one of our processes needs to run against the bench's own data. */
  processEnv(extra?: Record<string, string>): Record<string, string>;
}

/**
 * Resolves PostgreSQL, Redis and S3 as the tests do, then gives this run its own migrated
 * database (dropped afterwards), Redis prefix and bucket, so a bench never touches test or
 * development data. The shared test template database is not used (a test run may be
 * rebuilding it).
 */
export async function startBenchServices(config: BenchConfig, cleanup: CleanupStack): Promise<BenchServices> {
  // The embedded stores' children need the rest of the environment (PATH finds redis-server).
  const started = await startTestServices({ ...process.env, ...config });
  cleanup.defer('services', started.stop);
  const { services } = started;
  const database = await createTestDatabase(services.databaseUrl);
  cleanup.defer('bench database', database.drop);
  await migrate(database.url);

  const tag = uniqueTag();
  const bucket = `sb-bench-${tag}`;
  const storage = createStorage(keyedStoreOptions({ ...services.s3, bucket }));
  await storage.ensureBucket();
  // Benchmarks that write objects delete them; a bucket left non-empty is reported, not emptied blindly.
  cleanup.defer('bench bucket', async () => {
    await storage.client.send(new DeleteBucketCommand({ Bucket: bucket })).catch(async (error: Error) => {
      const left = await storage.client
        .send(new ListObjectsV2Command({ Bucket: bucket, MaxKeys: 5 }))
        .catch(() => undefined);
      const keys = left?.Contents?.map((object) => object.Key).join(', ');
      process.stderr.write(
        `bench: bucket ${bucket} left behind: ${error.message}${keys ? ` (holds ${keys}${left?.IsTruncated ? ', …' : ''})` : ''}\n`,
      );
    });
    storage.close();
  });

  // Production refuses the development store's key (a deployment must not run on it), and
  // nothing a bench measures reads NODE_ENV besides the configuration's checks: on that store
  // the processes run as development, on any other as production. Production needs the key
  // webhook secrets are sealed with: one of the run's own.
  const nodeEnv = services.s3.accessKeyId === DEVELOPMENT_S3_KEY ? 'development' : 'production';
  const secretsKey = randomBytes(32).toString('base64');
  return {
    processEnv: (extra = {}) => ({
      LOG_LEVEL: 'silent',
      DATABASE_URL: database.url,
      REDIS_URL: services.redisUrl,
      REDIS_PREFIX: `sbb-${tag}`,
      S3_ENDPOINT: services.s3.endpoint,
      S3_REGION: services.s3.region,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: services.s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: services.s3.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      SECRETS_ENCRYPTION_KEY: secretsKey,
      ...(config.BENCH_CPU_PROF_DIR ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${config.BENCH_CPU_PROF_DIR}` } : {}),
      ...extra,
      NODE_ENV: nodeEnv,
    }),
  };
}

/**
 * A client of the run's bucket, from a processEnv (for benchmarks that put or check objects):
 * its S3 variables read by the schema every process reads them with.
 */
export function benchStorage(env: Record<string, string>): Storage {
  return createStorage(storageOptionsFromConfig(loadConfig(s3Schema, env, 'bench')));
}
