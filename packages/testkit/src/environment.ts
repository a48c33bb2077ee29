import { Redis } from 'ioredis';
import { afterAll, beforeAll, inject } from 'vitest';
import { createStorage } from '@switchboard/storage';
import { reserveFixtureWorkerIds } from './ids.ts';
import { createTestDatabase, uniqueTag } from './isolation.ts';

/** What one test file gets: its own database, Redis prefix and bucket on the run's services. */
export interface TestEnvironment {
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  /** The file's own `events` stream (EVENTS_STREAM_KEY in processEnv). */
  eventsStreamKey: string;
  s3: { endpoint: string; bucket: string; accessKeyId: string; secretAccessKey: string; region: string };
  /** The environment variables a process of ours needs to run against this file's services. */
  processEnv(extra?: Record<string, string>): Record<string, string>;
}

/**
 * Call at the top of a test file. The returned object is filled in before the file's first
 * test and its database is dropped after the last one.
 */
export function useTestEnvironment(): TestEnvironment {
  const environment = {} as TestEnvironment;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const services = inject('services');
    const database = await createTestDatabase(services.databaseUrl, { template: inject('templateDatabase') });
    drop = database.drop;
    const tag = uniqueTag();
    await withRedis(services.redisUrl, (redis) => reserveFixtureWorkerIds(redis, `sbt-${tag}`));
    const s3 = { ...services.s3, bucket: `sb-test-${tag}` };
    await createStorage({
      endpoint: s3.endpoint,
      region: s3.region,
      bucket: s3.bucket,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      forcePathStyle: true,
    }).ensureBucket();
    Object.assign(environment, {
      databaseUrl: database.url,
      redisUrl: services.redisUrl,
      redisPrefix: `sbt-${tag}`,
      eventsStreamKey: `sbt-${tag}:events`,
      s3,
      processEnv: (extra: Record<string, string> = {}) => ({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATABASE_URL: database.url,
        REDIS_URL: services.redisUrl,
        REDIS_PREFIX: `sbt-${tag}`,
        EVENTS_STREAM_KEY: `sbt-${tag}:events`,
        S3_ENDPOINT: s3.endpoint,
        S3_REGION: s3.region,
        S3_BUCKET: s3.bucket,
        S3_ACCESS_KEY_ID: s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
        ...extra,
      }),
    });
  });

  afterAll(async () => {
    await drop?.();
    // With the prefixes tests make below the file's (`<prefix>.t1:…`): tags never prefix one another.
    if (environment.redisPrefix) await deleteRedisKeys(environment.redisUrl, `${environment.redisPrefix}*`);
  });

  return environment;
}

/** A short-lived connection for the environment's own set-up and clean-up. */
async function withRedis(url: string, work: (redis: Redis) => Promise<void>): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    await work(redis);
  } finally {
    redis.disconnect();
  }
}

/** Removes a finished file's Redis keys so long local sessions don't fill the shared server. */
async function deleteRedisKeys(url: string, pattern: string): Promise<void> {
  await withRedis(url, async (redis) => {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
  });
}
