import { existsSync } from 'node:fs';
import { request } from 'node:http';

/** Where the real services for a test run live. */
export interface TestServices {
  databaseUrl: string;
  redisUrl: string;
  s3: { endpoint: string; accessKeyId: string; secretAccessKey: string; region: string };
}

export interface StartedServices {
  services: TestServices;
  /** Stops whatever this run started (containers, the in-process S3 store). */
  stop(): Promise<void>;
}

const MISSING_SERVICES =
  'Tests need PostgreSQL and Redis: set DATABASE_URL and REDIS_URL (for example postgres://postgres@127.0.0.1:5432/test and redis://127.0.0.1:6379), or start a Docker engine so that testcontainers can run them.';

/**
 * Resolution order (README): services named by DATABASE_URL / REDIS_URL / S3_ENDPOINT; else
 * containers through testcontainers when a Docker engine answers; else, for S3 only, an
 * in-process s3rver; else one sentence saying what to start.
 */
export async function startTestServices(env: Record<string, string | undefined> = process.env): Promise<StartedServices> {
  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const fn of stops.reverse()) await fn().catch(() => {});
  };
  try {
    const docker = !env.DATABASE_URL || !env.REDIS_URL || !env.S3_ENDPOINT ? await dockerAnswers(env) : false;

    let databaseUrl = env.DATABASE_URL;
    if (!databaseUrl && docker) {
      const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
      const container = await new PostgreSqlContainer('postgres:15-alpine').start();
      stops.push(async () => void (await container.stop()));
      databaseUrl = container.getConnectionUri();
    }
    let redisUrl = env.REDIS_URL;
    if (!redisUrl && docker) {
      const { RedisContainer } = await import('@testcontainers/redis');
      const container = await new RedisContainer('redis:7-alpine').start();
      stops.push(async () => void (await container.stop()));
      redisUrl = container.getConnectionUrl();
    }
    if (!databaseUrl || !redisUrl) throw new Error(MISSING_SERVICES);

    let s3: TestServices['s3'];
    if (env.S3_ENDPOINT) {
      s3 = {
        endpoint: env.S3_ENDPOINT,
        accessKeyId: env.S3_ACCESS_KEY_ID ?? 'minioadmin',
        secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? 'minioadmin',
        region: env.S3_REGION ?? 'us-east-1',
      };
    } else if (docker) {
      const { MinioContainer } = await import('@testcontainers/minio');
      const container = await new MinioContainer('minio/minio:latest').start();
      stops.push(async () => void (await container.stop()));
      s3 = {
        endpoint: container.getConnectionUrl(),
        accessKeyId: container.getUsername(),
        secretAccessKey: container.getPassword(),
        region: 'us-east-1',
      };
    } else {
      const { startLocalS3 } = await import('./local-s3.ts');
      const local = await startLocalS3();
      stops.push(local.stop);
      s3 = local.s3;
    }
    return { services: { databaseUrl, redisUrl, s3 }, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** True when a Docker engine answers its ping; never throws, answers within a second. */
async function dockerAnswers(env: Record<string, string | undefined>): Promise<boolean> {
  const host = env.DOCKER_HOST;
  const socketPath = host?.startsWith('unix://') ? host.slice('unix://'.length) : host ? undefined : '/var/run/docker.sock';
  if (socketPath && !existsSync(socketPath)) return false;
  const target = socketPath ? { socketPath } : new URL(host!.replace(/^tcp:/, 'http:'));
  return new Promise((resolve) => {
    const options = 'socketPath' in target ? { socketPath: target.socketPath } : { host: target.hostname, port: target.port };
    const req = request({ ...options, path: '/_ping', timeout: 1_000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}
