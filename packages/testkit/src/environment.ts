import { Redis } from 'ioredis';
import { afterAll, beforeAll, inject } from 'vitest';
import { createStorage, keyedStoreOptions } from '@switchboard/storage';
import { reserveFixtureWorkerIds } from './ids.ts';
import { TEST_POOLER_VARIABLE } from './pgbouncer.ts';
import { createTestDatabase, uniqueTag } from './isolation.ts';
import type { TestServices } from './services/index.ts';
// Types what global setup hands over through inject().
import './provided-context.ts';

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

/** A TestEnvironment and what removes it: its database, then its Redis keys. */
export interface ProvisionedEnvironment extends TestEnvironment {
  release(): Promise<void>;
}

/**
 * A database of its own (cloned from `template`, the run's migrated template, unless it is an
 * empty one), a Redis key prefix and a bucket on `services`. For callers outside vitest (the
 * fault suite); a test file calls useTestEnvironment.
 */
export async function provisionEnvironment(
  services: TestServices,
  { template }: { template?: string } = {},
): Promise<ProvisionedEnvironment> {
  const database = await createTestDatabase(services.databaseUrl, { template });
  const tag = uniqueTag();
  const redisPrefix = `sbt-${tag}`;
  // The ids testkit's fixture generators use are taken before any process of the file leases one.
  await withRedis(services.redisUrl, (redis) => reserveFixtureWorkerIds(redis, redisPrefix));
  const s3 = { ...services.s3, bucket: `sb-test-${tag}` };
  const storage = createStorage(keyedStoreOptions(s3));
  try {
    await storage.ensureBucket();
  } catch (error) {
    await database.drop();
    throw error;
  } finally {
    storage.close();
  }
  return {
    databaseUrl: database.url,
    redisUrl: services.redisUrl,
    redisPrefix,
    eventsStreamKey: `${redisPrefix}:events`,
    s3,
    processEnv: (extra: Record<string, string> = {}) => ({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      ...databaseVariables(database.url),
      REDIS_URL: services.redisUrl,
      REDIS_PREFIX: redisPrefix,
      EVENTS_STREAM_KEY: `${redisPrefix}:events`,
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: s3.region,
      S3_BUCKET: s3.bucket,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      ...extra,
    }),
    release: async () => {
      await database.drop();
      // With the prefixes tests make below the file's (`<prefix>.t1:…`): tags never prefix one another.
      await deleteRedisKeys(services.redisUrl, `${redisPrefix}*`);
    },
  };
}

/**
 * Call at the top of a test file. The returned object is filled in before the file's first
 * test and its database is dropped after the last one.
 */
export function useTestEnvironment(): TestEnvironment {
  const environment = {} as TestEnvironment;
  let release: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const provisioned = await provisionEnvironment(inject('services'), { template: inject('templateDatabase') });
    release = provisioned.release;
    const { release: _, ...fields } = provisioned;
    Object.assign(environment, fields);
  });

  afterAll(async () => {
    await release?.();
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

/**
 * How the processes a test starts reach the file's database: PostgreSQL itself, or in the
 * pooled pass through the pooler, as deployed behind one (docs/decisions.md#behind-a-transaction-pooler).
 * The test's own pools stay direct: they look at what the processes did.
 */
function databaseVariables(databaseUrl: string): Record<string, string> {
  const pooler = process.env[TEST_POOLER_VARIABLE];
  if (!pooler) return { DATABASE_URL: databaseUrl };
  const through = new URL(databaseUrl);
  const { hostname, port } = new URL(pooler);
  through.hostname = hostname;
  through.port = port;
  return { DATABASE_URL: through.toString(), DATABASE_DIRECT_URL: databaseUrl, DATABASE_POOL_MODE: 'transaction' };
}
