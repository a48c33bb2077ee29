import { dockerAnswers, startMinioContainer, startPostgresContainer, startRedisContainer } from './docker.ts';
import { startEmbeddedStores } from './embedded.ts';
import type { ServiceSource, StartedServices, TestServices } from './types.ts';

export type { ServiceSource, StartedServices, TestServices } from './types.ts';

type Env = Record<string, string | undefined>;

/**
 * Resolution order (README, "Tests"): each service named by DATABASE_URL / REDIS_URL /
 * S3_ENDPOINT is used as is; the others run in containers through testcontainers when a
 * Docker engine answers, else embedded as `npm start` runs them (embedded PostgreSQL,
 * redis-server from PATH, in-process S3); when even that is impossible, the error is one
 * sentence saying what to install.
 */
export async function startTestServices(env: Env = process.env): Promise<StartedServices> {
  const missing = { postgres: !env.DATABASE_URL, redis: !env.REDIS_URL, s3: !env.S3_ENDPOINT };
  if (!missing.postgres && !missing.redis && !missing.s3) return fromEnvironment(env);
  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const fn of stops.reverse()) await fn().catch(() => {});
  };
  try {
    const found = (await dockerAnswers(env))
      ? await startContainers(missing, stops)
      : await startEmbedded(missing, env, stops);
    const source = (name: keyof typeof missing): ServiceSource => (missing[name] ? found.source : 'environment');
    const services: TestServices = {
      databaseUrl: env.DATABASE_URL ?? found.databaseUrl!,
      redisUrl: env.REDIS_URL ?? found.redisUrl!,
      s3: env.S3_ENDPOINT ? namedS3(env) : found.s3!,
    };
    return {
      services,
      sources: { postgres: source('postgres'), redis: source('redis'), s3: source('s3') },
      env: asEnv(services),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** One line per service: where the run's PostgreSQL, Redis and S3 come from. */
export function describeServices({ services, sources }: StartedServices): string[] {
  const how: Record<ServiceSource, string> = {
    environment: 'named by the environment',
    container: 'a container (testcontainers)',
    embedded: 'embedded, as npm start runs it',
  };
  const host = (url: string) => new URL(url).host;
  return [
    `PostgreSQL: ${how[sources.postgres]} (${host(services.databaseUrl)})`,
    `Redis:      ${how[sources.redis]} (${host(services.redisUrl)})`,
    `S3:         ${how[sources.s3]} (${host(services.s3.endpoint)})`,
  ];
}

interface Found {
  source: ServiceSource;
  databaseUrl?: string;
  redisUrl?: string;
  s3?: TestServices['s3'];
}

async function startContainers(
  missing: Record<'postgres' | 'redis' | 's3', boolean>,
  stops: Array<() => Promise<void>>,
): Promise<Found> {
  const [postgres, redis, minio] = await Promise.all([
    missing.postgres ? startPostgresContainer() : undefined,
    missing.redis ? startRedisContainer() : undefined,
    missing.s3 ? startMinioContainer() : undefined,
  ]);
  for (const started of [postgres, redis, minio]) if (started) stops.push(started.stop);
  return { source: 'container', databaseUrl: postgres?.url, redisUrl: redis?.url, s3: minio?.s3 };
}

async function startEmbedded(
  missing: Record<'postgres' | 'redis' | 's3', boolean>,
  env: Env,
  stops: Array<() => Promise<void>>,
): Promise<Found> {
  const stores = await startEmbeddedStores(missing, env).catch((error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `Tests need PostgreSQL, Redis and S3; with no DATABASE_URL/REDIS_URL/S3_ENDPOINT set and no Docker engine answering, ` +
        `they start embedded as npm start does, which failed: ${reason}`,
    );
  });
  stops.push(stores.stop);
  return { source: 'embedded', databaseUrl: stores.databaseUrl, redisUrl: stores.redisUrl, s3: stores.s3 };
}

function fromEnvironment(env: Env): StartedServices {
  const services = { databaseUrl: env.DATABASE_URL!, redisUrl: env.REDIS_URL!, s3: namedS3(env) };
  const sources = { postgres: 'environment', redis: 'environment', s3: 'environment' } as const;
  return { services, sources, env: asEnv(services), stop: async () => {} };
}

function namedS3(env: Env): TestServices['s3'] {
  return {
    endpoint: env.S3_ENDPOINT!,
    accessKeyId: env.S3_ACCESS_KEY_ID ?? 'minioadmin',
    secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? 'minioadmin',
    region: env.S3_REGION ?? 'us-east-1',
  };
}

function asEnv(services: TestServices): Record<string, string> {
  return {
    DATABASE_URL: services.databaseUrl,
    REDIS_URL: services.redisUrl,
    S3_ENDPOINT: services.s3.endpoint,
    S3_ACCESS_KEY_ID: services.s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: services.s3.secretAccessKey,
    S3_REGION: services.s3.region,
  };
}
