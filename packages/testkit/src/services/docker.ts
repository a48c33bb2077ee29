import { existsSync } from 'node:fs';
import { request } from 'node:http';
import type { TestServices } from './types.ts';

/** True when a Docker engine answers its ping; never throws, answers within a second. */
export async function dockerAnswers(env: Record<string, string | undefined>): Promise<boolean> {
  const host = env.DOCKER_HOST;
  const socketPath = host?.startsWith('unix://')
    ? host.slice('unix://'.length)
    : host
      ? undefined
      : '/var/run/docker.sock';
  if (socketPath && !existsSync(socketPath)) return false;
  const target = socketPath ? { socketPath } : new URL(host!.replace(/^tcp:/, 'http:'));
  return new Promise((resolve) => {
    const options =
      'socketPath' in target ? { socketPath: target.socketPath } : { host: target.hostname, port: target.port };
    const req = request({ ...options, path: '/_ping', timeout: 1_000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}

type Stop = () => Promise<void>;

export async function startPostgresContainer(): Promise<{ url: string; stop: Stop }> {
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  const container = await new PostgreSqlContainer('postgres:15-alpine').start();
  return { url: container.getConnectionUri(), stop: async () => void (await container.stop()) };
}

export async function startRedisContainer(): Promise<{ url: string; stop: Stop }> {
  const { RedisContainer } = await import('@testcontainers/redis');
  const container = await new RedisContainer('redis:7-alpine').start();
  return { url: container.getConnectionUrl(), stop: async () => void (await container.stop()) };
}

export async function startMinioContainer(): Promise<{ s3: TestServices['s3']; stop: Stop }> {
  const { MinioContainer } = await import('@testcontainers/minio');
  const container = await new MinioContainer('minio/minio:latest').start();
  return {
    s3: {
      endpoint: container.getConnectionUrl(),
      accessKeyId: container.getUsername(),
      secretAccessKey: container.getPassword(),
      region: 'us-east-1',
    },
    stop: async () => void (await container.stop()),
  };
}
